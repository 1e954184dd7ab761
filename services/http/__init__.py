"""The HTTP API process (Litestar). `app.create_app` builds it; `atout serve` runs it."""
