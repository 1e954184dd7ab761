"""Process settings, read once from `ATOUT_*` environment variables.

Every knob of a deployment is an environment variable so that the same image runs
unchanged under `make run`, docker-compose and k8s. Unset database/redis URLs are
meaningful: they select the embedded servers of the zero-config default, so they
stay `None` rather than being given a fake default. `docs/settings.md` is the
reference table; keep it in step with `ENV_VARS` below.
"""

from __future__ import annotations

import ipaddress
import json
import os
from collections.abc import Mapping
from pathlib import Path

import msgspec

LOG_LEVELS = ("critical", "error", "warning", "info", "debug", "trace")


class SettingsError(ValueError):
    """A variable is set to something we cannot use; the message names it."""


class Settings(msgspec.Struct, frozen=True, kw_only=True):
    host: str = "127.0.0.1"
    port: int = 8000
    database_url: str | None = None
    redis_url: str | None = None
    data_dir: str = "./.atout"
    redis_prefix: str = "atout"
    log_level: str = "info"
    rate_limit_requests: int = 300     # per token (per address for registration); 0 turns it off
    rate_limit_window: float = 60.0    # seconds
    disconnect_grace: float = 60.0     # seconds a disconnected player's seat waits before the bot takes over
    presence_ttl: float = 15.0         # seconds a replica's claim on a connected seat lasts unrefreshed
    abandon_after: float = 86400.0     # seconds without an action before the sweeper abandons a match
    bot_overdue: float = 5.0           # seconds a bot's turn may wait before a sweep schedules it again
    sweep_every: float = 10.0          # seconds between the sweeper's runs (beat)
    tournament_tick: float = 15.0      # seconds between the tournament ticks (beat): scheduled starts, no-shows
    robot_daily: str | None = None     # JSON: the daily robot duplicate event beat opens (unset: none)
    quickplay_tick: float = 1.0        # seconds between the quick-play matching ticks (beat)
    quickplay_expiry: float = 600.0    # seconds a quick-play entry waits at most before it expires
    quickplay_cooldown: float = 10.0   # seconds after leaving a quick-play queue before joining one again
    tournament_live_poll: float = 1.0  # seconds between a live tournament stream's reads while nothing happens
    projector_delay: float = 0.0       # seconds the projector waits between two batches of a projection
    metrics_token: str | None = None   # when set, GET /metrics needs "Authorization: Bearer <it>"
    trusted_proxies: tuple[str, ...] = ()  # addresses/CIDRs whose X-Forwarded-For is believed; none by default
    write_timeout: float = 30.0        # seconds a connection's sent bytes may stay unread before it is cut
    send_buffer: int = 65536           # bytes the kernel may hold unread per connection (0: the OS's autotuning)
    header_timeout: float = 10.0       # seconds a request's line and headers may take to arrive, from its first byte
    hints_per_match: int = 10          # hints each seat may ask for in one match (0: none)
    account_retention: float = 86400.0  # seconds an account stream's notices are kept for after=
    chat_rate_messages: int = 5        # chat messages per player per match per window (0 turns it off)
    chat_rate_window: float = 10.0     # seconds
    registrations_per_hour: int = 20   # new players per client address per hour (0, or no rate limit: off)
    review_every: float = 2.0          # seconds between the workers' passes over unreviewed deals (beat)
    review_worlds: int = 8             # fair-baseline worlds per card with a choice in a deal's review (0: none)
    record_key: str | None = None      # Ed25519 private key, 64 hex digits, signing records (unset: the data folder's)
    record_keys_retired: tuple[str, ...] = ()  # earlier public keys (base64) whose signatures still verify

    @property
    def embedded_database(self) -> bool:
        return self.database_url is None

    @property
    def embedded_redis(self) -> bool:
        return self.redis_url is None

    @property
    def data_path(self) -> Path:
        return Path(self.data_dir).expanduser().resolve()


MAX_REVIEW_WORLDS = 1000   # fair-baseline worlds per card: past this a review is minutes of a core

# Settings field -> environment variable; the single place names are spelled.
ENV_VARS: dict[str, str] = {
    "host": "ATOUT_HOST",
    "port": "ATOUT_PORT",
    "database_url": "ATOUT_DATABASE_URL",
    "redis_url": "ATOUT_REDIS_URL",
    "data_dir": "ATOUT_DATA_DIR",
    "redis_prefix": "ATOUT_REDIS_PREFIX",
    "log_level": "ATOUT_LOG_LEVEL",
    "rate_limit_requests": "ATOUT_RATE_LIMIT_REQUESTS",
    "rate_limit_window": "ATOUT_RATE_LIMIT_WINDOW",
    "disconnect_grace": "ATOUT_DISCONNECT_GRACE",
    "presence_ttl": "ATOUT_PRESENCE_TTL",
    "abandon_after": "ATOUT_ABANDON_AFTER",
    "bot_overdue": "ATOUT_BOT_OVERDUE",
    "sweep_every": "ATOUT_SWEEP_EVERY",
    "tournament_tick": "ATOUT_TOURNAMENT_TICK",
    "robot_daily": "ATOUT_ROBOT_DAILY",
    "quickplay_tick": "ATOUT_QUICKPLAY_TICK",
    "quickplay_expiry": "ATOUT_QUICKPLAY_EXPIRY",
    "quickplay_cooldown": "ATOUT_QUICKPLAY_COOLDOWN",
    "tournament_live_poll": "ATOUT_TOURNAMENT_LIVE_POLL",
    "projector_delay": "ATOUT_PROJECTOR_DELAY",
    "trusted_proxies": "ATOUT_TRUSTED_PROXIES",
    "metrics_token": "ATOUT_METRICS_TOKEN",
    "write_timeout": "ATOUT_WRITE_TIMEOUT",
    "send_buffer": "ATOUT_SEND_BUFFER",
    "header_timeout": "ATOUT_HEADER_TIMEOUT",
    "hints_per_match": "ATOUT_HINTS_PER_MATCH",
    "account_retention": "ATOUT_ACCOUNT_RETENTION",
    "chat_rate_messages": "ATOUT_CHAT_RATE_MESSAGES",
    "chat_rate_window": "ATOUT_CHAT_RATE_WINDOW",
    "registrations_per_hour": "ATOUT_REGISTRATIONS_PER_HOUR",
    "review_every": "ATOUT_REVIEW_EVERY",
    "review_worlds": "ATOUT_REVIEW_WORLDS",
    "record_key": "ATOUT_RECORD_KEY",
    "record_keys_retired": "ATOUT_RECORD_KEYS_RETIRED",
}


def load_settings(env: Mapping[str, str] = os.environ) -> Settings:
    """Build the settings from `env`; an empty variable counts as unset.

    Treating "" as unset lets compose files write `ATOUT_DATABASE_URL=` to mean
    "use the default" without a special case elsewhere.
    """
    raw: dict[str, str] = {}
    for field, var in ENV_VARS.items():
        value = env.get(var, "").strip()
        if value:
            raw[field] = value

    values: dict[str, object] = dict(raw)
    if "port" in raw:
        try:
            port = int(raw["port"])
        except ValueError:
            raise SettingsError(f"ATOUT_PORT must be an integer, got {raw['port']!r}") from None
        if not 0 <= port <= 65535:
            raise SettingsError(f"ATOUT_PORT must be between 0 and 65535, got {port}")
        values["port"] = port
    for field, kind in (("rate_limit_requests", int), ("rate_limit_window", float), ("hints_per_match", int),
                        ("chat_rate_messages", int), ("chat_rate_window", float), ("registrations_per_hour", int),
                        ("review_worlds", int)):
        if field in raw:
            try:
                number = kind(raw[field])
            except ValueError:
                raise SettingsError(f"{ENV_VARS[field]} must be a number, got {raw[field]!r}") from None
            if number < 0 or (field in ("rate_limit_window", "chat_rate_window") and number == 0):
                raise SettingsError(f"{ENV_VARS[field]} must be positive, got {raw[field]!r}")
            if field == "review_worlds" and number > MAX_REVIEW_WORLDS:
                raise SettingsError(f"{ENV_VARS[field]} must be at most {MAX_REVIEW_WORLDS}, got {raw[field]!r}")
            values[field] = number
    for field in ("disconnect_grace", "presence_ttl", "abandon_after", "bot_overdue", "sweep_every", "tournament_tick",
                  "quickplay_tick", "quickplay_expiry", "quickplay_cooldown", "tournament_live_poll", "write_timeout",
                  "account_retention", "header_timeout", "review_every"):
        if field in raw:
            try:
                seconds = float(raw[field])
            except ValueError:
                raise SettingsError(f"{ENV_VARS[field]} must be a number of seconds, got {raw[field]!r}") from None
            if not seconds > 0:
                raise SettingsError(f"{ENV_VARS[field]} must be positive, got {raw[field]!r}")
            values[field] = seconds
    if "robot_daily" in raw:
        try:
            daily = json.loads(raw["robot_daily"])
        except ValueError:
            daily = None
        if not isinstance(daily, dict) or not isinstance(daily.get("game"), str):
            raise SettingsError('ATOUT_ROBOT_DAILY must be a JSON object with at least "game", '
                                f'got {raw["robot_daily"]!r}')
    if "projector_delay" in raw:
        try:
            delay = float(raw["projector_delay"])
        except ValueError:
            raise SettingsError(f"ATOUT_PROJECTOR_DELAY must be a number of seconds, got {raw['projector_delay']!r}"
                                ) from None
        if not delay >= 0:
            raise SettingsError(f"ATOUT_PROJECTOR_DELAY must be 0 or more, got {raw['projector_delay']!r}")
        values["projector_delay"] = delay
    if "trusted_proxies" in raw:
        values["trusted_proxies"] = _networks(raw["trusted_proxies"])
    if "send_buffer" in raw:
        try:
            size = int(raw["send_buffer"])
        except ValueError:
            raise SettingsError(f"ATOUT_SEND_BUFFER must be a number of bytes, got {raw['send_buffer']!r}") from None
        if size != 0 and not 4096 <= size <= 64 * 1024 * 1024:
            raise SettingsError(f"ATOUT_SEND_BUFFER must be 0 or 4096..67108864 bytes, got {size}")
        values["send_buffer"] = size
    if "log_level" in raw:
        level = raw["log_level"].lower()
        if level not in LOG_LEVELS:
            raise SettingsError(f"ATOUT_LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, got {raw['log_level']!r}")
        values["log_level"] = level
    if "database_url" in raw and not raw["database_url"].startswith(("postgresql://", "postgres://")):
        raise SettingsError("ATOUT_DATABASE_URL must start with postgresql:// or postgres://")
    if "redis_url" in raw and not raw["redis_url"].startswith(("redis://", "rediss://", "unix://")):
        raise SettingsError("ATOUT_REDIS_URL must start with redis://, rediss:// or unix://")
    _record_keys(raw, values)
    if "redis_prefix" in raw and any(c.isspace() for c in raw["redis_prefix"]):
        raise SettingsError("ATOUT_REDIS_PREFIX must not contain whitespace")
    return Settings(**values)  # type: ignore[arg-type]


def _record_keys(raw: dict[str, str], values: dict[str, object]) -> None:
    """The record-signing key and the retired public keys, checked at start so a bad key
    stops the process instead of failing the first export (docs/fair-deal.md)."""
    from infra.signing import PublicKey, SigningKeyError, private_from_hex

    try:
        if "record_key" in raw:
            values["record_key"] = private_from_hex(raw["record_key"], "ATOUT_RECORD_KEY").hex()
        if "record_keys_retired" in raw:
            retired = tuple(item.strip() for item in raw["record_keys_retired"].split(",") if item.strip())
            for item in retired:
                PublicKey.from_b64(item, "ATOUT_RECORD_KEYS_RETIRED")
            values["record_keys_retired"] = retired
    except SigningKeyError as exc:
        raise SettingsError(str(exc)) from None


def _networks(value: str) -> tuple[str, ...]:
    """`ATOUT_TRUSTED_PROXIES`: comma-separated addresses or CIDRs, each checked here so a
    typo stops the process instead of silently trusting nobody (or everybody)."""
    items = tuple(item.strip() for item in value.split(",") if item.strip())
    for item in items:
        try:
            ipaddress.ip_network(item, strict=False)
        except ValueError:
            raise SettingsError(f"ATOUT_TRUSTED_PROXIES: {item!r} is not an IP address or CIDR") from None
    return items
