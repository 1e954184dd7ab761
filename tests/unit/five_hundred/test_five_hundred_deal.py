"""B.1 (players, deck, deal), B.2 (ranking and suit membership), options, the dealer's
rotation and the deal-level errors. FS-1 is here."""

from __future__ import annotations

import pytest
from five_hundred_support import E, N, S, W, contract, deal, deck_for, hand

from domain.cards import DECK_43, JOKER
from domain.five_hundred import GAME
from domain.five_hundred.events import DealStarted
from domain.five_hundred.options import Options
from domain.five_hundred.ranking import STRENGTH, SUIT_OF, trumps
from domain.game import RuleViolation, StartDeal


def test_deck_is_43_cards_a_to_5_red_fours_and_the_joker():
    assert len(GAME.deck) == 43 and GAME.deck == DECK_43
    assert {"4H", "4D", JOKER} <= set(GAME.deck)
    assert not {"4S", "4C", "3H", "2D"} & set(GAME.deck)
    assert sum(c.endswith("H") for c in GAME.deck) == 11 and sum(c.endswith("S") for c in GAME.deck) == 10


def test_fs1_deal_ten_each_and_three_to_the_kitty():
    state = deal(dealer=S)
    assert [len(h) for h in state.deal.hands] == [10, 10, 10, 10] and len(state.deal.kitty) == 3
    assert sum(len(h) for h in state.deal.hands) + len(state.deal.kitty) == 43
    assert set(c for h in state.deal.hands for c in h) | set(state.deal.kitty) == set(DECK_43)


def test_fs1_contractor_holds_13_discards_3_and_plays_with_10():
    state = deal(dealer=S)
    for seat in (W, N, E):
        state, _ = GAME.apply(state, GAME.parse_action({"seat": str(seat), "action": "pass"} if seat != W
                                                       else {"seat": "W", "action": "bid", "tricks": 6, "suit": "S"}))
    state, _ = GAME.apply(state, GAME.parse_action({"seat": "S", "action": "pass"}))
    assert state.phase == "discard" and len(hand(state, W)) == 13 and state.deal.kitty == ()
    state, _ = GAME.apply(state, GAME.parse_action({"seat": "W", "action": "discard", "cards": list(hand(state, W)[:3])}))
    assert len(hand(state, W)) == 10 and state.phase == "play" and state.deal.turn == W


def test_deal_pattern_is_3_kitty_3_then_4_then_3_from_eldest_clockwise():
    deck = tuple(DECK_43)
    state, events = GAME.apply(GAME.initial(Options()), StartDeal(dealer=N, deck=deck))
    assert events == [DealStarted(deal=0, dealer=N, deck=deck)]
    e, s, w, n = (hand(state, x) for x in (E, S, W, N))
    assert e[:3] == deck[0:3] and s[:3] == deck[3:6] and w[:3] == deck[6:9] and n[:3] == deck[9:12]
    assert state.deal.kitty == deck[12:15]
    assert e[3:7] == deck[15:19] and n[3:7] == deck[27:31]
    assert e[7:] == deck[31:34] and n[7:] == deck[40:43]
    assert state.deal.turn == E  # eldest bids first (B.3.1)


def test_deck_for_places_the_chosen_cards():
    deck = deck_for(W, {N: ["JK", "AS"], E: ["4H"]}, kitty=["AD", "KD", "QD"])
    state, _ = GAME.apply(GAME.initial(Options()), StartDeal(dealer=W, deck=deck))
    assert hand(state, N)[:2] == ("JK", "AS") and hand(state, E)[0] == "4H"
    assert state.deal.kitty == ("AD", "KD", "QD")


# --- B.2 ranking -----------------------------------------------------------------------------

def test_fs1_hearts_trump_has_13_trumps_spades_12_and_diamonds_lose_their_jack():
    assert trumps("H") == ["JK", "JH", "JD", "AH", "KH", "QH", "TH", "9H", "8H", "7H", "6H", "5H", "4H"]
    assert trumps("S") == ["JK", "JS", "JC", "AS", "KS", "QS", "TS", "9S", "8S", "7S", "6S", "5S"]
    diamonds = [c for c in DECK_43 if SUIT_OF["H"][c] == "D"]
    assert len(diamonds) == 10 and "JD" not in diamonds


def test_plain_suit_order_and_trumps_over_the_led_suit():
    row = STRENGTH["S"]["D"]
    plain = ["AD", "KD", "QD", "JD", "TD", "9D", "8D", "7D", "6D", "5D", "4D"]
    assert [row[c] for c in plain] == sorted((row[c] for c in plain), reverse=True)
    assert row["5S"] > row["AD"] and row["AH"] == 0 and row["JC"] > row["AS"]


def test_no_trumps_jacks_are_ordinary_and_the_joker_is_the_only_trump():
    row = STRENGTH["NT"]["H"]
    assert row["KH"] > row["JH"] > row["TH"] and row[JOKER] > row["AH"]
    assert SUIT_OF["NT"][JOKER] is None and SUIT_OF["NT"]["JD"] == "D"


# --- Options ------------------------------------------------------------------------------

def test_options_defaults_and_values():
    assert GAME.parse_options({}) == Options(target=500, misere=True, deals=None)
    assert GAME.parse_options({"target": 300, "misere": False, "deals": 4}) == Options(300, False, 4)


@pytest.mark.parametrize("raw, option", [
    ({"colour": 1}, "colour"), ({"target": 0}, "target"), ({"target": "500"}, "target"),
    ({"target": True}, "target"), ({"misere": "yes"}, "misere"), ({"deals": 0}, "deals"),
    ({"deals": 2.5}, "deals"),
])
def test_bad_options_are_refused_naming_the_option(raw, option):
    with pytest.raises(RuleViolation) as error:
        GAME.parse_options(raw)
    assert error.value.code == "bad_option" and option in error.value.message


def test_sides_are_the_two_partnerships():
    assert GAME.sides(Options()) == ("NS", "EW")


# --- Deal-level checks and the dealer's rotation ----------------------------------------------

def test_first_dealer_is_free_then_the_deal_passes_to_the_left_also_after_a_throw_in():
    state = deal(dealer=W)
    for seat in (N, E, S, W):
        state, _ = GAME.apply(state, GAME.parse_action({"seat": str(seat), "action": "pass"}))
    assert GAME.status(state).phase == "awaiting_deal" and GAME.status(state).next_dealer == N
    with pytest.raises(RuleViolation) as error:
        GAME.decide(state, StartDeal(dealer=E, deck=DECK_43))
    assert error.value.code == "wrong_dealer"
    assert GAME.decide(state, StartDeal(dealer=N, deck=DECK_43))


def test_bad_deck_and_deal_during_a_deal_are_refused():
    state = GAME.initial(Options())
    with pytest.raises(RuleViolation) as error:
        GAME.decide(state, StartDeal(dealer=N, deck=DECK_43[:-1] + ("2S",)))
    assert error.value.code == "bad_deck"
    state = deal(dealer=N)
    with pytest.raises(RuleViolation) as error:
        GAME.decide(state, StartDeal(dealer=E, deck=DECK_43))
    assert error.value.code == "wrong_phase"


def test_status_between_and_in_deals():
    state = GAME.initial(Options())
    st = GAME.status(state)
    assert (st.phase, st.deals_played, st.next_dealer, st.winner) == ("awaiting_deal", 0, None, None)
    state = contract(N, 6, "S", dealer=W)
    st = GAME.status(state)
    assert st.phase == "in_deal" and st.to_act == (N,) and st.deals_played == 1
