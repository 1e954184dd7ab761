"""Fuzz the served API with schemathesis and print what it found, as JSON.

    .venv/bin/python bench/fuzz.py --max-time 1500           # the long run (>= 100,000 requests)

Starts `atout serve --projector` and `atout worker --beat` on a throw-away database of the
Postgres at --database-url and a fresh Redis prefix (rate limit off), makes an admin
(`atout admin create`) and two players, and runs `schemathesis run` on `/schema/openapi.json`
for --max-time seconds: every operation, all four phases (examples, coverage, fuzzing, and
the stateful phase following the document's links: create → take seat → act), the checks
in CHECKS. The figures come from schemathesis's NDJSON report (every request it made):
requests, answers by status, 5xx, schema violations (failures of the response checks) and
how many stateful requests reached the act operation with a real match id.

`make test` runs the same function for about two minutes (tests/e2e/test_schemathesis.py).
"""

from __future__ import annotations

import argparse
import base64
import collections
import json
import os
import re
import secrets
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
BENCH = ROOT / "bench"
CHECKS = ("not_a_server_error", "status_code_conformance", "content_type_conformance",
          "response_headers_conformance", "response_schema_conformance", "negative_data_rejection",
          "positive_data_acceptance")
RESPONSE_CHECKS = {"status_code_conformance", "content_type_conformance", "response_headers_conformance",
                   "response_schema_conformance"}
# A request the schema allows may still be refused by the state of the game or tournament (not
# your turn, a finished match, too few entries): 422 and 409 are such refusals, never 400 or 415.
CONFIG = """
[checks.positive_data_acceptance]
expected-statuses = ["2XX", "401", "403", "404", "409", "422", "429"]

[phases.stateful]
max-steps = 12
"""
ACT = re.compile(r"/v1/matches/[^/]+/actions$")
# Refusals of schema-valid requests that no JSON Schema can prevent, each a rule across fields
# or items (docs/api.md, "What the document cannot say"): (operation, code) -> the rule.
BEYOND_SCHEMA = {
    ("POST /v1/matches", "wrong_dealer"): "a record's dealers follow the game's rotation from deal to deal",
    ("POST /v1/tournaments", "wrong_dealer"): "imported boards' dealers follow the game's rotation",
    ("POST /v1/matches", "not_rateable"): "a rated match needs seats the ratings can count (docs/ratings)",
    ("POST /v1/matches", "bad_clock"): "a rated match's clock is 5 to 300 s a decision (docs/ratings.md)",
    ("POST /v1/quickplay", "bad_clock"): "a rated queue's clock is 5 to 300 s a decision (docs/ratings.md)",
    ("POST /v1/quickplay", "bots_not_rated"): "bots fill casual queues only: `bots_after` with `rated` true is refused",
    # A page's `cursor` is opaque: only one the server gave in a Link header is taken.
    **{(op, "invalid_field"): "a cursor is one the server gave (services/http/paging.py)"
       for op in ("GET /v1/matches", "GET /v1/matches/mine", "GET /v1/tournaments", "GET /v1/tournaments/mine",
                  "GET /v1/invitations", "GET /v1/players/me/following", "GET /v1/players/me/following/tables",
                  "GET /v1/players/me/blocks", "GET /v1/matches/{match_id}/chat", "GET /v1/admin/matches/{match_id}/chat",
                  "GET /v1/admin/reports", "GET /v1/admin/fairplay")},
    ("GET /v1/admin/audit", "invalid_field"): "since..until spans 1 to 31 days (and since <= until)",
    ("POST /v1/tournaments", "not_enough_boards"): "imported boards cover every round's deals",
    # An option that only one variant has: a rule across two options (docs/rules-belote.md D-16).
    **{(op, "bad_option $.options.contracts"): "`contracts: suits_ta_sa` is Coinche's: another `variant` refuses it"
       for op in ("POST /v1/matches", "POST /v1/tournaments", "POST /v1/quickplay")},
    # What others are shown: no bidi control, something visible (Unicode categories; domain/text.py).
    **{(op, code): "a shown text holds no bidi control and at least one visible character"
       for op in ("POST /v1/players", "POST /v1/tournaments", "POST /v1/tournaments/{tournament_id}/entries",
                  "POST /v1/matches/{match_id}/chat") for code in ("text_bidi_control", "text_invisible")},
    **{(op, "bad_entropy"): "entropy: at most 1024 bytes in UTF-8 (JSON Schema counts characters), for a seat taken"
       for op in ("POST /v1/matches", "POST /v1/matches/{match_id}/seats/{seat}",
                  "PUT /v1/matches/{match_id}/seats/{seat}/entropy", "POST /v1/matches/{match_id}/rematch",
                  "POST /v1/invitations/{invitation_id}/accept")},
}


def schemathesis_run(base: str, tokens: list[str], max_time: int, workdir: Path, *, seed: int | None = None,
                     workers: int = 2, timeout: float | None = None, paths: str | None = None) -> dict[str, Any]:
    """Run schemathesis against `base` and return the figures (see `figures`)."""
    workdir.mkdir(parents=True, exist_ok=True)
    config = workdir / "schemathesis.toml"
    config.write_text(CONFIG)
    report = workdir / "report.ndjson"
    command = [str(Path(sys.executable).with_name("schemathesis")), "--config-file", str(config), "run",
               f"{base}/schema/openapi.json", "--max-time", str(max_time), "--workers", str(workers),
               "--checks", ",".join(CHECKS), "--phases", "examples,coverage,fuzzing,stateful",
               "--request-timeout", "20", "--report", "ndjson", "--report-ndjson-path", str(report),
               "--generation-database", "none", "--no-color", "--suppress-health-check", "all",
               "--continue-on-failure", "--no-shrink", "--generation-allow-x00", "false"]
    if seed is not None:
        command += ["--seed", str(seed)]
    if paths is not None:
        command += ["--include-path-regex", paths]
    env = {**os.environ, "SCHEMATHESIS_HOOKS": "fuzz_hooks", "FUZZ_BASE": base, "FUZZ_TOKENS": ",".join(tokens),
           "FUZZ_SEED": str(seed or 0), "PYTHONPATH": os.pathsep.join([str(BENCH), os.environ.get("PYTHONPATH", "")])}
    started = time.monotonic()
    done = subprocess.run(command, cwd=workdir, env=env, capture_output=True, text=True,
                          timeout=timeout or max_time * 3 + 120)
    (workdir / "schemathesis.log").write_text(done.stdout + done.stderr)
    out = figures(report, documented(base), paths)
    out.update(seconds=round(time.monotonic() - started, 1), exit_code=done.returncode, command=" ".join(command),
               log=str(workdir / "schemathesis.log"))
    return out


def _decoded(body: Any) -> bytes:
    if isinstance(body, dict) and "$base64" in body:
        return base64.b64decode(body["$base64"])
    return body.encode() if isinstance(body, str) else b""


def documented(base: str) -> set[str]:
    """"METHOD /path" of every operation the served document lists."""
    import httpx

    paths = httpx.get(f"{base}/schema/openapi.json", timeout=30).json()["paths"]
    return {f"{method.upper()} {path}" for path, ops in paths.items() for method in ops
            if method in ("get", "post", "put", "delete", "patch")}


def figures(report: Path, operations: set[str] | None = None, paths: str | None = None) -> dict[str, Any]:
    """Requests, answers by status, 5xx, failures by check (with a few examples each), and the
    stateful requests to the act operation that reached a real match (any answer but 404/400)."""
    statuses: collections.Counter[int] = collections.Counter()
    failures: collections.Counter[str] = collections.Counter()
    examples: dict[str, list[dict[str, Any]]] = collections.defaultdict(list)
    act: collections.Counter[str] = collections.Counter()
    refused: collections.Counter[tuple[str, str]] = collections.Counter()
    unexplained: list[dict[str, Any]] = []       # what the long run shows of each such refusal
    requests, total, tested = 0, None, set()
    for line in report.open():
        try:
            event = json.loads(line)
        except ValueError:          # the last line of a report still being written
            continue
        if "LoadingFinished" in event:
            total = event["LoadingFinished"]["statistic"]["operations"]["total"]
        finished = event.get("ScenarioFinished")
        if finished is None:
            continue
        recorder = finished["recorder"]
        for case_id, interaction in (recorder.get("interactions") or {}).items():
            requests += 1
            response = interaction.get("response") or {}
            case = ((recorder.get("cases") or {}).get(case_id) or {}).get("value") or {}
            if response.get("status_code") != 405:     # not the coverage phase's methods the route lacks
                tested.add(f"{case.get('method', '?')} {case.get('path', '?')}")
            status = response.get("status_code")
            statuses[status] += 1
            uri = interaction["request"]["uri"].split("?", 1)[0]
            if ACT.search(uri) and finished["phase"] == "stateful":
                act["stateful"] += 1
                if status not in (400, 404):
                    act["real_match"] += 1
                if status == 200:
                    act["accepted"] += 1
        for case_id, checks in (recorder.get("checks") or {}).items():
            for check in checks:
                if check["status"] != "failure":
                    continue
                failures[check["name"]] += 1
                interaction = (recorder.get("interactions") or {}).get(case_id, {})
                request, response = interaction.get("request", {}), interaction.get("response") or {}
                if check["name"] == "positive_data_acceptance":
                    try:
                        answer = json.loads(_decoded(response.get("content")))
                        code = answer.get("code", "?")
                        if code == "bad_option":     # an option's refusal is explained option by option
                            details = answer.get("details") or {}
                            option = details.get("option")
                            code = f"{code} {details.get('field') or (f'$.options.{option}' if option else '?')}"
                    except (ValueError, AttributeError):
                        code = "?"
                    case = ((recorder.get("cases") or {}).get(case_id) or {}).get("value") or {}
                    label = f"{case.get('method', '?')} {case.get('path', '?')}"
                    refused[(label, code)] += 1
                    if (label, code) not in BEYOND_SCHEMA and len(unexplained) < 10:
                        unexplained.append({
                            "request": f"{request.get('method')} {request.get('uri', '')[:200]}",
                            "body": _decoded(request.get("body"))[:500].decode(errors="replace"),
                            "answer": _decoded(response.get("content"))[:300].decode(errors="replace")})
                if len(examples[check["name"]]) < 5:
                    info = check.get("failure_info") or {}
                    examples[check["name"]].append({
                        "request": f"{request.get('method')} {request.get('uri', '')[:200]}",
                        "body": _decoded(request.get("body"))[:300].decode(errors="replace"),
                        "status": response.get("status_code"),
                        "answer": _decoded(response.get("content"))[:300].decode(errors="replace"),
                        "failure": str((info.get("failure") or {}).get("message", info))[:400]})
    if operations is not None and paths is not None:
        operations = {op for op in operations if re.search(paths, op.split(" ", 1)[1])}
    if operations is not None:
        total, tested = len(operations), tested & operations
    return {"requests": requests, "operations": total, "operations_tested": len(tested),
            "operations_untested": sorted(operations - tested) if operations is not None else None, "by_status": {str(k): v for k, v in sorted(statuses.items(), key=str)},
            "server_errors": sum(v for k, v in statuses.items() if k is not None and k >= 500),
            "schema_violations": sum(v for k, v in failures.items() if k in RESPONSE_CHECKS),
            "failures": dict(failures), "act": dict(act),
            "refused_valid": {f"{op} {code}": n for (op, code), n in refused.most_common()},
            "refused_valid_unexplained": sum(n for key, n in refused.items() if key not in BEYOND_SCHEMA),
            "refused_valid_unexplained_examples": unexplained,
            "examples": dict(examples)}


def _cli(env: dict[str, str], *args: str) -> str:
    return subprocess.run([sys.executable, "-m", "services.cli", *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=120, check=True).stdout


def players(base: str, env: dict[str, str], count: int = 2) -> list[str]:
    """An admin's token (`atout admin create`), then `count` registered players' tokens."""
    import httpx

    admin = json.loads(_cli(env, "admin", "create", f"fuzz-admin-{secrets.token_hex(3)}", "--json")
                       .strip().splitlines()[-1])["token"]
    tokens = [admin]
    for n in range(count):
        answer = httpx.post(f"{base}/v1/players", json={"name": f"fuzz player {n}"}, timeout=10)
        answer.raise_for_status()
        tokens.append(answer.json()["token"])
    return tokens


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--max-time", type=int, default=1500, help="seconds schemathesis runs (default 1500)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--database-url", default="postgresql://postgres@127.0.0.1:5432/postgres",
                        help="a Postgres server; the run makes a database of its own there and drops it")
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/0")
    parser.add_argument("--paths", default=None, help="only the operations whose path matches this regex")
    args = parser.parse_args()

    sys.path.insert(0, str(ROOT / "tests" / "e2e"))
    import asyncio

    import asyncpg
    from system_support import running_system

    name = f"atout_fuzz_{secrets.token_hex(4)}"

    async def database(sql: str) -> None:
        conn = await asyncpg.connect(args.database_url)
        try:
            await conn.execute(sql)
        finally:
            await conn.close()

    asyncio.run(database(f'CREATE DATABASE "{name}"'))
    url = args.database_url.rsplit("/", 1)[0] + f"/{name}"
    try:
        with tempfile.TemporaryDirectory(prefix="atout-fuzz-") as tmp:
            env = {**os.environ, "ATOUT_DATABASE_URL": url}
            subprocess.run([sys.executable, "-m", "services.cli", "migrate"], cwd=ROOT, env=env, check=True,
                           capture_output=True, timeout=120)
            with running_system(Path(tmp), url, args.redis_url, f"fuzz{secrets.token_hex(3)}",
                                ATOUT_RATE_LIMIT_REQUESTS="0") as system:
                tokens = players(system.base, system.env)
                result = schemathesis_run(system.base, tokens, args.max_time, Path(tmp) / "st", seed=args.seed,
                                          workers=args.workers, paths=args.paths)
                result["server_log_errors"] = sum(1 for line in system.logs[0].open(errors="replace")
                                                  if '"level": "error"' in line)
                result["log"] = "(removed with the run's temporary directory)"
    finally:
        asyncio.run(database(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    print(json.dumps(result, indent=2))
    ok = (result["server_errors"] == 0 and result["schema_violations"] == 0 and not result["refused_valid_unexplained"]
          and not result["failures"].get("negative_data_rejection"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
