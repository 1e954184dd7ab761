"""Schemathesis hooks for `bench/fuzz.py` (loaded through SCHEMATHESIS_HOOKS=fuzz_hooks).

Every request carries a bearer token of the run (FUZZ_TOKENS: the admin's first, then
players'), mostly the admin's so that every route is reached, sometimes a player's (the
403s), now and then a garbage one (the 401s).

Two operations end the caller's own session: revoking the token of the request and erasing
a player. Sent with the run's token they would sign the whole run out, so each of them gets
a player registered for it alone (and erasure, half the time, that player's own id).

The live streams (`…/stream`, `…/live`) stay open while their match or tournament goes on,
and schemathesis reads a response whole: a generated id that could name a real one (a UUID
learnt from earlier answers) is replaced by a fresh one, so they are fuzzed on everything
but an open stream (tests/api/test_live_streams.py covers those). The account stream
(`/v1/stream/me`) is the caller's own and never ends by itself: it is sent with `after=` past
any account's sequence, so it answers its one `resync` message and ends
(tests/e2e/test_account_stream.py covers the open stream).
"""

from __future__ import annotations

import os
import random
import re
import uuid

import requests
import schemathesis

BASE = os.environ.get("FUZZ_BASE", "http://127.0.0.1:8000")
SELF_ENDING = {("DELETE", "/v1/players/me/token"), ("DELETE", "/v1/players/{player_id}")}
LIVE = re.compile(r"/(stream|live)$")
ACCOUNT_STREAM = ("GET", "/v1/stream/me")
PAST_ANY_ACCOUNT = 2**53
UUID = re.compile(r"^[0-9a-fA-F-]{32,36}$")
TOKENS = [t for t in os.environ.get("FUZZ_TOKENS", "").split(",") if t]
_rng = random.Random(int(os.environ.get("FUZZ_SEED", "0")))


def _token() -> str:
    roll = _rng.random()
    if roll < 0.03 or not TOKENS:
        return "atk_not_a_token"
    return TOKENS[0] if roll < 0.75 or len(TOKENS) == 1 else _rng.choice(TOKENS[1:])


def _throwaway() -> tuple[str, str]:
    answer = requests.post(f"{BASE}/v1/players", json={"name": "fuzz throwaway"}, timeout=10)
    answer.raise_for_status()
    body = answer.json()
    return body["player_id"], body["token"]


@schemathesis.hook
def before_call(context, case, kwargs) -> None:
    operation = case.operation
    key = (operation.method.upper(), operation.path)
    case.headers = {**(case.headers or {}), "Authorization": f"Bearer {_token()}"}
    if key in SELF_ENDING:
        player_id, token = _throwaway()
        case.headers = {**(case.headers or {}), "Authorization": f"Bearer {token}"}
        if "player_id" in (case.path_parameters or {}) and _rng.random() < 0.5:
            case.path_parameters = {**case.path_parameters, "player_id": player_id}
    if key == ACCOUNT_STREAM:
        query = case.query or {}
        if "after" not in query or str(query["after"]).isdigit():   # a bad after= keeps its 400
            case.query = {**query, "after": PAST_ANY_ACCOUNT}
    if LIVE.search(operation.path):
        params = case.path_parameters or {}
        real = [name for name, value in params.items() if isinstance(value, str) and UUID.match(value)]
        if real:   # only then: an edited case is revalidated, and its generation mode may change
            case.path_parameters = {**params, **{name: str(uuid.uuid4()) for name in real}}
