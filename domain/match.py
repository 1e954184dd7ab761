"""A match: seats around one game, as a decider over the match stream.

The game's own decider knows deals, auctions and tricks. Around it a match has seats that
players and bots take and leave, a start, the public commitment of the verifiable deal,
the seeds revealed as deals end, and one public summary per finished deal (what the hand
records, the lobby and standings fold without knowing any game). All of it is in one
stream, so a match replays from its events alone; nothing here draws a random number —
the service brings the first dealer and every deck.
"""

from __future__ import annotations

from typing import Any, Mapping

import msgspec

from domain.cards import Seat
from domain.chains import Chain, chain_for, next_chain, renewal_due  # noqa: F401  (re-exported)
from domain.match_bounds import MAX_DEALS, MAX_TARGET, check_bounds  # noqa: F401  (re-exported)
from domain.game import AdjustScore, GameRules, RuleViolation, StartDeal, VoidDeal, verify
from domain.games import load
from domain import ratings

from domain.match_view import MatchView, redact, view  # noqa: F401  (re-exported: `rules.view`)
from domain.match_events import (  # noqa: F401  (the match's vocabulary, re-exported: `rules.X`)
    SeatHolder,
    TournamentRound,
    MatchCreated,
    SeatTaken,
    SeatLeft,
    MatchStarted,
    DealDealt,
    ActionTaken,
    SeedRevealed,
    DealFinished,
    MatchFinished,
    RulingApplied,
    MatchReopened,
    MatchAbandoned,
    ChainRenewed,
    MatchSuspended,
    MatchResumed,
    MatchVoided,
    RenewChain,
    Suspend,
    Resume,
    VoidMatch,
    TakeSeat,
    LeaveSeat,
    StartMatch,
    Act,
    Abandon,
    Rule,
    MATCH_EVENTS,
    PRIVATE_MATCH_EVENTS,
    MATCH_EVENT_TAGS,
)


# --- State --------------------------------------------------------------------------------

class MatchState(msgspec.Struct, frozen=True):
    match_id: str = ""
    game_name: str = ""
    raw_options: dict[str, Any] = {}
    seats: dict[str, SeatHolder | None] = {}
    status: str = "new"            # new, open, playing, suspended, finished, abandoned, void
    commitment: str | None = None
    chain_length: int = 0
    chains: tuple[Chain, ...] = ()                 # the first (the commitment) and every renewal
    suspension: dict[str, Any] | None = None       # {reason, message, status} while suspended
    predefined_deals: int = 0
    sealed: bool = False
    rated: bool = False
    private: bool = False          # a private table (docs/social.md): out of every public list
    host: str | None = None        # the player who created it (None: the server did, e.g. a rematch)
    standin: str | None = None     # a tournament table's level for an absent person (None: basic)
    game_state: Any = None
    deal_index: int = -1           # 0-based index of the current/last deal
    dealer: Seat | None = None
    deck: tuple[str, ...] = ()
    fair: dict[str, Any] | None = None
    actions: tuple[dict[str, Any], ...] = ()
    version: int = 0               # events folded so far (the stream version)
    boards: tuple[dict[str, Any], ...] = ()   # boards a `replay` ruling queued, dealt next in order
    replay_of: int | None = None   # the current deal replays this one (its seed was revealed then)

    @property
    def game(self) -> GameRules:
        return load(self.game_name)

    @property
    def free_seats(self) -> list[Seat]:
        return [Seat(s) for s, h in self.seats.items() if h is None]


def initial() -> MatchState:
    return MatchState()


def create(match_id: str, game_name: str, options: Mapping[str, Any], seats: Mapping[str, SeatHolder | None],
           commitment: str | None, chain_length: int, predefined_deals: int = 0,
           created_by: str | None = None, sealed: bool = False, rated: bool = False,
           private: bool = False, tournament: TournamentRound | None = None) -> list[Any]:
    """The first event of a match; validates the game and its options (bad_option), and
    bounds `deals` and `target` (`check_bounds`). A private table is casual: ratings rest on
    matches anyone could have joined."""
    game = load(game_name)
    game.parse_options(dict(options))
    check_bounds(game_name, options)
    verify(set(seats) == {s.value for s in Seat}, "bad_seats", "seats must name N, E, S and W")
    players = [h.player_id for h in seats.values() if h is not None and h.player_id is not None]
    verify(len(players) == len(set(players)), "bad_seats", "a player holds one seat: 'me' at most once")
    if rated and private:
        raise RuleViolation("not_rateable", "a private table is casual: only a public match can be rated",
                            {"reason": "private"})
    if rated:  # a tournament's sealed boards are fair deals of its own, not a record's known cards
        ratings.verify_rateable({s: "bot" if h is not None and h.kind == "bot" else "open" for s, h in seats.items()},
                                predefined=predefined_deals > 0 and not sealed)
    return [MatchCreated(match_id=match_id, game=game_name, options=dict(options),
                         seats={s: seats[s] for s in ("N", "E", "S", "W")}, commitment=commitment,
                         chain_length=chain_length, predefined_deals=predefined_deals, created_by=created_by,
                         sealed=sealed, rated=rated, private=private, tournament=tournament)]


def decide(state: MatchState, command: Any) -> list[Any]:
    if isinstance(command, TakeSeat):
        verify(state.status == "open", "match_not_open", "seats can be taken only before the match starts")
        verify(state.seats.get(command.seat) is None, "seat_taken", f"seat {command.seat} is already taken")
        if state.rated and command.holder.kind == "bot":
            ratings.verify_rateable({str(command.seat): "bot"})
        if command.holder.player_id is not None:
            verify(all(h is None or h.player_id != command.holder.player_id for h in state.seats.values()),
                   "already_seated", "you already hold a seat in this match")
        return [SeatTaken(seat=command.seat, holder=command.holder)]
    if isinstance(command, LeaveSeat):
        verify(state.status == "open", "match_not_open", "seats can be left only before the match starts")
        holder = state.seats.get(command.seat)
        verify(holder is not None and (holder.kind == "bot" or holder.player_id == command.player_id),
               "not_your_seat", f"you do not hold seat {command.seat}")
        return [SeatLeft(seat=command.seat, player_id=command.player_id)]
    if isinstance(command, StartMatch):
        verify(state.status == "open", "match_not_open", "the match has already started")
        verify(not state.free_seats, "seats_free", "every seat must be taken before the match starts",
               free=[str(s) for s in state.free_seats])
        return [MatchStarted(first_dealer=command.first_dealer), *_deal(state, command.first_deal)]
    if isinstance(command, StartDeal):
        verify(state.status == "playing", "wrong_phase", "the match is not being played")
        return _deal(state, command)
    if isinstance(command, Act):
        verify(state.status in ("playing", "suspended", "finished", "abandoned", "void"), "match_not_started",
               "the match has not started")
        _not_suspended(state)
        verify(state.status == "playing", "match_over", "the match is over")
        game = state.game
        move = game.parse_action(command.action)
        holder = state.seats.get(str(command.action.get("seat")))
        if command.player_id is not None:
            verify(holder is not None and holder.player_id == command.player_id, "not_your_seat",
                   f"you do not hold seat {command.action.get('seat')}")
        events = game.decide(state.game_state, move)
        action = {k: v for k, v in msgspec.to_builtins(command.action).items()}
        return [ActionTaken(seat=Seat(action["seat"]), action=action, by=command.by), *events]
    if isinstance(command, Rule):
        _not_suspended(state)
        return _rule(state, command)
    if isinstance(command, Abandon):
        verify(state.status in ("open", "playing", "suspended"), "match_over",
               "only an open, playing or suspended match can be abandoned")
        return [MatchAbandoned(idle_seconds=float(command.idle_seconds), admin=command.admin, reason=command.reason)]
    if isinstance(command, RenewChain):
        verify(bool(state.chains), "no_chain", "a match of predefined deals only has no chain to renew")
        number, first = next_chain(state.chains)
        return [ChainRenewed(chain=number, tip=command.tip, chain_length=command.chain_length, first_deal=first)]
    if isinstance(command, Suspend):
        _not_suspended(state)
        verify(state.status == "playing", "match_not_started" if state.status == "open" else "match_over",
               "only a match being played can be suspended")
        return [MatchSuspended(reason=command.reason, message=command.message, status=state.status)]
    if isinstance(command, Resume):
        verify(state.status == "suspended", "match_not_suspended", "only a suspended match can be resumed")
        return [MatchResumed(admin=command.admin, reason=command.reason)]
    if isinstance(command, VoidMatch):
        verify(state.status == "suspended", "match_not_suspended", "only a suspended match can be voided")
        return [MatchVoided(admin=command.admin, reason=command.reason)]
    raise RuleViolation("bad_action", f"unknown command {type(command).__name__}")


def _not_suspended(state: MatchState) -> None:
    if state.status == "suspended":
        raise RuleViolation("match_suspended", "the match is suspended until an admin resumes it",
                            {"reason": (state.suspension or {}).get("reason")})


def _deal(state: MatchState, command: StartDeal) -> list[Any]:
    replay_of = None
    if state.boards:  # a replay ruling's board comes before any fresh shuffle
        board = state.boards[0]
        replay_of = board["deal"]
        command = StartDeal(dealer=command.dealer, deck=tuple(board["deck"]), fair=board.get("fair"))
    events = state.game.decide(state.game_state, command)
    return [DealDealt(deal=state.deal_index + 1, dealer=command.dealer, deck=command.deck, fair=command.fair,
                      replay_of=replay_of), *events]


# --- Rulings (docs/disputes.md): new events, never an edit of the past ------------------

RULINGS = ("adjust", "void", "replay")


def _rule(state: MatchState, command: Rule) -> list[Any]:
    """The game decides whether the ruling is allowed now (each game's docs/rules-*.md); the
    match then says what became of it: over again (a new result), or reopened."""
    verify(state.status in ("playing", "finished"), "match_not_started", "the match has not started")
    verify(command.ruling in RULINGS, "bad_action", f"a ruling is one of {', '.join(RULINGS)}")
    game = state.game
    if command.ruling == "adjust":
        verify(bool(command.score), "bad_action", "an adjustment needs a score, e.g. {\"NS\": -20, \"EW\": 20}")
        move: Any = AdjustScore(deal=command.deal, score=dict(command.score or {}), admin=command.admin,
                                reason=command.reason)
    else:
        verify(command.ruling == "void" or command.board is not None, "bad_action", "a replay needs the board")
        move = VoidDeal(deal=command.deal, admin=command.admin, reason=command.reason)
    events: list[Any] = [RulingApplied(ruling=command.ruling, deal=command.deal, admin=command.admin,
                                       reason=command.reason, dispute_id=command.dispute_id, score=command.score,
                                       board=command.board if command.ruling == "replay" else None),
                         *game.decide(state.game_state, move)]
    after = state
    for event in events:
        after = evolve(after, event)
    status = game.status(after.game_state)
    if command.ruling == "replay":
        deals = state.raw_options.get("deals")
        verify(status.phase == "awaiting_deal" or (status.phase == "in_deal" and (
            deals is None or status.deals_played < deals)), "match_over",
            "no deal follows this one to replay the board in; void the deal instead")
    if status.phase == "match_over":
        events.append(MatchFinished(winner=status.winner, match_score=status.match_score))
    elif state.status == "finished":
        events.append(MatchReopened(match_score=status.match_score))
    return events


def evolve(state: MatchState, event: Any) -> MatchState:
    state = msgspec.structs.replace(state, version=state.version + 1)
    if isinstance(event, MatchCreated):
        game = load(event.game)
        return msgspec.structs.replace(
            state, match_id=event.match_id, game_name=event.game, raw_options=event.options, seats=event.seats,
            status="open", commitment=event.commitment, chain_length=event.chain_length,
            chains=(Chain(1, event.commitment, event.chain_length, 0),) if event.commitment else (),
            predefined_deals=event.predefined_deals, sealed=event.sealed, rated=event.rated,
            private=event.private, host=event.created_by,
            standin=event.tournament.standin if event.tournament is not None else None, game_state=game.initial(game.parse_options(event.options)))
    if isinstance(event, SeatTaken):
        return msgspec.structs.replace(state, seats={**state.seats, event.seat.value: event.holder})
    if isinstance(event, SeatLeft):
        return msgspec.structs.replace(state, seats={**state.seats, event.seat.value: None})
    if isinstance(event, MatchStarted):
        return msgspec.structs.replace(state, status="playing")
    if isinstance(event, MatchFinished):
        return msgspec.structs.replace(state, status="finished")
    if isinstance(event, MatchAbandoned):
        return msgspec.structs.replace(state, status="abandoned", suspension=None)
    if isinstance(event, ChainRenewed):
        return msgspec.structs.replace(state, chains=state.chains + (
            Chain(event.chain, event.tip, event.chain_length, event.first_deal),))
    if isinstance(event, MatchSuspended):
        return msgspec.structs.replace(state, status="suspended", suspension={
            "reason": event.reason, "message": event.message, "status": event.status})
    if isinstance(event, MatchResumed):
        return msgspec.structs.replace(state, status=(state.suspension or {}).get("status", "playing"),
                                       suspension=None)
    if isinstance(event, MatchVoided):
        return msgspec.structs.replace(state, status="void", suspension=None)
    if isinstance(event, DealDealt):
        return msgspec.structs.replace(state, deal_index=event.deal, dealer=event.dealer, deck=event.deck,
                                       fair=event.fair, actions=(), replay_of=event.replay_of,
                                       boards=state.boards[1:] if event.replay_of is not None else state.boards)
    if isinstance(event, ActionTaken):
        return msgspec.structs.replace(state, actions=state.actions + (event.action,))
    if isinstance(event, (SeedRevealed, DealFinished)):
        return state
    if isinstance(event, RulingApplied):
        return msgspec.structs.replace(state, boards=state.boards + (event.board,)) if event.board else state
    if isinstance(event, MatchReopened):
        return msgspec.structs.replace(state, status="playing")
    game_state = state.game.evolve(state.game_state, event)
    return msgspec.structs.replace(state, game_state=game_state)


def finish_deal(state: MatchState, seed: str | None) -> list[Any]:
    """What the match adds when its game leaves a deal: the revealed seed (for a shuffled
    deal), the public hand record, and the end of the match when the game says so. Empty
    while the deal goes on."""
    status = state.game.status(state.game_state)
    if status.phase == "in_deal" or state.dealer is None:
        return []
    events: list[Any] = []
    fair = state.fair
    if seed is not None and fair is not None and state.replay_of is None:  # a replay's seed is already out
        fair = {**fair, "seed": seed}
        events.append(SeedRevealed(deal=state.deal_index, seed=seed, context=fair.get("context", ""),
                                   entropy=fair.get("entropy") or {}))
    events.append(DealFinished(deal=state.deal_index, dealer=state.dealer, deck=state.deck, actions=state.actions,
                               summary=state.game.deal_summary(state.game_state),
                               match_score=status.match_score, fair=fair))
    if status.phase == "match_over":
        events.append(MatchFinished(winner=status.winner, match_score=status.match_score))
    return events
