"""The players' side: follow and block (`circle.py`), invitations and their limits; the routes
of identity, ratings, invitations and ties under `routes/`; declared in `feature.py`."""
