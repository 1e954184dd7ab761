"""A sealed match (a tournament board) never shows its table the deck, the seed or the
actions of a finished deal: another table may still be playing the same board."""

from __future__ import annotations

from domain import match as rules
from domain.cards import DECK_32, Seat


def _state(sealed: bool) -> rules.MatchState:
    state = rules.initial()
    for event in rules.create("m1", "belote", {}, {s: None for s in "NESW"}, None, 10, predefined_deals=1,
                              sealed=sealed):
        state = rules.evolve(state, event)
    return state


FINISHED = rules.DealFinished(deal=0, dealer=Seat.N, deck=DECK_32, actions=({"seat": "W", "action": "pass"},),
                              summary={"result": "made"}, match_score={"NS": 10, "EW": 0},
                              fair={"seed": "ab" * 32, "context": "tournament:t:board:1"})
SEED = rules.SeedRevealed(deal=0, seed="ab" * 32, context="tournament:t:board:1", entropy={})


def test_sealed_board_hides_deck_seed_and_actions_from_every_seat() -> None:
    state = _state(sealed=True)
    for seat in (*Seat, None):
        shown = rules.redact(state, FINISHED, seat)
        assert shown.deck == () and shown.actions == () and shown.fair is None
        assert shown.summary == FINISHED.summary and shown.match_score == FINISHED.match_score
        assert rules.redact(state, SEED, seat) is None


def test_an_ordinary_match_shows_its_finished_deals() -> None:
    state = _state(sealed=False)
    assert rules.redact(state, FINISHED, Seat.N) == FINISHED
    assert rules.redact(state, SEED, None) == SEED
