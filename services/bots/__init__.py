"""Bots and clocks: a bot's turn and a clock's expiry (`turns.py`), the reactor that schedules
them from the log and the sweeper, the in-process fast path, the Celery tasks; `feature.py`."""
