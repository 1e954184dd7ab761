"""The HTTP side of this feature: Litestar route handlers, thin (parse, call the service, map
errors). Named lazily by `../feature.py`; no service module imports them."""
