"""Card notation, decks and seats: everything else (records, API, shuffle) leans on these."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain.cards import (
    DECK_32,
    DECK_43,
    DECK_52,
    DECKS,
    JOKER,
    RANKS,
    SEAT_ORDER,
    SEATS,
    SUITS,
    TEAM,
    TEAMS,
    CardCodeError,
    Seat,
    check_deck,
    format_card,
    next_seat,
    parse_card,
    parse_cards,
    partner_of,
    rank_of,
    seats_from,
    suit_of,
    team_of,
)

ALL_CODES = [r + s for s in SUITS for r in RANKS] + [JOKER]
VALID_SPELLINGS = {c for c in ALL_CODES} | {"10" + s for s in SUITS}


def spellings(code: str) -> st.SearchStrategy[str]:
    """Every way the outside world may write a code: any case, 10 for T, padding."""
    base = [code] + (["10" + code[1]] if code[0] == "T" else [])

    def spell(text: str, lower: list[bool], left: str, right: str) -> str:
        return left + "".join(ch.lower() if low else ch for ch, low in zip(text, lower)) + right

    return st.builds(
        spell,
        st.sampled_from(base),
        st.lists(st.booleans(), min_size=3, max_size=3),
        st.sampled_from(["", " ", "\t", "  "]),
        st.sampled_from(["", " ", "\n"]),
    )


@given(st.sampled_from(ALL_CODES).flatmap(lambda c: st.tuples(st.just(c), spellings(c))))
def test_any_spelling_parses_to_the_canonical_code(pair):
    code, spelled = pair
    assert parse_card(spelled) == code
    assert format_card(parse_card(spelled)) == code


@given(st.sampled_from(ALL_CODES))
def test_canonical_codes_round_trip(code):
    assert parse_card(format_card(code)) == code
    assert "10" not in format_card(code)


def test_ten_is_written_t():
    assert parse_card("10H") == "TH"
    assert parse_card("10s") == "TS"
    assert format_card(parse_card("10D")) == "TD"
    assert parse_cards(["10C", "jk", "as"]) == ["TC", "JK", "AS"]


@given(st.text(max_size=6).filter(lambda t: t.strip().upper() not in VALID_SPELLINGS))
def test_bad_codes_are_rejected_naming_the_code(text):
    with pytest.raises(CardCodeError) as info:
        parse_card(text)
    assert repr(text) in str(info.value)
    assert info.value.code == text


@pytest.mark.parametrize("bad", ["1H", "11H", "AX", "ZS", "", "A", "ASS", "J K", "0H", "T10"])
def test_named_bad_codes(bad):
    with pytest.raises(CardCodeError, match="bad card code"):
        parse_card(bad)


@pytest.mark.parametrize("bad", [None, 10, ["AS"], b"AS"])
def test_non_strings_are_rejected(bad):
    with pytest.raises(CardCodeError):
        parse_card(bad)


def test_rank_and_suit():
    assert (rank_of("TH"), suit_of("TH")) == ("T", "H")
    assert (rank_of(JOKER), suit_of(JOKER)) == (JOKER, None)


# --- Decks ------------------------------------------------------------------------------

def _suit_block(ranks: str, suit: str) -> list[str]:
    return [r + suit for r in ranks.split()]


def test_deck_32_is_seven_to_ace_in_canonical_order():
    expected = [c for s in "SHDC" for c in _suit_block("7 8 9 T J Q K A", s)]
    assert list(DECK_32) == expected
    assert len(DECK_32) == 32


def test_deck_43_is_five_to_ace_red_fours_and_the_joker():
    expected = (
        _suit_block("5 6 7 8 9 T J Q K A", "S")
        + _suit_block("4 5 6 7 8 9 T J Q K A", "H")
        + _suit_block("4 5 6 7 8 9 T J Q K A", "D")
        + _suit_block("5 6 7 8 9 T J Q K A", "C")
        + ["JK"]
    )
    assert list(DECK_43) == expected
    assert len(DECK_43) == 43
    assert "4S" not in DECK_43 and "4C" not in DECK_43
    assert DECK_43[-1] == JOKER


def test_deck_52_is_the_full_pack():
    expected = [c for s in "SHDC" for c in _suit_block("2 3 4 5 6 7 8 9 T J Q K A", s)]
    assert list(DECK_52) == expected
    assert len(set(DECK_52)) == 52


@pytest.mark.parametrize("size", [32, 43, 52])
def test_decks_are_in_canonical_order(size):
    deck = DECKS[size]
    assert len(deck) == size == len(set(deck))
    key = [(4, 0) if c == JOKER else (SUITS.index(c[1]), RANKS.index(c[0])) for c in deck]
    assert key == sorted(key)
    assert all(parse_card(c) == c for c in deck)


# --- Seats ------------------------------------------------------------------------------

def test_seat_orders_per_direction():
    # Belote passes to the right (counter-clockwise); Cinch and Five Hundred to the left.
    assert SEAT_ORDER["counter_clockwise"] == ("N", "W", "S", "E")
    assert SEAT_ORDER["clockwise"] == ("N", "E", "S", "W")
    assert [next_seat(s, "counter_clockwise") for s in "NWSE"] == ["W", "S", "E", "N"]
    assert [next_seat(s, "clockwise") for s in "NESW"] == ["E", "S", "W", "N"]
    assert seats_from(Seat.E, "clockwise") == ("E", "S", "W", "N")
    assert seats_from(Seat.E, "counter_clockwise") == ("E", "N", "W", "S")


@pytest.mark.parametrize("direction", ["clockwise", "counter_clockwise"])
def test_four_steps_come_back(direction):
    for seat in SEATS:
        s = seat
        seen = []
        for _ in range(4):
            seen.append(s)
            s = next_seat(s, direction)
        assert s == seat and sorted(seen) == sorted(SEATS)


def test_partners_and_teams():
    assert {s: partner_of(s) for s in SEATS} == {"N": "S", "S": "N", "E": "W", "W": "E"}
    assert {s: team_of(s) for s in SEATS} == {"N": "NS", "S": "NS", "E": "EW", "W": "EW"}
    assert TEAMS == ("NS", "EW") and TEAM[Seat.W] == "EW"
    for seat in SEATS:
        assert team_of(seat) == team_of(partner_of(seat))
        assert team_of(seat) != team_of(next_seat(seat, "clockwise"))


# --- check_deck -------------------------------------------------------------------------

def test_check_deck_accepts_a_permutation_in_any_spelling():
    given_deck = [c.lower() for c in reversed(DECK_32)]
    given_deck[given_deck.index("th")] = "10H"
    assert check_deck(given_deck, DECK_32) == list(reversed(DECK_32))


def test_check_deck_errors():
    with pytest.raises(ValueError, match="32 cards, got 31"):
        check_deck(DECK_32[:-1], DECK_32)
    with pytest.raises(ValueError, match="7S appears twice"):
        check_deck(["7S"] + list(DECK_32[1:-1]) + ["7S"], DECK_32)
    with pytest.raises(ValueError, match="2S is not in this game's deck"):
        check_deck(["2S"] + list(DECK_32[1:]), DECK_32)
    with pytest.raises(CardCodeError, match="'XX'"):
        check_deck(["XX"] + list(DECK_32[1:]), DECK_32)
