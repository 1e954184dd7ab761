"""The Celery plumbing every feature's tasks run on: the app (`app.py`), the runtime a worker
process opens at its first task (`runtime.py`), the embedded worker of `make run`
(`embedded.py`), turn claims and broker sends. The tasks themselves belong to their features
(`services.bots.tasks`, `services.tournaments.scheduling`), installed from their declarations.
"""
