"""The web client's modules hold together, read from the source itself (no build step checks it).

Every `import … from "…"` and `export … from "…"` of each module under `services/web/` (its
vendored libraries aside) is read with a regular expression, as is each page's
`<script type="module" src="/web/…">`. Then: every import names a file that exists, inside
`services/web/`, with its `.js` (the browser adds nothing); the pages' scripts exist too; the
modules import one another without any circle (two modules that need each other load in an order
the browser picks: one of them sees the other's bindings before they are set), nor do the features'
folders (`shared/` importing none of them); every module is reached from a page, so none is left
behind by a move; and every file ships as package data.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "services" / "web"
PAGES = ("index.html", "admin.html")            # verify.html is one file: it has no module of ours
# `import x from`, `import { a, b } from`, `import * as m from`, `import x, { a } from`, `export { a } from`,
# `export * from`, on one line or several; and `import "…"` alone.
IMPORT = re.compile(r"""^[ \t]*(?:import|export)\s+(?:[\w$]+\s*,?\s*)?(?:\{[^}]*\}\s*|\*\s*(?:as\s+[\w$]+\s*)?)?"""
                    r"""from\s*(["'])(?P<spec>[^"']+)\1|^[ \t]*import\s*(["'])(?P<bare>[^"']+)\3""", re.M)
DYNAMIC = re.compile(r"""\bimport\(\s*(["'])(?P<spec>[^"']+)\1\s*\)""")
SCRIPT = re.compile(r"""<script\b[^>]*\btype="module"[^>]*\bsrc="([^"]+)\"""")


def modules() -> list[Path]:
    return sorted(p for p in WEB.rglob("*.js") if "vendor" not in p.relative_to(WEB).parts)


def name(path: Path) -> str:
    return path.relative_to(WEB).as_posix()


def specifiers(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    found = [m.group("spec") or m.group("bare") for m in IMPORT.finditer(text)]
    return found + [m.group("spec") for m in DYNAMIC.finditer(text)]


def target(path: Path, spec: str) -> Path:
    """The file a specifier names, as the browser resolves it against the module's URL."""
    if spec.startswith("/web/"):
        return (WEB / spec.removeprefix("/web/")).resolve()
    return (path.parent / spec).resolve()


def graph() -> dict[str, set[str]]:
    """Each module of ours and the modules of ours it imports (the vendored ones left out)."""
    out = {}
    for path in modules():
        deps = {target(path, s) for s in specifiers(path)}
        out[name(path)] = {name(d) for d in deps if d.is_relative_to(WEB) and "vendor" not in d.relative_to(WEB).parts}
    return out


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Every elementary circle, each once, starting at its smallest module (the graph is small)."""
    found = []

    def walk(start: str, node: str, path: list[str]) -> None:
        for nxt in sorted(edges.get(node, ())):
            if nxt == start:
                found.append(path)
            elif nxt > start and nxt not in path:
                walk(start, nxt, [*path, nxt])

    for start in sorted(edges):
        walk(start, start, [start])
    return found


def test_the_regex_reads_every_form_of_import() -> None:
    source = '\n'.join([
        'import { a, b } from "./one.js";',
        'import {\n  c,\n  d,\n} from "./two.js";',
        "import x from './three.js';",
        'import * as m from "./four.js";',
        'import y, { e } from "./five.js";',
        'export { f } from "./six.js";',
        'export * from "./seven.js";',
        'import "./eight.js";',
        '// import { no } from "./comment.js" is not at the start of a line',
        'const z = from("./nine.js");',
    ])
    found = [m.group("spec") or m.group("bare") for m in IMPORT.finditer(source)]
    assert found == ["./one.js", "./two.js", "./three.js", "./four.js", "./five.js", "./six.js", "./seven.js", "./eight.js"]


def test_there_are_modules_to_read() -> None:
    assert len(modules()) > 20
    assert sum(len(specifiers(p)) for p in modules()) > 100


@pytest.mark.parametrize("path", modules(), ids=name)
def test_every_import_names_a_file_of_ours(path: Path) -> None:
    for spec in specifiers(path):
        assert spec.startswith(("./", "../")), f"{name(path)}: {spec!r} is not relative (no import map, no bare names)"
        assert spec.endswith(".js"), f"{name(path)}: {spec!r} without .js: the browser would ask for it as written"
        found = target(path, spec)
        assert found.is_relative_to(WEB), f"{name(path)}: {spec!r} leaves services/web"
        assert found.is_file(), f"{name(path)}: {spec!r} names no file (services/web/{found.relative_to(WEB).as_posix()})"


@pytest.mark.parametrize("page", PAGES)
def test_each_page_loads_a_module_that_exists(page: str) -> None:
    scripts = SCRIPT.findall((WEB / page).read_text(encoding="utf-8"))
    assert scripts, f"{page} loads no module"
    for src in scripts:
        assert src.startswith("/web/"), src
        assert target(WEB / page, src).is_file(), f"{page}: {src} names no file"


def test_verify_page_stands_alone() -> None:
    page = (WEB / "verify.html").read_text(encoding="utf-8")
    assert not re.search(r"<script\b[^>]*\bsrc=", page), "verify.html must carry its script, not load one"
    assert not list(IMPORT.finditer(page)) and not DYNAMIC.search(page), "verify.html must import nothing"


def test_no_module_circle() -> None:
    edges = graph()
    assert len(edges) == len(modules())
    found = circles(edges)
    assert not [c for c in found if len(c) == 2], [" -> ".join([*c, c[0]]) for c in found if len(c) == 2]
    assert not found, [" -> ".join([*c, c[0]]) for c in found]


def test_no_circle_between_features() -> None:
    """The folders are the features (matches, live, chat, social, tournaments, admin) and what they share
    (shared): a feature may use another, never back, and shared/ uses none of them."""
    edges = graph()
    folder = lambda module: module.split("/")[0] if "/" in module else "(page)"     # noqa: E731
    features: dict[str, set[str]] = {}
    for module, deps in edges.items():
        features.setdefault(folder(module), set()).update(folder(d) for d in deps if folder(d) != folder(module))
    assert {"shared", "matches", "chat", "social", "tournaments", "admin"} <= set(features)
    assert features["shared"] == set(), f"shared/ imports {sorted(features['shared'])}"
    assert not [f for f, deps in features.items() if "(page)" in deps], "a feature imports the page's app.js"
    found = circles(features)
    assert not found, [" -> ".join([*c, c[0]]) for c in found]


def test_the_circle_finder_finds_circles() -> None:
    edges = {"a": {"b"}, "b": {"a", "c"}, "c": {"d"}, "d": {"b"}, "e": {"a"}}
    assert circles(edges) == [["a", "b"], ["b", "c", "d"]]


def test_every_module_is_reached_from_a_page() -> None:
    edges = graph()
    reached: set[str] = set()
    todo = [name(target(WEB / page, src)) for page in PAGES for src in SCRIPT.findall((WEB / page).read_text(encoding="utf-8"))]
    while todo:
        module = todo.pop()
        if module not in reached:
            reached.add(module)
            todo.extend(edges.get(module, ()))
    # fair.js is also carried verbatim by verify.html (tests/e2e/test_web_fair.py checks the copy)
    assert set(edges) - reached == set(), sorted(set(edges) - reached)


def test_every_file_ships_as_package_data() -> None:
    """`pip install .` (the image) carries what the globs of pyproject.toml name: every file of the client."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    services = ROOT / "services"
    shipped = {p for glob in config["tool"]["setuptools"]["package-data"]["services"] for p in services.glob(glob) if p.is_file()}
    files = {p for p in WEB.rglob("*") if p.is_file() and "__pycache__" not in p.parts}
    assert files - shipped == set(), sorted(p.relative_to(WEB).as_posix() for p in files - shipped)
