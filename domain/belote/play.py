"""Trick play: the legal plays R1-R5 (belote.md §2.5), belote and rebelote (§2.6), the
declaration of combinations at trick 1 and their comparison at trick 2 (§2.7.4), and the
deal's end (dix de der, capot, §2.3) handed to the scoring formulas."""

from __future__ import annotations

from typing import Any, Sequence

from msgspec.structs import replace

from domain.cards import SEATS, Hands, Seat, with_hand
from domain.game import RuleViolation
from domain.tricks import Trick, current_winner

from domain.belote import combinations as combos
from domain.belote.commands import Declare, Play
from domain.belote.events import (AuctionClosed, CardPlayed, CombinationDeclared, CombinationsCompared,
                                  CombinationsDeclined, Contract, DealScored, TrickWon)
from domain.belote.options import Options
from domain.belote.scoring import contract_result
from domain.belote.ranking import (ALL_TRUMPS, RANK, SUIT, TRICK_RULES, TRUMP_STRENGTH, card_values)
from domain.belote.state import FROM, NEXT, PARTNER, TEAM, Deal, State, deal_in, verify_turn

BELOTE_RANKS = frozenset({"K", "Q"})


def legal_cards(hand: tuple[str, ...], trick: Trick, trump: str | None, house: bool,
                seat: Seat) -> Sequence[str]:
    """The reference pseudo-code of §2.5, rule by rule; in tout atout every suit is played
    as the trump suit: follow and go over the best card of the led suit when able, else any."""
    plays = trick.plays
    if not plays:
        return hand
    led = trick.led
    follow = [c for c in hand if SUIT[c] == led]
    if trump is None:
        return follow or hand                                   # no trump: follow if able
    if trump == ALL_TRUMPS:
        if not follow:
            return hand
        best = max(TRUMP_STRENGTH[c] for _, c in plays if SUIT[c] == led)
        return [c for c in follow if TRUMP_STRENGTH[c] > best] or follow
    if follow:
        if led != trump:
            return follow                                       # R1
        best = max(TRUMP_STRENGTH[c] for _, c in plays if SUIT[c] == trump)
        return [c for c in follow if TRUMP_STRENGTH[c] > best] or follow   # R2, even over partner
    if led == trump:
        return hand                                             # R5
    if len(plays) >= 2 and current_winner(trick, TRICK_RULES[trump]) == PARTNER[seat]:
        return hand                                             # R3
    trumps = [c for c in hand if SUIT[c] == trump]
    if not trumps:
        return hand                                             # R4a
    in_trick = [TRUMP_STRENGTH[c] for _, c in plays if SUIT[c] == trump]
    if not in_trick:
        return trumps                                           # R4b
    best = max(in_trick)
    higher = [c for c in trumps if TRUMP_STRENGTH[c] > best]
    if higher:
        return higher                                           # R4c
    return trumps if house else hand                            # R4d: §6 row 8


def belote_holder(hands: Hands, trump: str | None) -> Seat | None:
    """The seat holding K and Q of trump after the full deal (§2.6.1); none in sans atout
    (§2.6.5) nor in tout atout (docs/rules-belote.md)."""
    if trump is None or trump == ALL_TRUMPS:
        return None
    for seat, hand in zip(SEATS, hands):
        if "K" + trump in hand and "Q" + trump in hand:
            return seat
    return None


def is_belote_card(card: str, trump: str | None) -> bool:
    return SUIT[card] == trump and RANK[card] in BELOTE_RANKS


def card_points(contract: Contract, official: bool) -> dict[str, int]:
    return card_values(contract.trump, official)


def may_decline(options: Options, deal: Deal, seat: Seat) -> bool:
    """§8b: with combinations on, before the seat's first card, once, holding one."""
    return (options.combinations and deal.phase == "play" and not deal.tricks
            and seat in deal.combinations and seat not in deal.declined
            and deal.trick.card_of(seat) is None)


def legal_for(options: Options, deal: Deal, seat: Seat) -> Sequence[str]:
    """`legal_cards` for `seat` in this deal: what decide checks and the legal actions list.
    Computed on each call (it is cheap), so the rules keep nothing between calls."""
    return legal_cards(deal.hand(seat), deal.trick, deal.contract.trump, not options.official, seat)


def decide_play(state: State, command: Play) -> list[Any]:
    deal = deal_in(state, "play", "play")
    options, pool = state.options, state.pool
    seat, card = command.seat, command.card
    if deal.turn != seat:
        verify_turn(deal.turn, seat)
    if card not in deal.hand(seat):
        raise RuleViolation("card_not_in_hand", f"{seat} does not hold {card}")
    if card not in legal_for(options, deal, seat):
        raise RuleViolation("illegal_card", f"{card} may not be played to this trick (§2.5)")
    trick, contract, done = deal.trick, deal.contract, len(deal.tricks)
    events: list[Any] = []
    if not done and seat in deal.combinations and seat not in deal.declined:
        events.append(CombinationDeclared(seat, deal.combinations[seat][0].kind))
    announce = None
    if seat == deal.belote_holder and is_belote_card(card, contract.trump):
        if deal.belote == "":
            announce = "belote" if command.belote else None
        elif deal.belote == "announced":
            announce = "rebelote"
    events.append(CardPlayed(seat, card, announce))
    if done == 1 and not trick.plays and deal.declared:
        events.append(compare(options, deal))
    if len(trick.plays) == 3:
        plays = trick.plays + ((seat, card),)
        winner = current_winner(Trick(trick.leader, plays, trick.led), TRICK_RULES[contract.trump])
        values = card_points(contract, options.official)
        points = values[plays[0][1]] + values[plays[1][1]] + values[plays[2][1]] + values[card]
        events.append(TrickWon(winner, points))
        if done == 7:
            events.append(score_deal(options, deal, winner, points, announce == "rebelote", pool))
    return events


def decide_declare(state: State, command: Declare) -> list[Any]:
    """Declining one's combinations, the only declaration a seat makes (declaring is automatic)."""
    deal = deal_in(state, "play", "declare")
    options = state.options
    if not options.combinations:
        raise RuleViolation("illegal_declare", "this match is played without combinations")
    if not may_decline(options, deal, command.seat):
        raise RuleViolation("illegal_declare", f"{command.seat} has no combination left to decline "
                            "(only before the seat's first card, once, holding one)")
    return [CombinationsDeclined(command.seat)]


def compare(options: Options, deal: Deal) -> CombinationsCompared:
    declared: dict[str, list] = {"NS": [], "EW": []}
    for seat in FROM[deal.eldest]:
        if seat in deal.declared:
            declared[TEAM[seat]].extend(deal.combinations[seat])
    contract = deal.contract
    team = combos.compare(declared, contract.team, contract.trump, options.official)
    shown = tuple(declared[team]) if team else ()
    return CombinationsCompared(team, shown, sum(c.value for c in shown))


def score_deal(options: Options, deal: Deal, last_winner: Seat, last_points: int,
               rebelote_now: bool, pool: int) -> DealScored:
    contract = deal.contract
    winners = {TEAM[t.winner] for t in deal.tricks} | {TEAM[last_winner]}
    capot = winners.pop() if len(winners) == 1 else None
    P = dict(deal.points)
    P[TEAM[last_winner]] += last_points + (100 if capot else 10)
    B = {"NS": 0, "EW": 0}
    if deal.belote == "done" or rebelote_now:
        B[TEAM[deal.belote_holder]] = 20
    K = {"NS": 0, "EW": 0}
    if deal.combination_team is not None:
        K[deal.combination_team] = deal.combination_points
    result = contract_result(options, contract, P, B, K, capot, pool)
    return DealScored(deal.number, result.result, P, result.score, result.pool)


# --- evolve -------------------------------------------------------------------------------

def evolve_closed(state: State, event: AuctionClosed) -> State:
    """Play begins: eldest leads (§1.3); belote holder and combinations are fixed now, from
    the full hands (§2.6.1, §2.7.4)."""
    options, contract, deal = state.options, event.contract, state.deal
    found: dict[Seat, tuple] = {}
    if options.combinations:
        nt_table = contract.trump is None and options.official
        for seat in SEATS:
            chosen = combos.choose(combos.find(seat, deal.hand(seat), nt_table), options.official, contract.trump)
            if chosen:
                found[seat] = chosen
    return replace(state, deal=replace(deal, phase="play", contract=contract, turn=deal.eldest,
                                       trick=Trick(leader=deal.eldest),
                                       belote_holder=belote_holder(deal.hands, contract.trump), combinations=found))


def evolve_card(state: State, event: CardPlayed) -> State:
    deal = state.deal
    seat, card = event.seat, event.card
    old = deal.trick
    trick = Trick(old.leader, old.plays + ((seat, card),), old.led if old.plays else SUIT[card])
    hand = deal.hand(seat)
    i = hand.index(card)
    hands = with_hand(deal.hands, seat, hand[:i] + hand[i + 1:])
    turn = NEXT[seat] if len(trick.plays) < 4 else None
    if event.announce is None and (deal.belote != "" or seat != deal.belote_holder):
        return replace(state, deal=replace(deal, hands=hands, trick=trick, turn=turn))
    belote, announces = deal.belote, deal.announces
    if event.announce is not None:
        belote = "announced" if event.announce == "belote" else "done"
        announces = announces + ((seat, event.announce),)
    elif is_belote_card(card, deal.contract.trump):
        belote = "declined"
    return replace(state, deal=replace(deal, hands=hands, trick=trick, turn=turn, belote=belote,
                                       announces=announces))


def evolve_trick(state: State, event: TrickWon) -> State:
    deal = state.deal
    tricks = deal.tricks + (replace(deal.trick, winner=event.seat),)
    points = dict(deal.points)
    points[TEAM[event.seat]] += event.points
    last = len(tricks) == 8
    return replace(state, deal=replace(deal, tricks=tricks, points=points,
                                       trick=None if last else Trick(leader=event.seat),
                                       turn=None if last else event.seat))


def evolve_declined(state: State, event: CombinationsDeclined) -> State:
    deal = state.deal
    return replace(state, deal=replace(deal, declined=deal.declined + (event.seat,)))


def evolve_declared(state: State, event: CombinationDeclared) -> State:
    deal = state.deal
    return replace(state, deal=replace(deal, declared={**deal.declared, event.seat: event.kind}))


def evolve_compared(state: State, event: CombinationsCompared) -> State:
    return replace(state, deal=replace(state.deal, combination_team=event.team, shown=event.shown,
                                       combination_points=event.points))


def legal_plays(options: Options, deal: Deal, seat: Seat) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    if deal.turn == seat:
        trump = deal.contract.trump
        cards = legal_for(options, deal, seat)
        out = [{"action": "play", "card": c} for c in cards]
        if seat == deal.belote_holder and deal.belote == "":
            out.extend({"action": "play", "card": c, "belote": False} for c in cards if is_belote_card(c, trump))
    if options.combinations and not deal.tricks and may_decline(options, deal, seat):
        out.append({"action": "declare", "combinations": False})
    return out

