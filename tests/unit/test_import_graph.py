"""The layers point one way, read from the source itself.

Every module of `domain/`, `infra/` and `services/` is parsed with `ast` and every import in it
collected — at the top, inside functions, inside classes — except under `if TYPE_CHECKING:`
(never run: types only). Then: no import circle anywhere; `domain` imports neither `infra`
nor `services`, `infra` does not import `services`; no module is loaded by a name computed at
run time (`importlib.import_module`, `__import__`); and nothing below the composition root
imports it (`services/bootstrap.py`: only the processes' entry points build from it).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LAYERS = ("domain", "infra", "services")
BELOW = {"domain": ("infra", "services"), "infra": ("services",)}
# The entry points that build processes from the composition root.
ROOT_USERS = ("services.http.app", "services.cli", "services.commands.")


def _modules() -> dict[str, Path]:
    found = {}
    for layer in LAYERS:
        for path in sorted((ROOT / layer).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            found[name] = path
    return found


MODULES = _modules()


def _type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _walk(node: ast.AST) -> Iterator[ast.AST]:
    """Every node below `node`, skipping the bodies of `if TYPE_CHECKING:`."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.If) and _type_checking(child):
            for other in child.orelse:
                yield other
                yield from _walk(other)
            continue
        yield child
        yield from _walk(child)


def _package(module: str) -> str:
    return module if MODULES[module].name == "__init__.py" else module.rpartition(".")[0]


def _resolve(module: str, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    base = _package(module).split(".")
    base = base[:len(base) - (node.level - 1)]
    return ".".join([*base, *([node.module] if node.module else [])])


def _targets(name: str) -> set[str]:
    """The module of ours `name` is, or the nearest one it lies in (a name in a module)."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return {name} if name else set()


def imports_of(module: str) -> set[str]:
    tree = ast.parse(MODULES[module].read_text(), str(MODULES[module]))
    out: set[str] = set()
    for node in _walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                out |= _targets(alias.name)
        elif isinstance(node, ast.ImportFrom):
            source = _resolve(module, node)
            for alias in node.names:
                full = f"{source}.{alias.name}"
                out |= {full} if full in MODULES else _targets(source)
    return out - {module}


GRAPH = {module: imports_of(module) for module in MODULES}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def _within(layer: str) -> dict[str, set[str]]:
    inside = {m for m in GRAPH if m.split(".")[0] == layer}
    return {m: GRAPH[m] & inside for m in inside}


def test_the_graph_is_read_from_every_module_and_sees_imports_inside_functions() -> None:
    """The reader itself: a function-level import is an edge (the fast path's worker import,
    for one), and a circle made of them is found."""
    assert len(MODULES) > 100 and "services.bootstrap" in GRAPH
    assert "services.runtime" in GRAPH["services.bootstrap"]
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    sample = ast.parse("def f():\n    from services import bootstrap\nif TYPE_CHECKING:\n    import infra.vault\n")
    found = [n for n in _walk(sample) if isinstance(n, (ast.Import, ast.ImportFrom))]
    assert [getattr(n, "module", None) for n in found] == ["services"]


@pytest.mark.parametrize("layer", ["infra", "services"])
def test_no_import_circle(layer: str) -> None:
    assert cycles(_within(layer)) == []


def test_no_import_circle_in_the_domain() -> None:
    assert cycles(_within("domain")) == []


def test_no_import_circle_across_layers() -> None:
    assert cycles(GRAPH) == []


def test_layers_point_inward() -> None:
    upward = sorted(f"{m} -> {t}" for m, targets in GRAPH.items() for t in targets
                    if t.split(".")[0] in BELOW.get(m.split(".")[0], ()))
    assert upward == []


def test_no_module_is_loaded_by_a_computed_name() -> None:
    loaders = []
    for module, path in MODULES.items():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call):
                func = node.func
                name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
                if name in ("import_module", "__import__", "iter_modules"):
                    loaders.append(f"{module}:{node.lineno} {name}")
    assert loaders == []


def test_only_the_entry_points_import_the_composition_root() -> None:
    users = sorted(m for m, targets in GRAPH.items() if "services.bootstrap" in targets)
    assert users and all(u.startswith(ROOT_USERS) for u in users), users


def test_no_process_imports_the_tests() -> None:
    """The tests' in-memory event store and vault (tests/memory_store.py) are for logic tests:
    no module a process runs may reach them (nor anything else under tests/)."""
    found = []
    for module, path in MODULES.items():
        for node in _walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [_resolve(module, node)]
            else:
                continue
            found += [f"{module} -> {n}" for n in names if n == "tests" or n.startswith("tests.")]
    assert found == []


# The HTTP side of services/: the plumbing package, each feature's `routes`, and the commands
# (entry points: `atout serve` builds the app). Everything else is a service module.
HTTP_SIDE = ("services.http", "services.commands", "services.cli")


def _http_side(module: str) -> bool:
    return module.startswith(HTTP_SIDE) or ".routes" in module


def _external(module: str) -> set[str]:
    """The top-level names of packages outside ours that `module` imports (not under TYPE_CHECKING)."""
    out: set[str] = set()
    for node in _walk(ast.parse(MODULES[module].read_text())):
        if isinstance(node, ast.Import):
            out |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            out.add(node.module.split(".")[0])
    return out - set(LAYERS)


def test_no_service_module_imports_routes_the_http_package_or_litestar() -> None:
    """Services raise refusals of a kind and return values; the routes map them to HTTP. A
    feature's declaration (`feature.py`) names its routes only inside the functions the API
    calls, so it is checked apart, by what the worker and projector load (test_composition)."""
    service_modules = [m for m in GRAPH if m.startswith("services.") and not _http_side(m)
                       and not m.endswith(".feature")]
    assert "services.matches.tables" in service_modules and "services.chat.service" in service_modules
    found = sorted(f"{m} -> {t}" for m in service_modules for t in GRAPH[m] if _http_side(t) and not t.endswith(".feature"))
    found += sorted(f"{m} -> litestar" for m in service_modules if "litestar" in _external(m))
    assert found == []


def test_the_composition_root_imports_declarations_never_routes() -> None:
    found = sorted(t for t in GRAPH["services.bootstrap"] if _http_side(t) and not t.endswith(".feature"))
    assert found == []
    for module in (m for m in GRAPH if m.endswith(".feature")):
        top = {node.module for node in ast.parse(MODULES[module].read_text()).body
               if isinstance(node, ast.ImportFrom) and node.module}
        assert not [t for t in top if _http_side(t) or t.startswith("litestar")], module
