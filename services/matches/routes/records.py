"""`POST /v1/records/play`: what `atout record play` does, over HTTP.

The body is a match record and the answer is exactly the object the command prints
(domain/record.py `play_record`): 200 when `ok` is true; 422 when it is false, with the
README's `{"ok": false, "deal", "index", "code", "message"}` body unchanged, since that is
what tools written against the command expect (it carries `code` and `message` like every
error). A deal whose fair chain does not hold (docs/fair-deal.md, "Verifying a match record")
is `bad_deck` with `details.check` naming the check that failed. A body that is not JSON answers as the command does for a file that is not JSON:
`bad_record` with `deal` and `index` null.

Both answers gain `signature` (`valid`, `invalid`, `unknown_key`, `absent`): whether the server
issued exactly this record (infra/signing.py). The rules cannot tell a forged record whose
entropy was swapped and decks recomputed from a real one; only the signature can, so it is
reported beside `ok`, never folded into it: an unsigned record plays as it always did.
`GET /v1/records/key` serves the keys it is checked against.
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

import msgspec
from litestar import Request, Response, get, post
from litestar.exceptions import ClientException, ValidationException
from litestar.openapi.datastructures import ResponseSpec
from litestar.params import Body, FromQuery

from domain.record import RecordError, play_record
from infra import signing
from services.matches.routes.answers import RecordPlayOut, RecordPlayRefused
from services.http.auth import authenticated
from services.http.errors import ApiError, http_exception
from services.http.ratelimit import rate_limited
from services.http.schemas import BEARER, Runtime, ex, responses

RECORD = {"game": "belote", "options": {"variant": "coinche", "rules": "official", "combinations": True},
          "deals": [{"dealer": "N", "deck": ["7S", "8S", "…32 codes…"],
                     "actions": [{"seat": "W", "action": "bid", "value": 80, "suit": "H"},
                                 {"seat": "S", "action": "pass"}]}]}
OK = {"ok": True, "deals": [{"contract": None, "result": "incomplete", "tricks": [], "points": {"NS": 0, "EW": 0},
                             "score": {"NS": 0, "EW": 0}}], "match_score": {"NS": 0, "EW": 0}, "winner": None,
      "legal": {"W": [{"action": "pass"}, {"action": "bid", "value": 90, "suit": "S"}]}, "signature": "absent"}
NOT_OK = {"ok": False, "deal": 0, "index": 1, "code": "not_your_turn", "message": "it is W's turn",
          "signature": "absent"}
FORGED = {"ok": False, "deal": 1, "index": None, "code": "bad_deck",
          "message": "the commitment is not the seed revealed by deal 1: this deal is not the next of the chain",
          "details": {"check": "chain_link"}, "signature": "invalid"}
RESIGNED = {**{k: v for k, v in OK.items() if k != "legal"}, "signature": "invalid"}
# The example key: the private key 00 01 .. 1f of docs/fair-deal.md's test vector.
EXAMPLE_KEY = signing.RecordSigner(bytes(range(32))).public.as_json()


class RecordKey(msgspec.Struct):
    alg: str
    key_id: str
    public_key: str


class RecordKeys(RecordKey):
    """The key exported records are signed with now, and the retired ones still vouched for."""
    retired: list[RecordKey]


def _not_json(request: Request, exc: Exception) -> Response:
    """Only a body that could not be decoded becomes the command's `bad_record`; auth,
    rate limits and everything else keep the usual error shape."""
    body_error = isinstance(exc, ClientException) and exc.status_code == 400 and not isinstance(exc, ApiError)
    if isinstance(exc, ValidationException):
        body_error = all(isinstance(e, dict) and e.get("source") == "body" for e in exc.extra or [{}])
    if not body_error:
        return http_exception(request, exc)  # type: ignore[arg-type]
    detail = "the body is empty" if isinstance(exc, ValidationException) else exc.detail
    return Response(RecordError(None, None, "bad_record", f"not valid JSON: {detail}").as_json(), status_code=422)


@post("/v1/records/play", guards=[authenticated, rate_limited], status_code=200, tags=["records"], security=BEARER,
      summary="Play a match record through the real rules (what `atout record play` prints)",
      description="`?legal=true` adds every seat's legal actions after the last action. `ok: false` answers 422 "
                  "with the command's body as is; a fair chain that does not hold is `bad_deck` with `details.check` "
                  "(`context`, `entropy`, `commitment`, `deck`, `chain_link`, `tip`; docs/fair-deal.md). Both answers "
                  "carry `signature`: `valid` (this server, with its key or a retired one, issued exactly this "
                  "record), `invalid` (it claims a signature that does not hold: altered since), `unknown_key` "
                  "(signed with a key this server does not know), `absent` (unsigned).",
      exception_handlers={ClientException: _not_json, ValidationException: _not_json},
      responses={**responses(200, RecordPlayOut, [ex("a deal in its auction, with legal actions", OK),
                                         ex("a record altered after it was signed", RESIGNED)],
                             "The result", 401, 429),
                 422: ResponseSpec(data_container=RecordPlayRefused,
                                   description="The first problem, as the command prints it",
                                   examples=[ex("an action out of turn", NOT_OK),
                                             ex("a forged deal", FORGED)], generate_examples=False)})
async def play(data: Annotated[Any, Body(title="Match record", examples=[ex("a coinche deal", RECORD)])],
               runtime: Runtime, legal: FromQuery[bool] = False) -> Response:
    # Off the event loop: a long record is a few milliseconds of pure computation.
    result = await asyncio.to_thread(_play, data, legal, signing.signer(runtime.settings).keys)
    return Response(result, status_code=200 if result["ok"] else 422)


def _play(data: Any, legal: bool, keys: tuple[signing.PublicKey, ...]) -> dict[str, Any]:
    return {**play_record(data, legal), "signature": signing.verify(data, keys)}


@get("/v1/records/key", guards=[rate_limited], tags=["records"],
     summary="The public key exported match records are signed with",
     description="Ed25519 (`alg`), the raw 32-byte public key in base64 (`public_key`) and its fingerprint "
                 "(`key_id`: the first 16 bytes of SHA-256 of the raw key, in hex), which each record's "
                 "`signature.key_id` names; `retired`: earlier keys whose signatures still verify. No token needed. "
                 "Fetch it once and pin it (docs/fair-deal.md, \"Signed records\").",
     responses=responses(200, RecordKeys, [ex("the key, none retired", {**EXAMPLE_KEY, "retired": []})],
                         "The keys", 429))
async def record_key(runtime: Runtime) -> RecordKeys:
    signer = signing.signer(runtime.settings)
    return RecordKeys(**signer.public.as_json(), retired=[RecordKey(**k.as_json()) for k in signer.retired])


async def sign(runtime: Runtime, record: dict[str, Any]) -> dict[str, Any]:
    """What every route that exports a record answers: the record with the server's signature
    (off the event loop: a thousand-deal record is tens of milliseconds of encoding)."""
    return await asyncio.to_thread(signing.signer(runtime.settings).sign, record)


ROUTES = [play, record_key]
