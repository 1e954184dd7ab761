"""Boards imported as a match record, pure: validation, and what binds the tournament to them.

An organiser may give the boards as a match record (the rules' README, "Match records")
instead of the verifiable shuffle. Only each deal's `dealer` and `deck` are used (actions,
`fair` and rulings are ignored): board b is the record's deal b (1-based). Checked here, at
creation: the record is of this tournament's game, every deck is a permutation of the game's
deck, and within each round's group of `deals` boards the dealers follow the game's rotation
(a board match deals them in that order and its rules would refuse a wrong dealer mid-round).
Whether there are boards enough for every round is known only at the start (rounds depend on
the entries): `domain.tournaments.aggregate` checks it then.

The commitment (docs/tournaments.md): the hash chain's tip `H^B(s)` as for shuffled boards,
plus one digest a board, `sha256(c_b || "<dealer>:<card>,<card>,…")`, published at the start;
`c_b` is revealed when the board's round closes, and with the board's public match record
anyone checks that the board played is the one bound at the start. Binding, and hiding until
the round closes — not fairness: whoever wrote the record chose the cards.
"""

from __future__ import annotations

import hashlib
from typing import Any

from domain.cards import CardCodeError, Seat, check_deck, next_seat
from domain.game import RuleViolation
from domain.games import load

MAX_BOARDS = 2000


def parse_record(game: str, record: Any, per_round: int) -> list[dict[str, Any]]:
    """The boards of a record as `[{"dealer", "deck"}]`; RuleViolation (`bad_record`,
    `bad_deck`, `wrong_dealer`, `not_enough_boards`, with the deal's index) otherwise."""
    rules = load(game)
    if not isinstance(record, dict):
        raise RuleViolation("bad_record", "boards must be a match record: {game, options?, deals: [...]}")
    if record.get("game", game) != game:
        raise RuleViolation("bad_record", f"the record is of {record.get('game')!r}, not {game!r}",
                            {"game": record.get("game")})
    deals = record.get("deals")
    if not isinstance(deals, list) or not deals or len(deals) > MAX_BOARDS:
        raise RuleViolation("bad_record", f"a record needs a list of 1..{MAX_BOARDS} deals")
    if not per_round:
        raise RuleViolation("bad_option", "imported boards need the 'deals' option: each round is that many boards",
                            {"option": "deals"})
    if len(deals) < per_round:
        raise RuleViolation("not_enough_boards", f"one round needs {per_round} boards; the record has {len(deals)}",
                            {"needed": per_round, "given": len(deals)})
    out: list[dict[str, Any]] = []
    for d, deal in enumerate(deals):
        if not isinstance(deal, dict) or "dealer" not in deal or "deck" not in deal:
            raise RuleViolation("bad_record", "each deal needs 'dealer' and 'deck'", {"deal": d})
        try:
            dealer = Seat(deal["dealer"])
        except ValueError:
            raise RuleViolation("bad_record", f"bad dealer {deal['dealer']!r}; seats are N, E, S, W",
                                {"deal": d}) from None
        if not isinstance(deal["deck"], list):
            raise RuleViolation("bad_deck", "'deck' must be a list of card codes", {"deal": d})
        try:
            deck = [str(c) for c in check_deck(deal["deck"], rules.deck)]
        except (CardCodeError, ValueError) as error:
            raise RuleViolation("bad_deck", f"deal {d}: {error}", {"deal": d}) from None
        if d % per_round:                                   # not the first board of its round
            expected = next_seat(Seat(out[-1]["dealer"]), rules.direction)
            if dealer != expected:
                raise RuleViolation("wrong_dealer", f"deal {d}: the dealer must be {expected} (the rotation within "
                                    "a round)", {"deal": d, "expected": str(expected), "got": str(dealer)})
        out.append({"dealer": str(dealer), "deck": deck})
    return out


def digest(seed: bytes, board: dict[str, Any]) -> str:
    """What binds one imported board: sha256(c_b || "<dealer>:<card>,<card>,…"), in hex."""
    return hashlib.sha256(seed + f"{board['dealer']}:{','.join(board['deck'])}".encode()).hexdigest()
