"""Celery workers: bots' turns, turn clocks and the sweeper (see docs/bots.md).

`app` holds the Celery application, `tasks` its tasks, `turns` what the tasks do (plain
async functions over the game service, testable without Celery), `reactor` the scheduling
that the `bot_turns` projection calls, `clocks` the per-match clock settings.
"""
