"""Matches: the table (create, seat, start, rematch, act), dealing and its fair chains, turn
clocks, suspensions, hints; its routes under `routes/`, its declaration in `feature.py`."""
