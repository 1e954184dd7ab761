"""One whole deal of each game, played with nothing but the client `openapi-python-client`
generates from the served document (the package `atout_client` on the path).

It is checked with `mypy --strict` before it runs: every request is built and every answer
read through the generated classes, every action made from a typed legal action of the view,
so a document that left a thing untyped (a union the generator cannot read, an object
without properties) shows here as a type error rather than as a dict to poke at.

Usage: `python play.py BASE_URL`; prints one JSON line: by game, the match, the actions sent,
its final status and the token of its creator (N), who may read its stream.
"""

from __future__ import annotations

import json
import random
import sys
import uuid
from typing import TypeVar, assert_never

from atout_client import AuthenticatedClient, Client
from atout_client.api.matches import v1_matches_create_match as create_match
from atout_client.api.matches import v1_matches_match_id_get_match as get_match
from atout_client.api.matches import v1_matches_match_id_seats_take_seat as take_seat
from atout_client.api.play import v1_matches_match_id_actions_act as act
from atout_client.api.players import v1_players_register as register
from atout_client.models import (
    BeloteBidCommand, BeloteBidCommandSuit, BeloteBidCommandValueType1, BeloteBidLegal, BeloteCoincheCommand,
    BeloteCoincheLegal, BeloteDeclareCommand, BeloteDeclareLegal, BeloteNameCommand, BeloteNameCommandSuit,
    BeloteNameLegal, BeloteOptionsIn, BeloteOptionsInVariant, BelotePassCommand, BelotePassLegal, BelotePlayCommand,
    BelotePlayLegal, BeloteSurcoincheCommand, BeloteSurcoincheLegal, BeloteTakeCommand, BeloteTakeLegal, BeloteView,
    CinchBidCommand, CinchBidLegal, CinchDiscardCommand, CinchDiscardLegal, CinchOptionsIn, CinchPassCommand,
    CinchPassLegal, CinchPlayCommand, CinchPlayLegal, CinchRobCommand, CinchRobLegal, CinchTrumpCommand,
    CinchTrumpCommandSuit, CinchTrumpLegal, CinchView, CreateMatch, CreateMatchGame, CreateMatchSeats, ErrorOut,
    FiveHundredBid2Command, FiveHundredBid2CommandContract, FiveHundredBid2Legal, FiveHundredBidCommand,
    FiveHundredBidCommandSuit, FiveHundredBidLegal, FiveHundredDiscardCommand, FiveHundredDiscardLegal,
    FiveHundredOptionsIn, FiveHundredPassCommand, FiveHundredPassLegal, FiveHundredPlay2Command,
    FiveHundredPlay2CommandSuit, FiveHundredPlay2Legal, FiveHundredPlayCommand, FiveHundredPlayLegal,
    FiveHundredView, MatchViewOut, MatchViewOutStatus, Register, Seat, V1MatchesMatchIdSeatsTakeSeatSeat,
)

T = TypeVar("T")
Command = (BeloteBidCommand | BeloteCoincheCommand | BeloteDeclareCommand | BeloteNameCommand | BelotePassCommand
           | BelotePlayCommand | BeloteSurcoincheCommand | BeloteTakeCommand | CinchBidCommand | CinchDiscardCommand
           | CinchPassCommand | CinchPlayCommand | CinchRobCommand | CinchTrumpCommand | FiveHundredBid2Command
           | FiveHundredBidCommand | FiveHundredDiscardCommand | FiveHundredPassCommand | FiveHundredPlay2Command
           | FiveHundredPlayCommand)
BeloteLegal = (BeloteBidLegal | BeloteCoincheLegal | BeloteDeclareLegal | BeloteNameLegal | BelotePassLegal
               | BelotePlayLegal | BeloteSurcoincheLegal | BeloteTakeLegal)
CinchLegal = CinchBidLegal | CinchDiscardLegal | CinchPassLegal | CinchPlayLegal | CinchRobLegal | CinchTrumpLegal
FiveHundredLegal = (FiveHundredBid2Legal | FiveHundredBidLegal | FiveHundredDiscardLegal | FiveHundredPassLegal
                    | FiveHundredPlay2Legal | FiveHundredPlayLegal)
Options = BeloteOptionsIn | CinchOptionsIn | FiveHundredOptionsIn


def ok(answer: T | ErrorOut | None) -> T:
    """The answer's body, or a failure saying what the server refused."""
    if isinstance(answer, ErrorOut):
        raise SystemExit(f"refused: {answer.code}: {answer.message}")
    if answer is None:
        raise SystemExit("an answer the document does not declare")
    return answer


def belote(action: BeloteLegal, version: int) -> Command:
    envelope = uuid.uuid4(), version
    if isinstance(action, BeloteBidLegal):
        value = action.value if isinstance(action.value, int) else BeloteBidCommandValueType1(action.value.value)
        return BeloteBidCommand(*envelope, action=action.action, value=value,
                                suit=BeloteBidCommandSuit(action.suit.value))
    if isinstance(action, BeloteNameLegal):
        return BeloteNameCommand(*envelope, action=action.action, suit=BeloteNameCommandSuit(action.suit.value))
    if isinstance(action, BeloteDeclareLegal):
        return BeloteDeclareCommand(*envelope, action=action.action, combinations=action.combinations)
    if isinstance(action, BelotePlayLegal):
        return BelotePlayCommand(*envelope, action=action.action, card=action.card, belote=action.belote)
    if isinstance(action, BelotePassLegal):
        return BelotePassCommand(*envelope, action=action.action)
    if isinstance(action, BeloteTakeLegal):
        return BeloteTakeCommand(*envelope, action=action.action)
    if isinstance(action, BeloteCoincheLegal):
        return BeloteCoincheCommand(*envelope, action=action.action)
    if isinstance(action, BeloteSurcoincheLegal):
        return BeloteSurcoincheCommand(*envelope, action=action.action)
    assert_never(action)


def cinch(action: CinchLegal, version: int, rng: random.Random) -> Command:
    envelope = uuid.uuid4(), version
    if isinstance(action, CinchBidLegal):
        return CinchBidCommand(*envelope, action=action.action, value=action.value)
    if isinstance(action, CinchTrumpLegal):
        return CinchTrumpCommand(*envelope, action=action.action, suit=CinchTrumpCommandSuit(action.suit.value))
    if isinstance(action, CinchDiscardLegal):
        return CinchDiscardCommand(*envelope, action=action.action,
                                   cards=rng.sample(action.cards.from_, action.cards.choose))
    if isinstance(action, CinchRobLegal):
        return CinchRobCommand(*envelope, action=action.action, keep=rng.sample(action.keep.from_, action.keep.choose))
    if isinstance(action, CinchPlayLegal):
        return CinchPlayCommand(*envelope, action=action.action, card=action.card)
    if isinstance(action, CinchPassLegal):
        return CinchPassCommand(*envelope, action=action.action)
    assert_never(action)


def five_hundred(action: FiveHundredLegal, version: int, rng: random.Random) -> Command:
    envelope = uuid.uuid4(), version
    if isinstance(action, FiveHundredBidLegal):
        return FiveHundredBidCommand(*envelope, action=action.action, tricks=action.tricks,
                                     suit=FiveHundredBidCommandSuit(action.suit.value))
    if isinstance(action, FiveHundredBid2Legal):
        return FiveHundredBid2Command(*envelope, action=action.action,
                                      contract=FiveHundredBid2CommandContract(action.contract.value))
    if isinstance(action, FiveHundredDiscardLegal):
        return FiveHundredDiscardCommand(*envelope, action=action.action,
                                         cards=rng.sample(action.cards.from_, action.cards.choose))
    if isinstance(action, FiveHundredPlay2Legal):
        return FiveHundredPlay2Command(*envelope, action=action.action, card=action.card,
                                       suit=FiveHundredPlay2CommandSuit(action.suit.value))
    if isinstance(action, FiveHundredPlayLegal):
        return FiveHundredPlayCommand(*envelope, action=action.action, card=action.card)
    if isinstance(action, FiveHundredPassLegal):
        return FiveHundredPassCommand(*envelope, action=action.action)
    assert_never(action)


def choose(view: MatchViewOut, rng: random.Random) -> Command:
    """One of the seat's legal actions now, as the command that takes it."""
    table = view.table
    if isinstance(table, BeloteView):
        if isinstance(table.legal, list) and table.legal:
            return belote(rng.choice(table.legal), view.version)
    elif isinstance(table, CinchView):
        if table.legal:
            return cinch(rng.choice(table.legal), view.version, rng)
    elif isinstance(table, FiveHundredView):
        if table.legal:
            return five_hundred(rng.choice(table.legal), view.version, rng)
    else:
        assert_never(table)
    raise SystemExit(f"seat {view.seat} is to act with no legal action")


def play(players: dict[Seat, AuthenticatedClient], game: CreateMatchGame, options: Options,
         rng: random.Random) -> tuple[str, int, MatchViewOutStatus]:
    """Create a match as N, seat the others, act for whoever is to act until it is over."""
    seats = CreateMatchSeats(n="me", e="open", s="open", w="open")
    created = ok(create_match.sync(client=players[Seat.N], body=CreateMatch(game=game, seats=seats, options=options)))
    for seat in (Seat.E, Seat.S, Seat.W):
        ok(take_seat.sync(created.match_id, V1MatchesMatchIdSeatsTakeSeatSeat(seat.value), client=players[seat]))
    acted = 0
    for _ in range(1000):
        view = ok(get_match.sync(created.match_id, client=players[Seat.N]))
        if view.status is not MatchViewOutStatus.PLAYING or not view.to_act:
            return created.match_id, acted, view.status
        seat = rng.choice(view.to_act)
        mine = view if seat is Seat.N else ok(get_match.sync(created.match_id, client=players[seat]))
        ok(act.sync(created.match_id, client=players[seat], body=choose(mine, rng)))
        acted += 1
    raise SystemExit(f"{game.value}: not over after {acted} actions")


def main(base_url: str) -> None:
    anonymous = Client(base_url=base_url)
    players = {seat: AuthenticatedClient(base_url=base_url, token=ok(register.sync(
        client=anonymous, body=Register(name=f"typed {seat.value}"))).token) for seat in Seat}
    rng = random.Random(20261204)
    games: list[tuple[CreateMatchGame, Options]] = [
        (CreateMatchGame.BELOTE, BeloteOptionsIn(variant=BeloteOptionsInVariant.COINCHE, deals=1)),
        (CreateMatchGame.CINCH, CinchOptionsIn(deals=1)),
        (CreateMatchGame.FIVE_HUNDRED, FiveHundredOptionsIn(deals=1)),
    ]
    played = {game.value: play(players, game, options, rng) for game, options in games}
    print(json.dumps({game: {"match_id": match_id, "actions": acted, "status": status.value,
                             "token": players[Seat.N].token} for game, (match_id, acted, status) in played.items()}))


if __name__ == "__main__":
    main(sys.argv[1])
