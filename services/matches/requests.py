"""What a request to the game service may say, checked before anything is kept or appended:
the entropy a player gives, the predefined deals of an imported record, the seats of a new
match. Each refusal is a `RuleViolation` whose code and details name the field.
"""

from __future__ import annotations

from typing import Any

from domain import fair
from domain import match as rules
from domain.bots import LEVELS
from domain.cards import Seat
from domain.game import RuleViolation
from domain.games import load


def check_entropy(entropy: Any) -> str:
    """The one limit on entropy (docs/fair-deal.md): a RuleViolation `bad_entropy` naming it."""
    try:
        return fair.check_entropy(entropy)
    except fair.FairDealError as error:
        raise RuleViolation("bad_entropy", str(error), {"field": "entropy"}) from None


def check_predefined(game_name: str, deals: list[Any]) -> list[dict[str, Any]]:
    """Predefined deals (an imported record's boards): each deck a permutation of the game's
    deck, each dealer the one the rotation gives after the previous deal."""
    from domain.cards import CardCodeError, check_deck, next_seat

    game = load(game_name)
    out: list[dict[str, Any]] = []
    for d, deal in enumerate(deals):
        try:
            dealer = Seat(deal["dealer"])
            deck = check_deck(deal["deck"], game.deck)
        except (KeyError, TypeError, ValueError, CardCodeError) as error:
            raise RuleViolation("bad_deck", f"deal {d}: {error}", {"deal": d}) from None
        if out and dealer != next_seat(Seat(out[-1]["dealer"]), game.direction):
            raise RuleViolation("wrong_dealer", f"deal {d}: the dealer must be the one the rotation gives",
                                {"deal": d})
        out.append({"dealer": str(dealer), "deck": deck})
    return out


def seat_holder(seat: str, spec: Any, player_id: str | None) -> rules.SeatHolder | None:
    """One seat of a creation request: "open", "me" or "bot:LEVEL" (details name the seat)."""
    if spec == "open":
        return None
    if spec == "me":
        if player_id is None:
            raise RuleViolation("bad_seats", "a seat 'me' needs a signed-in player", {"seat": seat})
        return rules.SeatHolder(kind="player", player_id=player_id)
    if isinstance(spec, str) and spec.startswith("bot:") and spec[4:] in LEVELS:
        return rules.SeatHolder(kind="bot", level=spec[4:])
    raise RuleViolation("bad_seats", f"bad seat {spec!r}: use 'open', 'me' or 'bot:{'|'.join(LEVELS)}'",
                        {"seat": seat})
