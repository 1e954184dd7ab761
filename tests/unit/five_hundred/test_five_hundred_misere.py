"""B.6 misère and open misère: played at NT with the Joker the only trump, the partner sits
out (tricks of three), the contractor takes the kitty and leads, the open misère hand is
exposed after trick 1, play stops when the contractor takes a trick; B.7.5 its score."""

from __future__ import annotations

from five_hundred_support import E, N, S, W, act, contract, hand, play, refused, when

from domain.cards import JOKER
from domain.five_hundred import GAME
from domain.five_hundred.events import CardPlayed, DealScored, HandExposed, TrickWon

LOW = ["5S", "6S", "7S", "8S", "9S", "5C", "6C", "7C", "8C", "9C"]
"""Every other spade and club is higher: N cannot take a trick with these (the Joker is with S)."""


def first_legal(state):
    seat = state.deal.turn
    return {"seat": str(seat), **GAME.legal_actions(state, seat)[0]}


def step(state, n=1):
    """n plays, each seat's first legal action."""
    for _ in range(n):
        state = act(state, first_legal(state))
    return state


def cards_in_view(obj):
    import msgspec

    found = set()

    def walk(x):
        if isinstance(x, str):
            if x in GAME.deck:
                found.add(x)
        elif isinstance(x, dict):
            for k, v in x.items():
                walk(k)
                walk(v)
        elif isinstance(x, (list, tuple)):
            for v in x:
                walk(v)
    walk(msgspec.to_builtins(obj))
    return found


def test_misere_partner_sits_out_and_tricks_have_three_cards():
    state = contract(N, kind="misere", dealer=W, hands={N: LOW, S: [JOKER]})
    assert state.deal.contract.seat == N and state.deal.turn == N  # B.6.3: the contractor leads
    assert GAME.view(state, N).sitting_out == S
    state = act(state, play(N, "5S"))
    assert state.deal.turn == E
    state = act(state, first_legal(state))
    assert state.deal.turn == W  # S skipped
    assert GAME.legal_actions(state, S) == []
    assert refused(state, play(S, hand(state, S)[0])) == "not_your_turn"
    events = when(state, first_legal(state))
    assert isinstance(events[-1], TrickWon) and len(state.deal.trick.plays) == 2


def test_misere_made_scores_250_and_the_defenders_nothing():
    state = contract(N, kind="misere", dealer=W, hands={N: LOW, S: [JOKER]})
    while state.phase == "play":
        state = act(state, first_legal(state))
    record = state.history[-1]
    assert len(state.deal.tricks) == 10 and all(len(t.plays) == 3 for t in state.deal.tricks)
    assert record.result == "made" and record.points == (0, 10) and record.score == (250, 0)
    assert GAME.deal_summary(state)["contract"] == {"seat": "N", "team": "NS", "trump": None, "contract": "misere"}


def test_play_stops_as_soon_as_the_misere_contractor_takes_a_trick():
    state = contract(E, kind="misere", dealer=N, hands={E: ["AS"] + LOW[1:], W: [JOKER]})
    state = step(act(state, play(E, "AS")))
    events = when(state, first_legal(state))
    assert events[-2:] == [TrickWon(number=1, winner=E),
                           DealScored(deal=0, result="failed", points={"NS": 0, "EW": 1},
                                      score={"NS": 0, "EW": -250})]
    state = act(state, first_legal(state))
    assert GAME.status(state).phase == "awaiting_deal" and len(state.deal.tricks) == 1
    assert refused(state, {"seat": "S", "action": "pass"}) == "deal_over"


def test_the_joker_is_the_only_trump_in_misere_and_its_lead_names_a_suit():
    state = contract(N, kind="misere", dealer=W, hands={N: [JOKER] + LOW[:9]})
    jokers = [a for a in GAME.legal_actions(state, N) if a["card"] == JOKER]
    assert sorted(a["suit"] for a in jokers) == ["C", "D", "H", "S"]
    assert refused(state, play(N, JOKER)) == "illegal_card"
    state = step(act(state, play(N, JOKER, suit="D")))
    events = when(state, first_legal(state))
    assert events[-1].result == "failed" and events[-2].winner == N


def test_open_misere_hand_is_exposed_after_the_first_trick():
    state = contract(N, kind="open_misere", dealer=W, hands={N: LOW, S: [JOKER]})
    assert GAME.view(state, E).exposed == {}
    assert not set(hand(state, N)) & cards_in_view(GAME.view(state, E))
    state = step(act(state, play(N, "5S")))
    events = when(state, first_legal(state))
    remaining = tuple(c for c in hand(state, N))
    assert events[-1] == HandExposed(seat=N, cards=remaining) and len(remaining) == 9
    assert GAME.redact(events[-1], E) == events[-1] and GAME.redact(events[-1], None) == events[-1]
    state = act(state, first_legal(state))
    for seat in (E, S, W, None):
        view = GAME.view(state, seat)
        assert view.exposed == {"N": remaining}
    assert set(hand(state, S)).isdisjoint(cards_in_view(GAME.view(state, E)))  # the partner's hand stays hidden
    while state.phase == "play":
        state = act(state, first_legal(state))
    assert state.history[-1].score == (500, 0) and state.history[-1].result == "made"


def test_open_misere_lost_at_the_first_trick_never_exposes_the_hand():
    state = contract(N, kind="open_misere", dealer=W, hands={N: ["AS"] + LOW[1:], S: [JOKER]})
    state = step(act(state, play(N, "AS")))
    events = when(state, first_legal(state))
    assert not any(isinstance(e, HandExposed) for e in events)
    assert events[-1].score == {"NS": -500, "EW": 0}


def test_misere_contractor_plays_to_a_defender_lead_in_turn():
    state = contract(W, kind="misere", dealer=S, hands={W: LOW, E: [JOKER]})
    assert GAME.view(state, W).sitting_out == E
    state = step(state, 2)
    assert state.deal.turn == S  # W, N, then S; E skipped
    state = act(state, first_legal(state))
    winner = state.deal.tricks[0].winner
    assert winner != W and state.deal.turn == winner
    assert isinstance(when(state, first_legal(state))[0], CardPlayed)
