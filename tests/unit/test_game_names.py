"""Which modules outside a game's own package may name a game (docs/adding-a-game.md, "Where
a game may be named").

A game's facts live in its package and reach everything else through its `GameRules`; so a
module of `domain/`, `infra/` or `services/` that imports a game's package, or holds a game's
name as a string, is either in the short list below — with the reason it may — or a fact that
has leaked out of its game. The list is checked both ways: a module that no longer names a
game leaves it, so it stays the list of the places a fourth game has to look at.
"""

from __future__ import annotations

import ast
from pathlib import Path

from domain.games import GAME_NAMES

ROOT = Path(__file__).resolve().parents[2]
LAYERS = ("domain", "infra", "services")

PACKAGES = {f"domain/{name}/" for name in GAME_NAMES}
GAME_MODULES = {("domain", name) for name in GAME_NAMES}

MAY_IMPORT = {
    "domain/games.py": "the literal list of games",
    "domain/bots/": "bot policies: each game's family of bots reads its own game's rules",
}
"""Modules (or folders) that may import a game's package."""

MAY_SAY = {
    "domain/bots/": "bot policies: FAMILIES keys each game's bots by its name, and the shared "
                    "auction search and hints still branch on it (candidates, honours, the auction's calls)",
    **{place: "example payloads of the OpenAPI document (a match of \"belote\")"
       for place in ("services/http/schemas.py", "services/matches/routes/", "services/disputes/routes/",
                     "services/social/routes/", "services/tournaments/routes/", "services/quickplay/routes/")},
}
"""Modules (or folders) that may hold a game's name as a string."""


def _modules() -> list[tuple[str, ast.AST]]:
    found = []
    for layer in LAYERS:
        for path in sorted((ROOT / layer).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            if not any(rel.startswith(package) for package in PACKAGES):
                found.append((rel, ast.parse(path.read_text(), rel)))
    return found


MODULES = _modules()


def _allowed(rel: str, allowed: dict[str, str]) -> bool:
    return any(rel == place or (place.endswith("/") and rel.startswith(place)) for place in allowed)


def _imports_a_game(tree: ast.AST) -> bool:
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            if any(tuple(alias.name.split(".")[:2]) in GAME_MODULES for alias in node.names):
                return True
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if tuple(node.module.split(".")[:2]) in GAME_MODULES:
                return True
            if node.module == "domain" and any(alias.name in GAME_NAMES for alias in node.names):
                return True
    return False


def _says_a_game(tree: ast.AST) -> bool:
    return any(isinstance(node, ast.Constant) and node.value in GAME_NAMES for node in ast.walk(tree))


def test_only_the_listed_modules_import_a_game() -> None:
    importers = {rel for rel, tree in MODULES if _imports_a_game(tree)}
    assert {rel for rel in importers if not _allowed(rel, MAY_IMPORT)} == set(), \
        "a game's facts belong in its package, read through its GameRules"
    assert {place for place in MAY_IMPORT if not any(_allowed(rel, {place: ""}) for rel in importers)} == set(), \
        "listed but no longer importing a game: take it off the list"


def test_only_the_listed_modules_name_a_game() -> None:
    sayers = {rel for rel, tree in MODULES if _says_a_game(tree)}
    assert {rel for rel in sayers if not _allowed(rel, MAY_SAY)} == set(), \
        "a game's facts belong in its package, read through its GameRules"
    assert {place for place in MAY_SAY if not any(_allowed(rel, {place: ""}) for rel in sayers)} == set(), \
        "listed but no longer naming a game: take it off the list"


def test_the_check_sees_a_leak() -> None:
    """The check itself: a branch on a game's name, or an import of a game's module, is seen."""
    assert _says_a_game(ast.parse('if game == "cinch": pass'))
    assert _imports_a_game(ast.parse("from domain.five_hundred.bids import BIDS"))
    assert _imports_a_game(ast.parse("from domain import belote"))
    assert not _says_a_game(ast.parse('name = "coinche"')) and not _imports_a_game(ast.parse("from domain import games"))
