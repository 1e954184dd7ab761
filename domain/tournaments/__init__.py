"""Tournaments, pure: pairing rules, scoring, and the tournament aggregate as a decider.

See docs/tournaments.md. Nothing here does I/O or draws a random number.
"""

from domain.tournaments.aggregate import State, decide, evolve, initial, plan
from domain.tournaments.events import EVENTS, FORMATS
from domain.tournaments.standing import lines, results_of

__all__ = ["EVENTS", "FORMATS", "State", "decide", "evolve", "initial", "lines", "plan", "results_of"]
