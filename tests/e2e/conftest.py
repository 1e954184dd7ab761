"""The browser tests' shared system and browser: one `atout serve` and `atout worker`, and one
Chromium, for the session (tests/e2e/web_support.py `web_system`, `chromium`)."""

from web_support import chromium, web_database_url, web_system  # noqa: F401
