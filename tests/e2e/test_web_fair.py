"""The fair deal verified by the player's own browser (headless Chromium, Playwright).

* `services/web/shared/fair.js` — SHA-256 in plain JavaScript, the key, the stream, the shuffle —
  reproduces every test vector of docs/fair-deal.md with WebCrypto removed (as on plain HTTP),
  and `verify.html` carries it verbatim (the standalone page needs nothing else).
* A guest plays a real two-deal match against bots: the client gave entropy when it created
  the match, the record's deals carry it, and the table and the match's history mark both
  deals "verified"; a tampered record served to the same page is a loud failure naming the
  deal and the check.
* The standalone page `GET /verify` verifies the downloaded record, fetches it with the
  player's token, and fails loudly on a tampered copy (an altered card, entropy, context, a
  broken link to the tip).
* A renewed chain (`chain_renewed`) gets fresh entropy from the client, and its deals use it.
"""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path

import httpx
import pytest
from web_support import browser, guest_against_bots, new_page, shot, web_pool, web_svc  # noqa: F401

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "services" / "web"
VECTORS = json.loads(re.search(r"<!-- test-vectors -->\s*```json\n(.*?)```",
                               (ROOT / "docs" / "fair-deal.md").read_text(), re.S).group(1))
FIVE_HUNDRED_KEY_MESSAGE = (
    "00000016" + b"atout/fair-deal/v1/key".hex()
    + "00000020" + "cd657ca6abd09d4436bcae9550dd8ab515babf2541b397cddca82e0577e320ba"
    + "00000032" + b"match:7f3a9c2e-5b1d-4e8a-9c0f-2d6b8e1a4f37:deal:12".hex()
    + "01" + "00000005" + b"alpha".hex() + "01" + "00000000" + "00" + "01" + "0000000b" + "zürich ♠".encode().hex())

RUN_VECTORS = """async (vectors) => {
  Object.defineProperty(globalThis.crypto, "subtle", { value: undefined, configurable: true });
  const F = await import("/web/shared/fair.js");
  const hex = F.toHex, c = vectors.chain, secret = F.fromHex(c.secret);
  const out = { secure: window.isSecureContext, subtle: globalThis.crypto.subtle === undefined,
                chain: { c_0: hex(F.iterate(secret, c.n)), c_1: hex(F.iterate(secret, c.n - 1)),
                         c_2: hex(F.iterate(secret, c.n - 2)), c_999: hex(F.iterate(secret, 1)) },
                deals: [] };
  for (const d of vectors.deals) {
    const seed = F.fromHex(d.seed), key = F.deriveKey(seed, d.context, d.entropy);
    const next = F.byteStream(key), block = [];
    for (let i = 0; i < 32; i++) block.push(next());
    out.deals.push({ name: d.name, commitment: hex(F.sha256(seed)), key: hex(key), block_0: hex(block),
                     key_message: hex(F.keyMessage(seed, d.context, d.entropy)),
                     swaps: F.swapIndices(F.canonicalDeck(d.game).length, key),
                     deck: F.shuffle(d.game, seed, d.context, d.entropy) });
  }
  // a tournament table's record: two boards, their tip (the tournament's) not in the record
  const chainDeal = (d) => ({ dealer: "N", deck: F.shuffle(d.game, F.fromHex(d.seed), d.context, d.entropy), fair: d });
  const [one, two] = vectors.deals.slice(0, 2).map(chainDeal);
  const asBoard = (deal, b) => ({ ...deal, fair: { ...deal.fair, context: `tournament:cup:board:${b}` },
                                  deck: F.shuffle("belote", F.fromHex(deal.fair.seed), `tournament:cup:board:${b}`, {}) });
  const boards = { match_id: "t-1", game: "belote", tip: "00".repeat(32), chain_length: 1000, renewals: [],
                   deals: [asBoard(one, 1), asBoard(two, 2)] };
  out.boards = F.verifyRecord(boards);
  const stirred = structuredClone(boards);
  stirred.deals[1].fair.entropy = { N: "x" };
  out.boards_with_entropy = F.verifyRecord(stirred);
  const match = { match_id: "demo-match", game: "belote", tip: c.c_0, chain_length: 1000, renewals: [], deals: [one, two] };
  out.match = F.verifyRecord(match);
  out.unlinked = F.verifyRecord({ ...match, deals: [one, { ...two, fair: { ...two.fair, commitment: c.c_2 } }] });
  out.empty = hex(F.sha256(new Uint8Array(0)));
  out.abc = hex(F.sha256(new TextEncoder().encode("abc")));
  out.long = hex(F.sha256(new Uint8Array(1000).fill(97)));
  return out;
}"""


def test_the_standalone_page_carries_fair_js_verbatim():
    page = (WEB / "verify.html").read_text()
    code = (WEB / "shared" / "fair.js").read_text()
    assert code in page, "verify.html must carry services/web/shared/fair.js verbatim (re-paste it)"
    assert not re.search(r"<script[^>]+src=|<link[^>]+href=\"(?!data:)|import\s*\(|from\s+\"\./", page), \
        "the standalone page loads nothing else"


@pytest.mark.db
@pytest.mark.redis
@pytest.mark.slow
async def test_fair_js_reproduces_every_test_vector_without_webcrypto(web_system, browser):
    errors: list[str] = []
    page = await new_page(browser, errors)
    await page.goto(f"{web_system.base}/verify")
    got = await page.evaluate(RUN_VECTORS, VECTORS)
    assert got["subtle"], "WebCrypto was removed: the vectors ran on fair.js's own SHA-256"
    chain = VECTORS["chain"]
    assert got["chain"] == {k: chain[k] for k in ("c_0", "c_1", "c_2", "c_999")}
    assert got["empty"] == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    assert got["abc"] == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    import hashlib
    assert got["long"] == hashlib.sha256(b"a" * 1000).hexdigest()   # several blocks
    assert len(got["deals"]) == len(VECTORS["deals"]) == 5
    for vector, mine in zip(VECTORS["deals"], got["deals"]):
        for field in ("commitment", "key", "block_0", "swaps", "deck"):
            assert mine[field] == vector[field], (vector["name"], field)
        if vector["game"] == "five_hundred":
            assert mine["key_message"] == FIVE_HUNDRED_KEY_MESSAGE
    # the chain's two deals verify against its tip; a commitment that is not the previous seed does not
    assert got["match"]["ok"] and got["match"]["tip_checked"], got["match"]
    every = dict.fromkeys(("context", "entropy", "commitment", "deck", "chain_link", "tip"), True)
    assert [d["checks"] for d in got["match"]["deals"]] == [{**every, "chain_link": None}, every]
    assert [d["kind"] for d in got["match"]["deals"]] == ["shuffled", "shuffled"]
    assert not got["unlinked"]["ok"] and {"commitment", "chain_link"} <= set(got["unlinked"]["deals"][1]["failed"])
    # boards: commitments and decks checked, no entropy; the tournament's tip is not in the record
    assert got["boards"]["ok"] and not got["boards"]["tip_checked"], got["boards"]
    assert all(d["kind"] == "board" and d["checks"]["tip"] is None and d["checks"]["chain_link"] is None
               and d["checks"]["deck"] for d in got["boards"]["deals"])
    assert got["boards_with_entropy"]["deals"][1]["failed"] == ["entropy", "deck"], got["boards_with_entropy"]
    assert not errors, errors


async def _play_to_the_end(page, deals: int) -> None:
    while True:
        await page.wait_for_function(
            "document.body.dataset.myTurn === 'true' || document.body.dataset.status === 'finished'", timeout=60_000)
        if await page.get_attribute("body", "data-status") == "finished":
            return
        version = await page.get_attribute("body", "data-version")
        legal = page.locator("#table .seat-bottom .card.legal")
        if await legal.count():
            await legal.first.click()
        else:
            buttons = page.locator("#actions button")
            preferred = page.locator("#actions button.action-take, #actions button.action-name")
            await (preferred.first if await preferred.count() else buttons.first).click()
        await page.wait_for_function(
            f"document.body.dataset.version !== '{version}' || document.body.dataset.status === 'finished'",
            timeout=60_000)


def _tampered(record: dict, how: str) -> dict:
    bad = copy.deepcopy(record)
    deal = bad["deals"][0]
    if how == "deck":
        deal["deck"][0], deal["deck"][1] = deal["deck"][1], deal["deck"][0]
    elif how == "entropy":
        deal["fair"]["entropy"]["S"] = deal["fair"]["entropy"]["S"] + "x"
    elif how == "context":
        deal["fair"]["context"] = deal["fair"]["context"].replace(":deal:1", ":deal:2")
    elif how == "tip":
        bad["tip"] = "00" * 32
    return bad


@pytest.mark.db
@pytest.mark.redis
@pytest.mark.slow
async def test_a_real_match_is_verified_on_the_table_and_a_tampered_record_fails_loudly(web_system, browser,
                                                                                         tmp_path):
    base = web_system.base
    errors: list[str] = []
    page = await new_page(browser, errors)
    match_id = await guest_against_bots(page, base, "Vera", 2)
    await _play_to_the_end(page, 2)

    await page.wait_for_selector("#fair[data-state=verified][data-verified='2']", timeout=30_000)
    assert (await page.inner_text("#fair")).startswith("✓ 2 deals verified")
    history = page.locator("#deal-history li[data-verified=true]")
    assert await history.count() == 2
    assert await history.evaluate_all("els => els.map(e => e.dataset.deal)") == ["1", "2"]
    await shot(page, "40-fair-verified")

    session = await page.evaluate("JSON.parse(localStorage.getItem('atout.session'))")
    given = await page.evaluate(f"JSON.parse(localStorage.getItem('atout.entropy'))[{json.dumps(match_id)}]")
    record = httpx.get(f"{base}/v1/matches/{match_id}/record",
                       headers={"Authorization": f"Bearer {session['token']}"}).raise_for_status().json()
    assert len(record["deals"]) == 2 and record["tip"]
    for deal in record["deals"]:   # the client's creation gave its words, and the deals took them
        assert deal["fair"]["entropy"].get("S") == given[0] and len(given[0]) == 32, (deal["fair"], given)

    # The same page, served a record with one card moved: the table says so, loudly.
    bad = _tampered(record, "deck")

    async def serve_tampered(route):
        await route.fulfill(status=200, content_type="application/json", body=json.dumps(bad))

    await page.route(f"**/v1/matches/{match_id}/record", serve_tampered)
    await page.reload()
    await page.wait_for_selector("#fair[data-state=failed]", timeout=30_000)
    assert "FAILED" in await page.inner_text("#fair") and "deck" in await page.inner_text("#fair")
    failed = page.locator("#deal-history li[data-verified=false]")
    assert await failed.count() == 1 and await failed.get_attribute("data-deal") == "1"
    await shot(page, "41-fair-failed")
    await page.unroute(f"**/v1/matches/{match_id}/record")

    # The standalone page: the downloaded file, the record fetched with the token, tampered copies.
    verify = await new_page(browser, errors)
    await verify.goto(f"{base}/verify?match={match_id}")
    good = tmp_path / "record.json"
    good.write_text(json.dumps(record))
    await verify.set_input_files("#file", str(good))
    await verify.wait_for_selector("#verdict[data-ok=true]")
    assert (await verify.inner_text("#verdict")).startswith("✓ all 2 deals verified")
    # an altered entropy gives another deck; a context naming deal 2 twice breaks the order too
    for how, named in (("deck", "deck"), ("entropy", "deck"), ("context", "context"), ("tip", "tip")):
        path = tmp_path / f"tampered-{how}.json"
        path.write_text(json.dumps(_tampered(record, how)))
        await verify.set_input_files("#file", str(path))
        await verify.wait_for_selector("#verdict[data-ok=false]")
        text = await verify.inner_text("#verdict")
        assert "VERIFICATION FAILED" in text and named in text, (how, text)
        assert await verify.locator("tr[data-ok=false]").count() >= 1
        if how == "deck":
            await shot(verify, "42-verify-tampered")
        await verify.set_input_files("#file", str(good))
        await verify.wait_for_selector("#verdict[data-ok=true]")

    fetcher = await new_page(browser, errors)   # a fresh browser: the token is typed in
    await fetcher.goto(f"{base}/verify")
    await fetcher.fill("#match", match_id)
    await fetcher.fill("#token", session["token"])
    await fetcher.click("#fetch")
    await fetcher.wait_for_selector("#verdict[data-ok=true]")
    assert await fetcher.locator("tr[data-ok=true]").count() == 2
    await fetcher.fill("#token", "atk_not-a-token")
    await fetcher.click("#fetch")
    await fetcher.wait_for_selector("#verdict[data-ok=false]")
    assert "401" in await fetcher.inner_text("#verdict")
    assert not [e for e in errors if "401" not in e], errors


@pytest.mark.db
@pytest.mark.redis
@pytest.mark.slow
async def test_the_client_gives_fresh_entropy_when_the_chain_is_renewed(web_system, web_svc, browser):
    """A match whose first chain holds two deals and which plays three: the next chain is
    published with the first deal; the client answers `chain_renewed` with new words, which the
    third deal (the new chain's first) takes, and the browser verifies all three deals."""
    from services.matches.service import MatchService

    short = MatchService(web_svc.store, web_svc.vault, chain_length=2)
    created = await short.create_match("belote", {"variant": "classic", "deals": 3},
                                       {"N": "bot:basic", "E": "bot:basic", "S": "open", "W": "bot:basic"})
    match_id = created.match_id
    base = web_system.base
    errors: list[str] = []
    page = await new_page(browser, errors)
    await page.goto(f"{base}/#/match/{match_id}")
    await page.fill("#signin-name", "Renée")
    await page.click("#signin-go")
    await page.click(".open-seats button:has-text('sit S')")
    await page.wait_for_selector("body[data-seat=S]")
    await _play_to_the_end(page, 3)
    await page.wait_for_selector("#fair[data-state=verified][data-verified='3']", timeout=30_000)

    session = await page.evaluate("JSON.parse(localStorage.getItem('atout.session'))")
    given = await page.evaluate(f"JSON.parse(localStorage.getItem('atout.entropy'))[{json.dumps(match_id)}]")
    record = httpx.get(f"{base}/v1/matches/{match_id}/record",
                       headers={"Authorization": f"Bearer {session['token']}"}).raise_for_status().json()
    assert record["chain_length"] == 2 and [r["first_deal"] for r in record["renewals"]] == [2], record["renewals"]
    assert len(given) == 2 and given[0] != given[1], given        # the seat's words, then fresh ones
    used = [d["fair"]["entropy"].get("S") for d in record["deals"]]
    # deal 2 is the old chain's: it takes the fresh words too if they came before it was dealt
    assert used[0] == given[0] and used[1] in given and used[2] == given[1], (used, given)
    assert not errors, errors
