"""Disputes: the service (`service.py`) players file with and admins rule by; player and admin
routes under `routes/`; declared in `feature.py`."""
