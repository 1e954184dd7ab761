"""The browser tests' shared system: one `atout serve` and `atout worker` for the session
(tests/e2e/web_support.py `web_system`)."""

from web_support import web_database_url, web_system  # noqa: F401
