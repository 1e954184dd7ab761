"""The served document said the way client generators read it: the same JSON Schema, in the
form that openapi-python-client and openapi-typescript turn into types rather than into a
failure or an object with no members (tests/e2e/test_generated_clients.py generates both).
"""

from __future__ import annotations

from typing import Any

OPAQUE = ("examples", "example", "default")      # values, not schemas


def open_objects(node: Any) -> None:
    """`additionalProperties: {}` where an object schema says nothing of its members: the same
    in JSON Schema, but TypeScript generators read a bare object as one with no members."""
    if isinstance(node, dict):
        if node.get("type") == "object" and not any(k in node for k in (
                "properties", "additionalProperties", "patternProperties", "oneOf", "anyOf", "allOf", "$ref")):
            node["additionalProperties"] = {}
        for key, child in node.items():
            if key not in OPAQUE:
                open_objects(child)
    elif isinstance(node, list):
        for child in node:
            open_objects(child)


def enum_consts(node: Any) -> None:
    """A union's `const` branch as a one-value `enum`: openapi-python-client checks a `const`
    branch with no fallback, so `80 | "capot"` failed on 80; an enum branch is tried in turn."""
    if isinstance(node, dict):
        for key in ("anyOf", "oneOf"):
            for branch in node.get(key) or ():
                if isinstance(branch, dict) and "const" in branch:
                    branch["enum"] = [branch.pop("const")]
        for key, child in node.items():
            if key not in OPAQUE:
                enum_consts(child)
    elif isinstance(node, list):
        for child in node:
            enum_consts(child)
