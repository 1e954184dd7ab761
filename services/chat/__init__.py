"""Table chat (`service.py`, a reader's live session in `session.py`) and its moderation:
reports, mutes and bans (`moderation.py`); routes under `routes/`, declared in `feature.py`."""
