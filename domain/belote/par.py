"""Belote par: a board's result when the auction and the play are both perfect, every hand
known — bridge's par, for Belote's auctions (belote.md §3.2, §5.2).

In classic and sans atout the taker's seat decides who gets which of the last cards, so each
way the auction can end is played through the real decider and its deal solved: at most
sixteen endings (four seats, the turn-up's suit in round 1, three other suits in round 2).
Coinche deals every card first, so its contracts differ only in their scoring: one solve per
trump feeds a search over the rising bids, with the defenders coinching exactly the contracts
that fail and the takers surcoinching what is coinched and made.

Why one solve gives a contract's score: every score formula is non-decreasing in the card-point
difference the solver plays on (made above litige above failed; more points or a capot, more),
so the difference's double-dummy value is also the score's. Every seat holding combinations is
taken to declare them and the belote holder to announce it: neither can cost its team points.
Ties go to the lower contract, and to passing.
"""

from __future__ import annotations

from collections.abc import Sequence

from domain.belote.actions import legal_actions, parse_action
from domain.belote.coinche import CAPOT, MIN_BID, denominations, max_bid
from domain.belote.decider import decide, evolve
from domain.belote.doubledummy import card_points
from domain.belote.options import Options
from domain.belote.scoring import coinche_score, contract_result, declared_bonuses
from domain.belote.state import FROM, OTHER_TEAM, State, initial
from domain.cards import TEAM
from domain.par import NOBODY, Driver, Par, margin

RULES = Driver(initial, decide, evolve, parse_action)


# --- classic and sans atout: every ending of the auction, played through the decider ----------

def _classic(state: State) -> Par:
    deal = state.deal
    if deal.phase == "play":
        P, capot = card_points(state)
        contract = deal.contract
        B, K = declared_bonuses(state, contract.team)
        scored = contract_result(state.options, contract, P, B, K, capot)
        return Par({"seat": str(contract.seat), "team": contract.team, "trump": contract.trump},
                   scored.score, P)
    if deal.phase != "auction":
        return Par(None, dict(NOBODY), dict(NOBODY))          # thrown in: everybody passed twice
    seat = deal.turn
    best: Par | None = None
    for action in legal_actions(state, seat):
        outcome = _classic(RULES.act(state, seat, **action))
        if best is None or margin(outcome, TEAM[seat]) > margin(best, TEAM[seat]):
            best = outcome
    assert best is not None
    return best


# --- Coinche: one solve per trump, then the rising bids ----------------------------------------

def _contracts(state: State) -> dict[str, State]:
    """Each denomination (a suit, TA, SA) -> the deal at its first card, eldest having bid it
    and the others passed (who took and for how much change only the score)."""
    eldest = state.deal.turn
    out = {}
    for suit in denominations(state.options):
        s = RULES.act(state, eldest, action="bid", value=MIN_BID, suit=suit)
        while s.deal.phase == "auction":
            s = RULES.act(s, s.deal.turn, action="pass")
        out[suit] = s
    return out


def _coinche_outcome(state: State, P: dict[str, int], capot: str | None, team: str, seat: str,
                     value: int | str) -> Par:
    """The contract `value` in the deal's trump taken by `team`: the defenders coinche when it
    pays them, the takers then surcoinche when it pays them."""
    B, K = declared_bonuses(state, team)
    official = state.options.official
    trump = state.deal.contract.trump

    def scored(multiplier: int) -> Par:
        score = coinche_score(team, P, B, K, capot, value, multiplier, official).score
        return Par({"seat": seat, "team": team, "trump": trump, "value": value, "multiplier": multiplier},
                   score, P)

    plain, coinched, surcoinched = scored(1), scored(2), scored(4)
    answered = surcoinched if margin(surcoinched, team) > margin(coinched, team) else coinched
    return answered if margin(answered, team) < margin(plain, team) else plain


def _coinche(state: State, solved: dict[str, tuple[dict[str, int], str | None]],
             deals: dict[str, State]) -> Par:
    levels: list[int | str] = [*range(MIN_BID, max_bid(state.options) + 1, 10), CAPOT]
    first = state.deal.turn
    # The seat of each team that bids first names its contracts (the seat matters to no score).
    bidder = {TEAM[s]: str(s) for s in reversed(FROM[first])}
    best_at: list[dict[str, Par]] = []
    for value in levels:
        row = {}
        for team in ("NS", "EW"):
            row[team] = max((_coinche_outcome(deals[suit], *solved[suit], team, bidder[team], value)
                             for suit in deals), key=lambda par: margin(par, team))
        best_at.append(row)
    # held[i][X]: X holds level i's contract, the other team to answer (pass, or bid higher).
    overcall: dict[str, Par | None] = {"NS": None, "EW": None}
    for i in range(len(levels) - 1, -1, -1):
        held = {}
        for team in ("NS", "EW"):
            other = OTHER_TEAM[team]
            answer = overcall[other]
            stay = best_at[i][team]
            held[team] = answer if answer is not None and margin(answer, other) > margin(stay, other) else stay
        for team in ("NS", "EW"):
            if overcall[team] is None or margin(held[team], team) >= margin(overcall[team], team):
                overcall[team] = held[team]
    # The first round from eldest: each seat opens its team's best or passes; four passes: thrown in.
    after = Par(None, dict(NOBODY), dict(NOBODY))
    for seat in reversed(FROM[first]):
        team = TEAM[seat]
        mine = overcall[team]                 # its best over every level, the others answering
        if mine is not None and margin(mine, team) > margin(after, team):
            after = mine
    return after


def par(options: Options, dealer: str, deck: Sequence[str]) -> Par:
    """The board's par: its contract (None when everybody passes), each team's score and card
    points, with both the auction and the play perfect."""
    state = RULES.dealt(options, dealer, deck)
    if state.options.variant != "coinche":
        return _classic(state)
    deals = _contracts(state)
    return _coinche(state, {suit: card_points(s) for suit, s in deals.items()}, deals)


__all__ = ["Par", "par"]
