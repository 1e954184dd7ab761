"""What a client generator cannot type in a served OpenAPI document: a success body, at any
depth, that is an object with no properties (outside a documented map, `additionalProperties`
with a schema of its own) or a schema that says nothing at all (`{}`: any value)."""

from __future__ import annotations

from typing import Any

EXEMPT = {("get", "/schema/asyncapi.json")}    # the AsyncAPI document's own body
SILENT = {"description", "title", "examples", "example", "default", "deprecated", "readOnly", "format"}


def _untyped(node: Any, components: dict[str, Any], path: str, seen: frozenset[str]) -> list[str]:
    if not isinstance(node, dict):
        return []
    if "$ref" in node:
        name = node["$ref"].rsplit("/", 1)[-1]
        return [] if name in seen else _untyped(components[name], components, f"{path}<{name}>", seen | {name})
    if not (set(node) - SILENT):
        return [f"{path}: any value"]
    found: list[str] = []
    extra = node.get("additionalProperties")
    if node.get("type") == "object" and not node.get("properties") and not (isinstance(extra, dict) and extra) \
            and not any(k in node for k in ("oneOf", "anyOf", "allOf")):
        found.append(f"{path}: object without properties")
    for key in ("oneOf", "anyOf", "allOf", "prefixItems"):
        for i, child in enumerate(node.get(key) or ()):
            found += _untyped(child, components, f"{path}.{key}[{i}]", seen)
    for name, child in (node.get("properties") or {}).items():
        found += _untyped(child, components, f"{path}.{name}", seen)
    if isinstance(extra, dict) and extra:
        found += _untyped(extra, components, f"{path}.*", seen)
    if node.get("type") == "array" or "items" in node:
        found += _untyped(node.get("items", {}), components, f"{path}[]", seen)
    return found


def untyped_bodies(document: dict[str, Any]) -> dict[str, list[str]]:
    """`{"METHOD path status": [where, ...]}` for every success body a generator cannot type."""
    components = document.get("components", {}).get("schemas", {})
    out: dict[str, list[str]] = {}
    for route, operations in document["paths"].items():
        for method, operation in operations.items():
            if not isinstance(operation, dict) or (method, route) in EXEMPT:
                continue
            for status, response in (operation.get("responses") or {}).items():
                if not str(status).startswith("2"):
                    continue
                for content in (response.get("content") or {}).values():
                    found = _untyped(content.get("schema", {}), components, "$", frozenset())
                    if found:
                        out[f"{method.upper()} {route} {status}"] = found
    return out


def success_bodies(document: dict[str, Any]) -> int:
    return sum(1 for route, ops in document["paths"].items() for method, op in ops.items() if isinstance(op, dict)
               for status, response in (op.get("responses") or {}).items() if str(status).startswith("2")
               for _ in (response.get("content") or {}).values())
