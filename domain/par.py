"""A board's par, shared by the games that have one: its result when the auction and the play
are both perfect, every hand known — bridge's par, taken to the other trick-taking games.

Each game's `par.py` searches its own auction; what they share is here: the answer's shape,
driving a deal through the game's real decider, and playing a deal out on the solver's line
so that the game's own scoring says what the perfect play is worth.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from domain.game import StartDeal

NOBODY = {"NS": 0, "EW": 0}


class Par(NamedTuple):
    contract: dict[str, Any] | None    # the contract's words (seat, team, ...); None: passed out
    score: dict[str, int]              # the deal's score for each team
    card_points: dict[str, int]        # what each team takes on the perfect line, in `unit`
    unit: str = "card_points"          # Belote's card points, Cinch's points or Five Hundred's tricks


class Driver(NamedTuple):
    """A game's rules as par needs them: commands in, the next state out."""

    initial: Callable[[Any], Any]
    decide: Callable[[Any, Any], list[Any]]
    evolve: Callable[[Any, Any], Any]
    parse_action: Callable[[dict[str, Any]], Any]

    def apply(self, state: Any, command: Any) -> tuple[Any, list[Any]]:
        events = self.decide(state, command)
        for event in events:
            state = self.evolve(state, event)
        return state, events

    def act(self, state: Any, seat: Any, **action: Any) -> Any:
        return self.apply(state, self.parse_action({"seat": str(seat), **action}))[0]

    def dealt(self, options: Any, dealer: str, deck: Sequence[str]) -> Any:
        return self.apply(self.initial(options), StartDeal(dealer=dealer, deck=tuple(deck)))[0]

    def played_out(self, state: Any, solve: Callable[[Any], Any], scored: type) -> Any:
        """The deal played to its end on the solver's line (the first of equally good cards),
        and the game's own `scored` event for it."""
        while True:
            seat = state.deal.turn
            solution = solve(state)
            card = max(solution.cards, key=solution.cards.__getitem__)
            state, events = self.apply(state, self.parse_action({"seat": str(seat), "action": "play", "card": card}))
            for event in events:
                if isinstance(event, scored):
                    return event


def margin(par: Par, team: str) -> int:
    """What `team` gains over the other team with this result."""
    other = "EW" if team == "NS" else "NS"
    return par.score[team] - par.score[other]


__all__ = ["NOBODY", "Driver", "Par", "margin"]
