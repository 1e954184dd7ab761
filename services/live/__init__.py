"""Live streams: a match's stream and each player's account stream (`account.py`), with the
HTTP and WebSocket plumbing every live route shares (`routes/`); declared in `feature.py`."""
