// @ts-check
// Reports and my block list (docs/chat.md, "Moderation"; docs/social.md): a chat message or a
// player reported to the admins with a reason (POST /v1/reports, from a button beside the
// message or on the profile), and on my own profile the players I block, each unblocked with
// one click (GET /v1/players/me/blocks, DELETE …/blocks/{id}).

import { uuid } from "../shared/api.js";
import { t, when } from "../shared/i18n.js";
import { $, call, errorText, say } from "../shared/session.js";
import { h } from "../shared/table.js";

/** @import { components } from "../shared/api-types" */
/** @typedef {components["schemas"]} S */
/**
 * What a report names: a player, or a message of a match's chat. The generated `ReportIn` reads
 * as `unknown` (its schema's `anyOf` of required fields), so the body is typed here, as
 * docs/chat.md gives it.
 * @typedef {{ player_id: string } | { match_id: string, message_id: string }} Target
 */

/** @type {Target | null} */
let target = null;

// The report form, for a player (`{player_id}`) or a message (`{match_id, message_id}`).
/**
 * @param {Target} what
 * @param {string} title
 */
export function openReport(what, title) {
  target = what;
  $("report-title").textContent = title;
  $("report-reason").value = "";
  $("report-said").textContent = "";
  $("report-dialog").showModal();
  $("report-reason").focus();
}

/** @param {SubmitEvent} ev */
async function send(ev) {
  ev.preventDefault();
  const reason = $("report-reason").value.trim();
  if (!target || !reason) return;
  try {
    const out = /** @type {S["ReportOut"]} */ (await call("POST", "/v1/reports",
      /** @satisfies {Target & { reason: string, command_id: string }} */ ({ ...target, reason, command_id: uuid() })));
    document.body.dataset.reported = out.report_id;
    $("report-dialog").close();
    say(t("report.sent"));
  } catch (err) { $("report-said").textContent = errorText(err); }
}

export function reportControls() {
  $("report-form").addEventListener("submit", send);
  $("report-cancel").addEventListener("click", () => $("report-dialog").close());
}

// My own profile: the players I block, newest first.
export async function showBlocks() {
  try {
    const rows = /** @type {S["TiedPlayerOut"][]} */ (await call("GET", "/v1/players/me/blocks?limit=100"));
    $("blocks-list").replaceChildren(...(rows.length ? rows.map((b) => h("li", { dataset: { blocked: b.player_id } },
      h("a", { href: `#/player/${b.player_id}` }, b.name || t("seat_holder.player")), " ",
      h("span", { class: "empty" }, t("blocks.since", { at: when(b.since) })), " ",
      h("button", { type: "button", class: "small unblock", onclick: () => unblock(b) }, t("social.unblock"))))
      : [h("li", { class: "empty" }, t("blocks.none"))]));
  } catch (err) { $("blocks-list").replaceChildren(h("li", { class: "empty" }, errorText(err))); }
}

/** @param {S["TiedPlayerOut"]} b */
async function unblock(b) {
  try {
    await call("DELETE", `/v1/players/me/blocks/${b.player_id}`);
    $("blocks-said").textContent = t("blocks.undone", { name: b.name || t("seat_holder.player") });
    $("blocks-list").querySelector(`[data-blocked="${b.player_id}"]`)?.remove();
    setTimeout(showBlocks, 1000);           // the list is a read model: it follows within moments
  } catch (err) { $("blocks-said").textContent = errorText(err); }
}
