"""The web client's words live in its catalogs (services/web/locales/*.json), not in its code.

* The four catalogs hold the same keys (a plural's forms counted as one key), each with the
  plural forms its language needs (Intl.PluralRules: English one/other, French one/many/other,
  Russian and Polish one/few/many/other), and the same `{{placeholders}}` as English.
* Every key the code or the page asks for (`t("…")`, `data-i18n`, `data-i18n-attr`) is in them.
* The pages (the player's, the admin's, /verify) have no text of their own outside `data-i18n`
  elements, and their modules (and /verify's own script) no string literal that reads as words
  (two words in a row, or a capitalised word): what a player or an admin reads comes from a
  catalog. /verify, one file that must work saved to disk, keeps its English copy in the page:
  the catalog's `verify` section, word for word. Identifiers (CSS classes, action codes, event
  types) are single lowercase words or dotted keys and are allowed.
* Cards in each language as its players write them.
"""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

WEB = Path(__file__).resolve().parents[2] / "services" / "web"
LOCALES = ("en", "fr", "ru", "pl")
PLURALS = {"en": {"one", "other"}, "fr": {"one", "many", "other"}, "ru": {"one", "few", "many", "other"},
           "pl": {"one", "few", "many", "other"}}
SUFFIX = re.compile(r"_(zero|one|two|few|many|other)$")
PLAYER_MODULES = ("app.js",
                  "shared/api.js", "shared/fair.js", "shared/grid.js", "shared/i18n.js", "shared/session.js", "shared/storage.js",
                  "shared/cues.js", "shared/table.js", "shared/trick_motion.js", "shared/words.js",
                  "matches/actions.js", "matches/card_taps.js", "matches/glance.js", "matches/hints.js", "matches/lobby.js", "matches/match.js",
                  "matches/match_live.js", "matches/quickplay.js", "matches/replay.js", "matches/review.js", "matches/deal_summary.js", "matches/settings.js", "matches/table_side.js", "matches/verified.js",
                  "live/notices.js", "chat/chat.js", "chat/reports.js", "social/challenge.js", "social/profiles.js", "social/social.js",
                  "tournaments/tournaments.js", "tournaments/duplicate.js", "tournaments/console.js", "tournaments/organise.js")
ADMIN_MODULES = ("admin/admin.js", "admin/admin_reports.js", "admin/admin_sanctions.js")
PAGES = ("index.html", "admin.html", "verify.html")


def flatten(tree: dict, prefix: str = "") -> dict[str, str]:
    out: dict[str, str] = {}
    for key, value in tree.items():
        if isinstance(value, dict):
            out.update(flatten(value, f"{prefix}{key}."))
        else:
            out[f"{prefix}{key}"] = value
    return out


def catalog(lng: str) -> dict[str, str]:
    return flatten(json.loads((WEB / "locales" / f"{lng}.json").read_text(encoding="utf-8")))


def plural_forms(flat: dict[str, str]) -> dict[str, set[str]]:
    forms: dict[str, set[str]] = {}
    for key in flat:
        m = SUFFIX.search(key)
        forms.setdefault(SUFFIX.sub("", key), set()).update({m.group(1)} if m else set())
    return forms


def placeholders(text: str) -> set[str]:
    return set(re.findall(r"\{\{(\w+)\}\}", text))


def test_the_four_catalogs_hold_the_same_keys_and_each_its_plural_forms() -> None:
    english = plural_forms(catalog("en"))
    for lng in LOCALES:
        flat = catalog(lng)
        forms = plural_forms(flat)
        assert set(forms) == set(english), (lng, sorted(set(forms) ^ set(english)))
        for key, found in forms.items():
            if english[key]:                                  # a plural in English: a plural everywhere
                assert found == PLURALS[lng], (lng, key, found)
        en_flat = catalog("en")
        for key, text in flat.items():
            base = SUFFIX.sub("", key)
            en_text = en_flat.get(key) or en_flat.get(f"{base}_other") or en_flat[base]
            assert placeholders(text) <= placeholders(en_text) | {"count"}, (lng, key, text)
            assert text.strip(), (lng, key)


class _Page(HTMLParser):
    """The text of the page that no `data-i18n` element owns, and every key the page names."""

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[bool] = []
        self.loose: list[str] = []
        self.keys: set[str] = set()
        self.tag = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        self.tag = tag
        if a.get("data-i18n"):
            self.keys.add(a["data-i18n"] or "")
        for pair in (a.get("data-i18n-attr") or "").split(";"):
            if ":" in pair:
                self.keys.add(pair.split(":")[1].strip())
        if tag not in ("input", "meta", "link", "br", "img"):
            self.stack.append(bool(a.get("data-i18n")) or tag in ("script", "style"))

    def handle_endtag(self, tag: str) -> None:
        if self.stack:
            self.stack.pop()

    def handle_data(self, data: str) -> None:
        if data.strip() and not any(self.stack):
            self.loose.append(data.strip())


def keys_in_code() -> set[str]:
    keys: set[str] = set()
    for name in PLAYER_MODULES + ADMIN_MODULES:
        keys |= set(re.findall(r"""\bt\(\s*["']([\w.]+)["']""", (WEB / name).read_text(encoding="utf-8")))
        for a, b in re.findall(r"""\bt\(\s*[^"'`)]*\?\s*["']([\w.]+)["']\s*:\s*["']([\w.]+)["']""",
                               (WEB / name).read_text(encoding="utf-8")):
            keys |= {a, b}
    return keys


def test_every_key_asked_for_is_in_the_catalogs() -> None:
    page = _Page()
    for name in PAGES:
        page.feed((WEB / name).read_text(encoding="utf-8"))
    forms = plural_forms(catalog("en"))
    missing = sorted(k for k in keys_in_code() | page.keys if k not in forms)
    assert not missing, missing
    assert len(keys_in_code()) > 150


@pytest.mark.parametrize("name", PAGES)
def test_the_page_has_no_words_of_its_own(name: str) -> None:
    page = _Page()
    page.feed((WEB / name).read_text(encoding="utf-8"))
    # the brand and each language's own name in the language menu are not translated
    allowed = {"♠ Atout", "Atout", "English", "Français", "Русский", "Polski"}
    assert set(page.loose) <= allowed, sorted(set(page.loose) - allowed)


WORDS = re.compile(r"[A-Za-zÀ-ÿА-яёЁ]{2,}[,:;!?]?\s+[A-Za-zÀ-ÿА-яёЁ]{2,}|^[A-ZА-Я][a-zа-яё]{2,}")
# where a literal is code, not words: CSS classes, selectors
NOT_WORDS = re.compile(r"""(?:class:\s*|querySelector(?:All)?\(\s*|eval_on_selector_all\(\s*)(["'`])(?:\\.|(?!\1).)*\1""")


def literals(source: str) -> list[str]:
    """The string literals of a module, and the static parts of its template literals."""
    source = re.sub(r"^\s*//.*$|\s//\s.*$", "", source, flags=re.M)          # comments
    source = re.sub(r"/\*.*?\*/", "", source, flags=re.S)                     # block comments
    source = NOT_WORDS.sub("", source)
    out = [m.group(2) for m in re.finditer(r"""(["'])((?:\\.|(?!\1).)*)\1""", source)]
    for m in re.finditer(r"`((?:\\.|[^`])*)`", source):
        out += [part for part in re.split(r"\$\{[^}]*\}", m.group(1))]
    return out


def verify_script() -> str:
    """/verify's own script: what follows the copy of fair.js it carries."""
    page = (WEB / "verify.html").read_text(encoding="utf-8")
    return page.split("// --- end of fair.js ---", 1)[1].split("</script>", 1)[0]


def test_every_module_is_read_for_words() -> None:
    ours = {p.relative_to(WEB).as_posix() for p in WEB.rglob("*.js") if "vendor" not in p.relative_to(WEB).parts}
    assert ours == set(PLAYER_MODULES + ADMIN_MODULES)


@pytest.mark.parametrize("name", PLAYER_MODULES + ADMIN_MODULES + ("verify.html",))
def test_no_words_in_the_modules(name: str) -> None:
    text = verify_script() if name == "verify.html" else (WEB / name).read_text(encoding="utf-8")
    worded = [s for s in literals(text) if WORDS.search(s)
              and not s.startswith(("/", "#", "application/", "Bearer ", "Content-Type"))]   # paths, MIME types, HTTP's words
    assert not worded, worded


@pytest.mark.parametrize(("lng", "ranks", "suits"), [
    ("fr", {"J": "V", "Q": "D", "K": "R", "A": "A"}, {"S": "pique", "H": "cœur"}),
    ("ru", {"J": "В", "Q": "Д", "K": "К", "A": "Т"}, {"S": "пики", "H": "черви"}),
    ("pl", {"J": "W", "Q": "D", "K": "K", "A": "A"}, {"S": "piki", "H": "kiery"}),
    ("en", {"J": "J", "Q": "Q", "K": "K", "A": "A"}, {"S": "spades", "H": "hearts"}),
])
def test_cards_as_the_players_of_each_language_write_them(lng: str, ranks: dict[str, str], suits: dict[str, str]) -> None:
    flat = catalog(lng)
    assert {r: flat[f"rank.{r}"] for r in ranks} == ranks
    assert {s: flat[f"suit_name.{s}"] for s in suits} == suits
    assert flat["rank.T"] == "10"


def test_the_games_own_terms_in_each_language() -> None:
    expected = {"fr": {"term.kitty": "talon", "combo.carre": "carré", "term.surcoinche": "surcoinche", "combo.tierce": "tierce"},
                "ru": {"term.kitty": "прикуп", "combo.carre": "каре", "term.misere": "мизер", "combo.tierce": "терц",
                       "combo.cinquante": "пятьдесят", "combo.cent": "сто", "term.pedro": "педро", "term.capot": "капот"},
                "pl": {"term.kitty": "musik", "combo.carre": "kareta", "term.no_trump": "bez atu", "term.misere": "mizer"}}
    for lng, terms in expected.items():
        flat = catalog(lng)
        assert {k: flat[k] for k in terms} == terms, lng


def test_every_hint_reason_the_server_gives_is_in_each_language() -> None:
    """The codes are the server's own list (`REASONS`, `NEEDS`, the honours it names), and every
    code its source passes to `_reason` is in that list; each has its words in every catalog,
    and the English one names the same numbers and suit as the server's English template."""
    import string

    from domain.bots import hints

    source = Path(hints.__file__).read_text(encoding="utf-8")
    used = {c for pair in re.findall(r'_reason\(\s*"(\w+)"(?:\s+if\s[^"]*else\s+"(\w+)")?', source) for c in pair if c}
    assert used and used <= set(hints.REASONS), sorted(used - set(hints.REASONS))
    honours = {n.lower().replace(" ", "_") for n in (*hints.HONOUR_NAMES.values(), *hints.FIVE_HUNDRED_HONOURS)}
    for lng in LOCALES:
        forms = plural_forms(catalog(lng))
        wanted = ({f"hint_reason.{c}" for c in hints.REASONS} | {f"hint_needs.{c}" for c in hints.NEEDS}
                  | {f"hint_honour.{n}" for n in honours | {"with"}})
        missing = sorted(wanted - set(forms))
        assert not missing, (lng, missing)
        assert all(forms[f"hint_needs.{c}"] for c in hints.NEEDS), lng          # counted in the language's plural
    english = catalog("en")
    for code, template in hints.REASONS.items():
        fields = {f for _, f, _, _ in string.Formatter().parse(template) if f}
        text = english.get(f"hint_reason.{code}") or english[f"hint_reason.{code}_other"]
        assert placeholders(text) - {"count"} == {"suit" if f == "suit_name" else f for f in fields}, (code, text)


def test_the_verify_page_s_english_is_the_catalog_s() -> None:
    """Saved to disk, /verify says what the English catalog says: its copy of the `verify`
    section, and the English text it holds in each `data-i18n` element, are the catalog's."""
    page = (WEB / "verify.html").read_text(encoding="utf-8")
    english = json.loads((WEB / "locales" / "en.json").read_text(encoding="utf-8"))
    copy = re.search(r'<script type="application/json" id="verify-words">(.*?)</script>', page, re.S)
    assert copy and json.loads(copy.group(1)) == english["verify"]
    flat = catalog("en")
    held = re.findall(r'data-i18n="([\w.]+)">([^<]*)<', page)
    assert len(held) > 10 and all(text == flat[key] for key, text in held), [k for k, t in held if t != flat[k]]
