"""Tournaments: the service (`service.py`), their boards, tables and no-shows, the scheduling
tasks (`scheduling.py`); routes and the live tournament stream under `routes/`; `feature.py`."""
