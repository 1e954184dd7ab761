"""Reports, blocks, moderation and challenges in the web client, and the admin's and /verify's
pages in French (headless Chromium, Playwright).

A guest on a phone reads a rude message in her table's waiting-room chat and reports it from
the button beside it; she reports its author from his profile too, blocks him there, and
undoes the block from her own profile's list. An admin whose browser speaks French opens
/admin: the page is in French (no English word of its catalogs left), the reports queue lists
both reports with the message they copy; he mutes the author for the message (the author's
next message is refused `chat_muted`) and dismisses the other report. From the muted report he
opens the author's sanctions (the mute, its end and reason) and lifts the mute with a reason: the
author writes again. He bans him from a new report (closed as `banned`), looks him up by id and
lifts the ban: the author writes again, and the audit has both reasons. /verify speaks French too,
from the same catalogs, and saved to disk still works, in English. From a player's profile a
guest challenges him to a private table of Coinche; he accepts in his own browser and the match starts. axe-core finds no serious or critical violation on these screens.

Screenshots at phone size: test-artifacts/web-social/.
"""

from __future__ import annotations

import asyncio
import json
import re
import uuid

import httpx
import pytest
from test_web_phone import PHONE, axe_check, context_page, sign_in, snap
from web_support import browser, fresh_artifacts, ROOT  # noqa: F401

pytestmark = [pytest.mark.db, pytest.mark.redis, pytest.mark.slow]

LOCALES = ROOT / "services" / "web" / "locales"
RUDE = "you all play like bots"


@pytest.fixture(scope="module")
def shots():
    return fresh_artifacts("web-social")


async def until(check, what: str, seconds: float = 15):
    """The read models follow their events within moments: ask again until `check` holds."""
    for _ in range(int(seconds * 5)):
        got = await check()
        if got:
            return got
        await asyncio.sleep(0.2)
    raise AssertionError(f"never: {what}")


def english_left(text: str, english: dict, french: dict, sections: tuple[str, ...]) -> list[str]:
    """The English words of these catalog sections found in a French page's text (words the two
    languages share aside)."""
    return [v for section in sections for k, v in english[section].items()
            if isinstance(v, str) and "{{" not in v and v != french[section][k] and re.search(rf"\b{re.escape(v)}\b", text)]


async def test_a_guest_reports_a_message_and_a_player_and_undoes_a_block(web_system, browser, shots):
    errors: list[str] = []
    page = await context_page(browser, errors, "en-GB", PHONE)
    rita = await sign_in(page, web_system.base, "Rita")
    async with httpx.AsyncClient(base_url=web_system.base) as http:
        troll = (await http.post("/v1/players", json={"name": "Troll"})).json()
        as_troll = {"Authorization": f"Bearer {troll['token']}"}
        table = (await http.post("/v1/matches", headers={"Authorization": f"Bearer {rita['token']}"},
                                 json={"game": "belote", "seats": {"N": "open", "E": "open", "S": "me", "W": "open"}})).json()
        match_id = table["match_id"]
        assert (await http.post(f"/v1/matches/{match_id}/seats/N", headers=as_troll, json={})).status_code == 200
        said = await http.post(f"/v1/matches/{match_id}/chat", headers=as_troll, json={"text": RUDE, "command_id": str(uuid.uuid4())})
        assert said.status_code in (200, 201), said.text

    # the message, with its report button (none beside her own)
    await page.evaluate(f"location.hash = '#/match/{match_id}'")
    await page.wait_for_selector("body[data-seat=S]")
    await page.click("#chat-presets button[data-preset]")
    message = page.locator(f"#chat-log li:has-text('{RUDE}')")
    await message.locator("button.report").click()
    await page.wait_for_selector("#report-dialog[open]")
    assert RUDE in await page.inner_text("#report-title")
    await page.wait_for_selector("#chat-log li:not([data-preset=''])")
    assert await page.locator("#chat-log li:not([data-preset='']) button.report").count() == 0   # her own preset
    await page.fill("#report-reason", "insults the table")
    await axe_check(page, "the report form")
    await snap(page, shots, "01-report-message")
    await page.click("#report-go")
    await page.wait_for_selector("body[data-reported]")
    assert await page.locator("#report-dialog[open]").count() == 0
    message_report = await page.get_attribute("body", "data-reported")

    # his profile: report him, block him
    await page.evaluate(f"location.hash = '#/player/{troll['player_id']}'")
    await page.wait_for_selector("#player-name:has-text('Troll')")
    await page.click("#report-player")
    await page.wait_for_selector("#report-dialog[open]")
    assert "Troll" in await page.inner_text("#report-title")
    await page.fill("#report-reason", "spams every table")
    await page.click("#report-go")
    await page.wait_for_function(f"document.body.dataset.reported && document.body.dataset.reported !== '{message_report}'")
    await page.click("#block")
    await page.wait_for_selector("#block[data-on=true]")

    # her own profile lists him; one click undoes the block, and the server agrees
    await page.evaluate(f"location.hash = '#/player/{rita['player_id']}'")
    await page.wait_for_selector("#blocks-panel:not([hidden])")

    async def listed():
        await page.evaluate(f"location.hash = '#/player/{rita['player_id']}?' + Date.now()")
        return await page.locator(f"#blocks-list li[data-blocked='{troll['player_id']}']").count()
    await until(listed, "the block listed")
    await axe_check(page, "the block list")
    await snap(page, shots, "02-block-list")
    await page.click(f"#blocks-list li[data-blocked='{troll['player_id']}'] button.unblock")
    await page.wait_for_selector("#blocks-said:has-text('Troll')")
    async with httpx.AsyncClient(base_url=web_system.base, headers={"Authorization": f"Bearer {rita['token']}"}) as http:
        async def unblocked():
            return (await http.get("/v1/players/me/blocks")).json() == []
        await until(unblocked, "the block undone")
    await page.wait_for_selector(f"#blocks-list li[data-blocked='{troll['player_id']}']", state="detached")
    assert not [e for e in errors if not e.startswith("404")], errors


async def reported_table(base: str) -> dict[str, str]:
    """Rita's table where Troll wrote RUDE, and her reports of that message and of him: what
    the admins' queue reviews. Each admin test makes its own (over HTTP), so each runs alone."""
    async with httpx.AsyncClient(base_url=base) as http:
        rita, troll = [(await http.post("/v1/players", json={"name": n})).json() for n in ("Rita", "Troll")]
        as_rita, as_troll = ({"Authorization": f"Bearer {p['token']}"} for p in (rita, troll))
        table = (await http.post("/v1/matches", headers=as_rita, json={
            "game": "belote", "seats": {"N": "open", "E": "open", "S": "me", "W": "open"}})).json()
        assert (await http.post(f"/v1/matches/{table['match_id']}/seats/N", headers=as_troll, json={})).status_code == 200
        said = await http.post(f"/v1/matches/{table['match_id']}/chat", headers=as_troll,
                               json={"text": RUDE, "command_id": str(uuid.uuid4())})
        assert said.status_code == 201, said.text
        reports = [await http.post("/v1/reports", headers=as_rita, json=body) for body in (
            {"match_id": table["match_id"], "message_id": said.json()["message"]["message_id"],
             "reason": "insults the table"},
            {"player_id": troll["player_id"], "reason": "spams every table"})]
        assert all(r.status_code == 201 for r in reports), [r.text for r in reports]
    return {"troll": troll["player_id"], "troll_token": troll["token"], "match": table["match_id"],
            "rita": rita["player_id"], "rita_token": rita["token"], "message_report": reports[0].json()["report_id"],
            "player_report": reports[1].json()["report_id"]}


async def test_the_admin_in_french_mutes_for_one_report_and_dismisses_the_other(web_system, browser, shots):
    reported = await reported_table(web_system.base)
    token = web_system.admin_token("moderator")
    errors: list[str] = []
    page = await context_page(browser, errors, "fr-FR", PHONE)
    await page.goto(f"{web_system.base}/admin")
    await page.fill("#admin-token", token)
    await page.click("#admin-token-form button")
    await page.wait_for_selector("#admin-main:not([hidden])")
    assert await page.get_attribute("html", "lang") == "fr"
    assert await page.inner_text("#reports-panel h2") == "Signalements"
    assert await page.inner_text("#admin-main .panel h2 >> nth=0") == "Contestations"

    row = page.locator(f"#reports li[data-report='{reported['message_report']}']")

    async def queued():
        await page.click("#reports-refresh")
        await page.wait_for_timeout(300)
        return await row.count() and await page.locator(f"#reports li[data-report='{reported['player_report']}']").count()
    await until(queued, "both reports in the queue")
    assert RUDE in await row.inner_text() and "signale un message de Troll" in await row.inner_text()
    # no English of the admin's catalogs is left on the page (words the two languages share aside)
    english, french = (json.loads((LOCALES / f"{lng}.json").read_text(encoding="utf-8")) for lng in ("en", "fr"))
    text = (await page.inner_text("body")).replace(RUDE, "")         # his words are his
    leftovers = english_left(text, english, french, ("admin", "reports", "dstatus", "rstatus", "sanctions"))
    assert not leftovers, leftovers
    await axe_check(page, "the admin's reports queue")
    await snap(page, shots, "03-admin-reports-fr")

    # mute for the message: the report is closed as muted, and his next message is refused
    await row.locator("input.report-reason").fill("insultes")
    await row.locator("input.report-minutes").fill("30")
    await row.locator("button.mute").click()
    await page.wait_for_selector(f"body[data-moderated='{reported['message_report']}:mute']")
    assert "Troll ne peut plus écrire jusqu" in await page.inner_text("#reports-said")
    async with httpx.AsyncClient(base_url=web_system.base) as http:
        refused = await http.post(f"/v1/matches/{reported['match']}/chat", headers={"Authorization": f"Bearer {reported['troll_token']}"},
                                  json={"text": "again", "command_id": str(uuid.uuid4())})
        assert refused.status_code == 403 and refused.json()["code"] == "chat_muted", refused.text
        admin = {"Authorization": f"Bearer {token}"}

        async def muted():
            return any(r["report_id"] == reported["message_report"] for r in (await http.get("/v1/admin/reports?status=muted",
                                                                                            headers=admin)).json())
        await until(muted, "the report closed as muted")

    # dismiss the other: it leaves the open queue
    other = page.locator(f"#reports li[data-report='{reported['player_report']}']")
    await other.locator("button.dismiss").click()
    assert await page.inner_text("#reports-said") == "donnez d'abord votre motif"     # a reason first
    await other.locator("input.report-reason").fill("rien de grave")
    await other.locator("button.dismiss").click()
    await page.wait_for_selector(f"body[data-moderated='{reported['player_report']}:dismiss']")
    await page.wait_for_selector(f"#reports li[data-report='{reported['player_report']}']", state="detached")
    await snap(page, shots, "04-admin-dismissed-fr")
    assert not errors, errors


async def test_the_admin_lifts_the_mute_from_the_report_and_a_ban_looked_up_by_id(web_system, browser, shots):
    reported = await reported_table(web_system.base)
    troll, token, errors = reported["troll"], web_system.admin_token("warden"), []
    admin, as_troll = {"Authorization": f"Bearer {token}"}, {"Authorization": f"Bearer {reported['troll_token']}"}
    async with httpx.AsyncClient(base_url=web_system.base) as http:
        muted = await http.post(f"/v1/admin/players/{troll}/mute", headers=admin,
                                json={"minutes": 30, "reason": "insultes", "report_id": reported["message_report"]})
        assert muted.status_code == 200, muted.text

        async def chat(text: str) -> httpx.Response:
            return await http.post(f"/v1/matches/{reported['match']}/chat", headers=as_troll,
                                   json={"text": text, "command_id": str(uuid.uuid4())})

        page = await context_page(browser, errors, "fr-FR", PHONE)
        await page.goto(f"{web_system.base}/admin")
        await page.fill("#admin-token", token)
        await page.click("#admin-token-form button")
        await page.wait_for_selector("#admin-main:not([hidden])")

        async def listed(status: str, report_id: str):
            row = page.locator(f"#reports li[data-report='{report_id}']")

            async def there():
                await page.select_option("#reports-status", status)
                await page.click("#reports-refresh")
                await page.wait_for_timeout(300)
                return await row.count()
            await until(there, f"report {report_id} listed as {status}")
            return row

        # from the muted report: his mute, its end and reason; lifted with a reason, he writes again
        row = await listed("muted", reported["message_report"])
        await row.locator("button.sanctions").click()
        await page.wait_for_selector(f"#sanctions[data-player='{troll}'][data-muted=true][data-banned=false]")
        assert await page.text_content("#sanctions h3") == "sanctions de Troll"     # drawn in capitals
        assert await page.inner_text("#sanctions-id") == troll                        # an id as it is written
        mute = await page.inner_text("#sanction-mute")
        assert "ne peut plus écrire jusqu" in mute and "insultes" in mute, mute
        assert await page.inner_text("#sanction-ban") == "non banni" and await page.locator("#unban").count() == 0
        english, french = (json.loads((LOCALES / f"{lng}.json").read_text(encoding="utf-8")) for lng in ("en", "fr"))
        assert not english_left(await page.inner_text("#sanctions-panel"), english, french, ("sanctions", "reports"))
        await axe_check(page, "a player's sanctions")
        await snap(page, shots, "05-admin-sanctions-fr")
        await page.click("#unmute")
        assert await page.inner_text("#sanctions-said") == "donnez d'abord votre motif"     # a reason first
        await page.fill("#sanctions-reason", "excuses présentées")
        await page.click("#unmute")
        await page.wait_for_selector(f"body[data-sanctioned='{troll}:unmute']")
        await page.wait_for_selector("#sanctions[data-muted=false]")
        assert await page.inner_text("#sanction-mute") == "peut écrire" and await page.locator("#sanctions-lift").count() == 0
        assert "null" not in await page.inner_text("#sanctions")
        assert await page.inner_text("#sanctions-said") == "Troll peut de nouveau écrire"
        assert (said := await chat("sorry all")).status_code == 201, said.text

        # banned from a new report: closed as banned, the view shown follows, and he may not write
        filed = await http.post("/v1/reports", headers={"Authorization": f"Bearer {reported['rita_token']}"},
                                json={"player_id": troll, "reason": "insults again"})
        assert filed.status_code == 201, filed.text
        third = filed.json()["report_id"]
        row = await listed("open", third)
        await row.locator("input.report-reason").fill("récidive")
        await row.locator("button.ban").click()
        await page.wait_for_selector(f"body[data-moderated='{third}:ban']")
        await page.wait_for_selector(f"#sanctions[data-player='{troll}'][data-banned=true]")

        async def closed_as_banned():
            return any(r["report_id"] == third for r in (await http.get("/v1/admin/reports?status=banned", headers=admin)).json())
        await until(closed_as_banned, "the report closed as banned")
        assert (refused := await chat("again")).status_code == 403 and refused.json()["code"] == "player_banned", refused.text

        # looked up by id (an unknown one first): the ban and its reason; lifted, he writes again
        await page.fill("#sanctions-player", "nobody-at-all")
        await page.click("#sanctions-form button")
        await page.wait_for_selector("#sanctions-said:has-text('aucun joueur nobody-at-all')")
        assert await page.locator("#sanctions[data-player]").count() == 0
        await page.fill("#sanctions-player", troll)
        await page.click("#sanctions-form button")
        await page.wait_for_selector(f"#sanctions[data-player='{troll}'][data-banned=true][data-muted=false]")
        assert await page.inner_text("#sanction-ban") == "banni — motif : récidive" and await page.locator("#unmute").count() == 0
        assert await page.text_content("#sanctions h3") == "sanctions de Troll"
        await page.fill("#sanctions-reason", "appel accepté")
        await page.click("#unban")
        await page.wait_for_selector(f"body[data-sanctioned='{troll}:unban']")
        await page.wait_for_selector("#sanctions[data-banned=false]")
        assert await page.inner_text("#sanction-ban") == "non banni" and await page.inner_text("#sanctions-said") == "Troll n'est plus banni"
        await snap(page, shots, "06-admin-unbanned-fr")
        assert (said := await chat("sorry again")).status_code == 201, said.text
        audit = (await http.get("/v1/admin/audit", headers=admin)).json()
        lifted = {(a["action"], (a.get("detail") or {}).get("reason")) for a in audit if a["action"] in ("unmute", "unban")}
        assert {("unmute", "excuses présentées"), ("unban", "appel accepté")} <= lifted, audit
        # the one refusal the page met is the unknown player's (the browser logs each 404 it is answered)
        unknown = [e for e in errors if e.startswith("404 ")]
        assert len(unknown) == 1 and unknown[0].startswith("404 GET") and "/players/nobody-at-all/sanctions" in unknown[0], errors
        assert not [e for e in errors if e not in unknown and not e.startswith("console: Failed to load resource: the server "
                                                                                  "responded with a status of 404")], errors


async def test_the_verify_page_speaks_french(web_system, browser, shots, tmp_path):
    errors: list[str] = []
    page = await context_page(browser, errors, "fr-FR", PHONE)
    await page.goto(f"{web_system.base}/verify")
    await page.wait_for_function("document.documentElement.lang === 'fr'")
    assert await page.inner_text("h1") == "Vérifier les donnes d'une partie"
    assert await page.inner_text("#fetch") == "Télécharger et vérifier"
    bad = tmp_path / "not-json.json"
    bad.write_text("{not json")
    await page.set_input_files("#file", str(bad))
    await page.wait_for_selector("#verdict[data-ok=false]")
    assert await page.inner_text("#verdict") == "✗ le fichier n'est pas du JSON"
    await axe_check(page, "/verify in French")
    await snap(page, shots, "07-verify-fr")
    # saved to disk, the same file still works, in its English copy of the catalog
    saved = tmp_path / "verify.html"
    saved.write_text((ROOT / "services" / "web" / "verify.html").read_text(encoding="utf-8"), encoding="utf-8")
    await page.goto(saved.as_uri())
    await page.set_input_files("#file", str(bad))
    await page.wait_for_selector("#verdict[data-ok=false]")
    assert await page.inner_text("#verdict") == "✗ the file is not JSON"
    assert await page.inner_text("h1") == "Verify a match's deals"
    assert not errors, errors


async def test_a_challenge_from_a_profile_accepted_in_a_second_browser(web_system, browser, shots):
    """From a player's profile, a guest challenges him to Coinche: a private table, she at S, he
    invited to W, the bots their partners. In his own browser he accepts from his invitations
    and sits at W: the match starts."""
    errors: list[str] = []
    dan = await context_page(browser, errors, "pl-PL", PHONE)
    dans = await sign_in(dan, web_system.base, "Dan")

    carla = await context_page(browser, errors, "en-GB", PHONE)
    await sign_in(carla, web_system.base, "Carla")
    await carla.evaluate(f"location.hash = '#/player/{dans['player_id']}'")
    await carla.wait_for_selector("#player-name:has-text('Dan')")
    await carla.select_option("#challenge-game", "belote_coinche")
    await axe_check(carla, "a profile with its challenge")
    await snap(carla, shots, "08-profile-challenge")
    await carla.click("#challenge")
    await carla.wait_for_selector("#profile-social-said:has-text('Dan is challenged') a#challenge-table")
    await carla.click("#challenge-table")
    await carla.wait_for_url("**/#/match/*")
    match_id = carla.url.rsplit("/match/", 1)[1]
    await carla.wait_for_selector("body[data-seat=S]")

    await dan.evaluate("location.hash = '#/invitations'")
    accept = dan.locator("#invitations-received li[data-status=pending] button.accept")
    await accept.wait_for()
    assert "Carla" in await dan.inner_text("#invitations-received li[data-status=pending]")
    await snap(dan, shots, "09-challenged-pl")
    await accept.click()
    await dan.wait_for_url(f"**/#/match/{match_id}")
    await dan.wait_for_selector("body[data-seat=W]")
    async with httpx.AsyncClient(base_url=web_system.base, headers={"Authorization": f"Bearer {dans['token']}"}) as http:
        view = (await http.get(f"/v1/matches/{match_id}")).json()
    assert view["visibility"] == "private" and view["status"] == "playing", view
    assert view["game"] == "belote" and view["options"]["variant"] == "coinche", view
    assert view["seats"]["W"]["player_id"] == dans["player_id"], view["seats"]
    await carla.wait_for_selector("body[data-status=playing]")
    assert not errors, errors
