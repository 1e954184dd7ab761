// @ts-check
// The admin's reports queue (docs/chat.md, "Moderation"): GET /v1/admin/reports?status=…, each
// report with who filed it, whom it names, the message it copies (a preset in the admin's
// language) and why; an open one is dismissed (POST …/reports/{id}/dismiss) or closed by a
// sanction of the reported player naming it (POST /v1/admin/players/{id}/mute | ban with
// `report_id`). The admin's own reason goes with each action, as the server asks. Any report
// opens the reported player's sanctions (admin_sanctions.js), where a mute or a ban is lifted.

import { sanctioned, showSanctions } from "./admin_sanctions.js";
import { uuid } from "../shared/api.js";
import { num, t, when } from "../shared/i18n.js";
import { h } from "../shared/table.js";
import { seatText } from "../shared/words.js";

/** @import { components } from "../shared/api-types" */
/** @import { Failure } from "../shared/api.js" */
/** @import { AdminPage, ById } from "../shared/pages" */
/** @typedef {components["schemas"]} S */
/** @typedef {(path: string, method?: string, body?: unknown) => Promise<unknown>} Call */

/** @type {ById<AdminPage>} */
const $ = (id) => /** @type {any} */ (document.getElementById(id));
/** @type {{ token: () => string | null, call: Call }} */
const ctx = { token: () => null, call: /** @type {any} */ (null) };        // both set by reportsControls

/**
 * @param {() => string | null} token
 * @param {Call} call
 */
export function reportsControls(token, call) {
  Object.assign(ctx, { token, call });
  $("reports-status").addEventListener("change", loadReports);
  $("reports-refresh").addEventListener("click", loadReports);
}

/** @type {(m: S["ReportedMessageOut"]) => string} */
const said = (m) => (m.preset ? t(`chat_preset.${m.preset}`, { defaultValue: m.preset }) : m.text || "");
/** @type {(name: string | null) => string} */
const named = (name) => name || t("reports.erased");

export async function loadReports() {
  if (!ctx.token()) return;
  try {
    const rows = /** @type {S["QueuedReportOut"][]} */ (await ctx.call(`/v1/admin/reports?status=${$("reports-status").value}`));
    $("reports").replaceChildren(...(rows.length ? rows.map(line) : [h("li", { class: "empty" }, t("admin.nothing"))]));
  } catch (thrown) { const err = /** @type {Failure} */ (thrown); $("reports-said").textContent = `${err.code || "error"}: ${err.message}`; }
}

/** @param {S["QueuedReportOut"]} r */
function line(r) {
  const m = r.message;
  const quote = m ? h("blockquote", { class: "quote" }, m.seat ? `${seatText(m.seat)}: ` : "", said(m)) : null;
  const head = h("div", {}, t(m ? "reports.of_message" : "reports.of_player",
    { reporter: named(r.reporter_name), player: named(r.player_name) }), " · ",
  h("span", { class: "status" }, t(`rstatus.${r.status}`, { defaultValue: r.status })), " · ", when(r.created_at));
  const why = h("div", {}, t("reports.reason", { reason: r.reason }), " ",
    h("button", { type: "button", class: "small sanctions", onclick: () => showSanctions(r.player_id, r.player_name) }, t("reports.sanctions")));
  const item = h("li", { dataset: { report: r.report_id, status: r.status, player: r.player_id } }, head, quote, why);
  if (r.status !== "open") return item;
  const reason = h("input", { class: "report-reason", maxlength: "500", placeholder: t("reports.your_reason"), "aria-label": t("reports.your_reason") });
  const minutes = h("input", { class: "report-minutes", type: "number", min: "1", max: "43200", value: "60", "aria-label": t("reports.minutes") });
  const act = (/** @type {"dismiss" | "mute" | "ban"} */ verb) => () => decide(r, verb, reason, Number(minutes.value || 60));
  item.append(h("div", { class: "inline" }, reason,
    h("button", { type: "button", class: "small dismiss", onclick: act("dismiss") }, t("reports.dismiss")),
    h("label", {}, t("reports.minutes"), " ", minutes),
    h("button", { type: "button", class: "small mute", onclick: act("mute") }, t("reports.mute")),
    h("button", { type: "button", class: "small ban", onclick: act("ban") }, t("reports.ban"))));
  return item;
}

/**
 * @param {S["QueuedReportOut"]} r
 * @param {"dismiss" | "mute" | "ban"} verb
 * @param {HTMLInputElement} input
 * @param {number} minutes
 */
async function decide(r, verb, input, minutes) {
  const reason = input.value.trim();
  if (!reason) { $("reports-said").textContent = t("reports.need_reason"); input.focus(); return; }
  try {
    if (verb === "dismiss") {
      await ctx.call(`/v1/admin/reports/${r.report_id}/dismiss`, "POST", /** @satisfies {S["Dismissal"]} */ ({ reason }));
      $("reports-said").textContent = t("reports.dismissed");
    } else {
      const body = /** @satisfies {S["Sanction"] | S["Mute"]} */ ({ reason, report_id: r.report_id, command_id: uuid(), ...(verb === "mute" ? { minutes } : {}) });
      const out = /** @type {S["SanctionsOut"]} */ (await ctx.call(`/v1/admin/players/${r.player_id}/${verb}`, "POST", body));
      sanctioned(out);
      $("reports-said").textContent = verb === "mute"
        ? t("reports.muted", { player: named(r.player_name), until: when(out.muted_until), minutes: num(minutes) })
        : t("reports.banned", { player: named(r.player_name) });
    }
    document.body.dataset.moderated = `${r.report_id}:${verb}`;
    loadReports();
    setTimeout(loadReports, 1000);          // the queue is a read model: it follows within moments
  } catch (thrown) { const err = /** @type {Failure} */ (thrown); $("reports-said").textContent = `${err.code || "error"}: ${err.message}`; }
}
