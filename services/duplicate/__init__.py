"""Duplicate beyond the tournament rounds: robot duplicate events (play alone with bots within
a window), travellers of every public board, and the daily robot event from a schedule."""
