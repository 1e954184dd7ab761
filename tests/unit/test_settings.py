"""Settings: defaults, parsing and the documentation table stay in step."""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest

from infra.settings import ENV_VARS, Settings, SettingsError, load_settings

DOC = Path(__file__).resolve().parents[2] / "docs" / "settings.md"


def test_defaults_with_empty_environment() -> None:
    s = load_settings({})
    assert s == Settings()
    assert (s.host, s.port, s.data_dir, s.redis_prefix, s.log_level) == ("127.0.0.1", 8000, "./.atout", "atout", "info")
    assert s.database_url is None and s.redis_url is None
    assert s.embedded_database and s.embedded_redis


def test_every_variable_is_read() -> None:
    env = {
        "ATOUT_HOST": "0.0.0.0",
        "ATOUT_PORT": "9001",
        "ATOUT_DATABASE_URL": "postgresql://u:p@db:5432/atout",
        "ATOUT_REDIS_URL": "redis://cache:6379/1",
        "ATOUT_DATA_DIR": "/var/lib/atout",
        "ATOUT_REDIS_PREFIX": "prod",
        "ATOUT_LOG_LEVEL": "DEBUG",
    }
    s = load_settings(env)
    assert s == Settings(
        host="0.0.0.0", port=9001, database_url="postgresql://u:p@db:5432/atout", redis_url="redis://cache:6379/1",
        data_dir="/var/lib/atout", redis_prefix="prod", log_level="debug",
    )
    assert not s.embedded_database and not s.embedded_redis
    assert s.data_path == Path("/var/lib/atout")


def test_empty_values_count_as_unset() -> None:
    assert load_settings({"ATOUT_DATABASE_URL": "", "ATOUT_PORT": "  "}) == Settings()


def test_unrelated_variables_are_ignored() -> None:
    assert load_settings({"PORT": "1", "ATOUT_UNKNOWN": "x"}) == Settings()


@pytest.mark.parametrize(
    ("var", "value"),
    [
        ("ATOUT_PORT", "eighty"),
        ("ATOUT_PORT", "70000"),
        ("ATOUT_LOG_LEVEL", "loud"),
        ("ATOUT_DATABASE_URL", "mysql://x"),
        ("ATOUT_REDIS_URL", "http://x"),
        ("ATOUT_REDIS_PREFIX", "has space"),
    ],
)
def test_bad_values_name_the_variable(var: str, value: str) -> None:
    with pytest.raises(SettingsError, match=var):
        load_settings({var: value})


def test_settings_are_frozen() -> None:
    with pytest.raises(AttributeError):
        Settings().port = 1  # type: ignore[misc]
    assert msgspec.structs.replace(Settings(), port=1).port == 1


def test_every_variable_is_documented() -> None:
    text = DOC.read_text()
    fields = {f.name for f in msgspec.structs.fields(Settings)}
    assert set(ENV_VARS) == fields
    for var in ENV_VARS.values():
        assert f"`{var}`" in text, f"{var} missing from docs/settings.md"


def test_rate_limit_settings() -> None:
    from infra.settings import SettingsError, load_settings

    assert load_settings({}).rate_limit_requests == 300
    got = load_settings({"ATOUT_RATE_LIMIT_REQUESTS": "0", "ATOUT_RATE_LIMIT_WINDOW": "2.5"})
    assert (got.rate_limit_requests, got.rate_limit_window) == (0, 2.5)
    for bad in ({"ATOUT_RATE_LIMIT_REQUESTS": "lots"}, {"ATOUT_RATE_LIMIT_WINDOW": "0"}):
        try:
            load_settings(bad)
        except SettingsError as error:
            assert next(iter(bad)) in str(error)
        else:
            raise AssertionError(f"{bad} accepted")


def test_worker_and_live_tuning_settings() -> None:
    got = load_settings({"ATOUT_BOT_OVERDUE": "2", "ATOUT_SWEEP_EVERY": "3.5", "ATOUT_TOURNAMENT_TICK": "1",
                         "ATOUT_TOURNAMENT_LIVE_POLL": "0.25"})
    assert (got.bot_overdue, got.sweep_every, got.tournament_tick, got.tournament_live_poll) == (2.0, 3.5, 1.0, 0.25)
    assert (Settings().tournament_tick, Settings().sweep_every) == (15.0, 10.0)
    for var in ("ATOUT_BOT_OVERDUE", "ATOUT_SWEEP_EVERY", "ATOUT_TOURNAMENT_TICK", "ATOUT_TOURNAMENT_LIVE_POLL"):
        for bad in ("soon", "0", "-1"):
            with pytest.raises(SettingsError, match=var):
                load_settings({var: bad})



def test_trusted_proxies_are_addresses_or_networks() -> None:
    assert load_settings({}).trusted_proxies == ()
    assert load_settings({"ATOUT_TRUSTED_PROXIES": "10.0.0.0/8, ::1,192.0.2.7"}).trusted_proxies == \
        ("10.0.0.0/8", "::1", "192.0.2.7")
    with pytest.raises(SettingsError, match="ATOUT_TRUSTED_PROXIES"):
        load_settings({"ATOUT_TRUSTED_PROXIES": "10.0.0.0/8, proxy.local"})


def test_the_send_buffer_and_write_timeout_are_bounded() -> None:
    assert load_settings({}).send_buffer == 65536 and load_settings({}).write_timeout == 30.0
    assert load_settings({"ATOUT_SEND_BUFFER": "0"}).send_buffer == 0
    for bad in ("12", "abc", str(128 * 1024 * 1024)):
        with pytest.raises(SettingsError, match="ATOUT_SEND_BUFFER"):
            load_settings({"ATOUT_SEND_BUFFER": bad})
    with pytest.raises(SettingsError, match="ATOUT_WRITE_TIMEOUT"):
        load_settings({"ATOUT_WRITE_TIMEOUT": "0"})


def test_registrations_per_hour_setting() -> None:
    assert load_settings({}).registrations_per_hour == 20
    assert load_settings({"ATOUT_REGISTRATIONS_PER_HOUR": "0"}).registrations_per_hour == 0
    for bad in ("-1", "many"):
        with pytest.raises(SettingsError, match="ATOUT_REGISTRATIONS_PER_HOUR"):
            load_settings({"ATOUT_REGISTRATIONS_PER_HOUR": bad})


def test_review_settings() -> None:
    assert (load_settings({}).review_every, load_settings({}).review_worlds) == (2.0, 16)
    got = load_settings({"ATOUT_REVIEW_EVERY": "0.5", "ATOUT_REVIEW_WORLDS": "0"})
    assert (got.review_every, got.review_worlds) == (0.5, 0)
    for var, bad in (("ATOUT_REVIEW_EVERY", "0"), ("ATOUT_REVIEW_EVERY", "soon"), ("ATOUT_REVIEW_WORLDS", "-1"),
                     ("ATOUT_REVIEW_WORLDS", "1001"), ("ATOUT_REVIEW_WORLDS", "many")):
        with pytest.raises(SettingsError, match=var):
            load_settings({var: bad})
