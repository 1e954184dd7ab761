"""Services say why they refuse (a kind), the HTTP edge says how (a status), in one table."""

from __future__ import annotations

import ast
from pathlib import Path

from services import refusals
from services.http.errors import REFUSAL_STATUS

ROOT = Path(__file__).resolve().parents[2]


def test_every_kind_has_one_status_and_the_table_names_only_kinds() -> None:
    kinds = set(refusals.Refused.__subclasses__())
    assert kinds == set(REFUSAL_STATUS)
    assert REFUSAL_STATUS[refusals.Forbidden] == 403 and REFUSAL_STATUS[refusals.NotNow] == 422


def test_services_raise_a_kind_never_the_base_nor_a_status() -> None:
    """`Refused(...)` itself would reach the edge with no status; a number beside a code is the
    HTTP choice the services no longer make."""
    found = []
    for path in sorted((ROOT / "services").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) in (
                    "Refused", *(k.__name__ for k in REFUSAL_STATUS)):
                first = node.args[0] if node.args else None
                if getattr(node.func, "id", None) == "Refused" or (
                        isinstance(first, ast.Constant) and isinstance(first.value, int)):
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert found == []
