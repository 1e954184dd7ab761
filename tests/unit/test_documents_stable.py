"""The served OpenAPI and AsyncAPI documents are the same in every process: clients and checks
that compare the contract between two servers (or two deploys of the same code) see no change
where there is none. Two processes build the app and hash both (no example drawn at random)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HASH = """
import hashlib, json, logging
logging.disable(logging.CRITICAL)
from litestar.testing import TestClient
from infra.settings import Settings
from services.http.app import create_app
with TestClient(create_app(Settings())) as client:
    for path in ('/schema/openapi.json', '/schema/asyncapi.json'):
        document = client.get(path).json()
        print(hashlib.sha256(json.dumps(document, sort_keys=True).encode()).hexdigest())
"""


def test_two_processes_serve_the_same_documents() -> None:
    runs = [subprocess.Popen([sys.executable, "-c", HASH], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True) for _ in range(2)]
    outs = [run.communicate(timeout=120) for run in runs]
    assert all(run.returncode == 0 for run in runs), [err[-2000:] for _, err in outs]
    first, second = (out.split() for out, _ in outs)
    assert len(first) == 2 and all(len(digest) == 64 for digest in first) and first == second
