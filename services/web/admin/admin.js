// @ts-check
// Atout admin page: step through a disputed deal with the admin replay API
// (GET /v1/admin/matches/{id}/deals/{d}/replay[?seat=S][&dispute=ID], docs/disputes.md).
// The table view shows every seat's cards (`hands` of each step); "view as" a seat shows
// only what that seat saw. Every replay read is audited by the server. The reports queue is
// admin_reports.js, a player's sanctions admin_sanctions.js. Every word is in the catalogs
// (i18n.js), in the admin's language.

import { loadReports, reportsControls } from "./admin_reports.js";
import { redrawSanctions, sanctionsControls } from "./admin_sanctions.js";
import { api, uuid } from "../shared/api.js";
import { initI18n, languageMenu, locale, num, onLocale, setLocale, t, when } from "../shared/i18n.js";
import { auctionOf, contractText, h, renderTable, scoresOf } from "../shared/table.js";
import { gameText, resultText, scoreLine, seatText, sideText } from "../shared/words.js";

/** @import { components } from "../shared/api-types" */
/** @import { AnyOf, Failure } from "../shared/api.js" */
/** @import { AdminPage, ById } from "../shared/pages" */
/** @typedef {components["schemas"]} S */
/**
 * The deal open in the replay: its match and deal, and the dispute it is opened for (the queue's row, then the ruling's answer).
 * @typedef {{ match: string, deal: number, dispute?: string, info?: S["DisputeRow"] | S["DisputeOut"] }} Target
 */
/** @typedef {(path: string, method?: string, body?: unknown) => Promise<unknown>} Call */

const KEY = "atout.admin";
/** An element of the admin's page (admin.html) by id. @type {ById<AdminPage>} */
const $ = (id) => /** @type {any} */ (document.getElementById(id));
/** @type {{ token: string | null, replay: S["DealReplay"] | null, step: number, target: Target | null }} */
const state = { token: localStorage.getItem(KEY), replay: null, step: 0, target: null };

function signedIn() {
  $("admin-signin").hidden = !!state.token;
  $("admin-main").hidden = !state.token;
  $("admin-signout").hidden = !state.token;
  if (state.token) { loadQueue(); loadReports(); }
}

/** @type {Call} */
const call = (path, method = "GET", body = undefined) => api(method, path, body, state.token).catch((/** @type {Failure} */ err) => {
  if (err.status === 401 || err.status === 403) {
    $("replay-head").replaceChildren(h("p", { class: "flag" }, `${err.code}: ${err.message}`));
  }
  throw err;
});

async function loadQueue() {
  const status = $("queue-status").value;
  try {
    const items = /** @type {S["DisputeRow"][]} */ (await call(`/v1/admin/disputes?status=${status}`));
    $("queue").replaceChildren(...(items.length ? items.map((d) => h("li", { dataset: { dispute: d.dispute_id } },
      h("button", { class: "small", onclick: () => open({ match: d.match_id, deal: d.deal, dispute: d.dispute_id, info: d }) }, t("admin.open_replay")),
      " ", t("admin.queue_item", { status: t(`dstatus.${d.status}`, { defaultValue: d.status }), deal: num(d.deal + 1), reason: d.reason || "" }),
      h("div", { class: "empty" }, t("admin.queue_match", { id: d.match_id })))) : [h("li", { class: "empty" }, t("admin.nothing"))]));
  } catch { /* shown by call */ }
}

/** @param {Target} target */
async function open(target) {
  state.target = target;
  const seat = $("replay-seat").value;
  const q = new URLSearchParams();
  if (seat) q.set("seat", seat);
  if (target.dispute) q.set("dispute", target.dispute);
  try {
    const replay = /** @type {S["DealReplay"]} */ (await call(`/v1/admin/matches/${target.match}/deals/${target.deal}/replay?${q}`));
    const keep = state.replay && state.replay.match_id === replay.match_id && state.replay.deal === replay.deal;
    state.replay = replay;
    state.step = keep ? Math.min(state.step, replay.steps.length - 1) : 0;
    document.body.dataset.replay = `${replay.match_id}:${replay.deal}:${seat || "table"}`;
    head(replay);
    $("replay").hidden = false;
    $("step-range").max = String(Math.max(0, replay.steps.length - 1));
    show();
  } catch (thrown) {
    const err = /** @type {Failure} */ (thrown);
    $("replay-head").replaceChildren(h("p", { class: "flag" }, `${err.code || "error"}: ${err.message}`));
  }
}

/** @param {S["DealReplay"]} r */
function head(r) {
  /** @type {Partial<S["DealVerification"]>} */
  const v = r.verification || {};
  const rows = [["match", r.match_id], ["game", gameText(r.game)], ["deal", num(r.deal + 1)], ["dealer", r.dealer ? seatText(r.dealer) : "—"],
                ["finished", t(r.finished ? "admin.yes" : "admin.no")], ["verification", v.status ? t(`admin.vstatus.${v.status}`, { defaultValue: v.status }) : "—"],
                ["illegal", r.illegal ? num(r.illegal.length) : "—"],
                ["rulings", num(r.rulings ? r.rulings.length : 0)]].map(([k, val]) => [t(`admin.kv.${k}`), val]);
  $("replay-head").replaceChildren(h("h2", {}, t("admin.replay")),
    h("table", { class: "kv" }, ...rows.map(([k, val]) => h("tr", {}, h("td", {}, k), h("td", {}, String(val ?? ""))))),
    h("ul", { class: "list", id: "ruling-list" }, ...(r.rulings || []).map((x) => h("li", {}, rulingText(x)))),
    ...(state.target && state.target.dispute ? [rulingForm(r)] : []));
  /** @type {HTMLElement[]} */
  const sum = [];
  // a result in words: "made — score: NS 162 · EW 0 — points: NS 120 · EW 42"
  const brief = (/** @type {{ [key: string]: unknown }} */ res) => [
    typeof res.result === "string" ? resultText(res.result) : "",
    res.score && typeof res.score === "object" ? t("admin.score", { score: scoreLine(/** @type {{ [side: string]: number }} */ (res.score)) }) : "",
    res.points && typeof res.points === "object" ? t("admin.points", { points: scoreLine(/** @type {{ [side: string]: number }} */ (res.points)) }) : "",
  ].filter(Boolean).join(" — ");
  if (r.recorded_result) sum.push(h("div", { id: "recorded-result" }, t("admin.recorded"), " ", h("span", {}, brief(r.recorded_result))));
  if (r.rescored_result) sum.push(h("div", { class: "flag", id: "rescored-result" }, t("admin.rescored"), " ", h("span", {}, brief(r.rescored_result))));
  for (const i of r.illegal || []) sum.push(h("div", { class: "flag" }, JSON.stringify(i)));
  $("replay-summary").replaceChildren(...(sum.length ? sum : [h("span", { class: "empty" }, "—")]));
}

// --- rulings (POST /v1/admin/disputes/{id}/rulings, docs/disputes.md "Rulings") -------------

/** @param {AnyOf<S["ReplayRuling"] | S["QueuedRuling"] | S["DisputeRuling"]> | null | undefined} x */
function rulingText(x) {
  if (!x || typeof x !== "object") return String(x ?? "");
  const score = x.score ? ` ${Object.entries(x.score).map(([k, v]) => `${sideText(k)} ${v > 0 ? "+" : ""}${num(v)}`).join(" ")}` : "";
  return `${t(`rkind.${x.ruling}`, { defaultValue: x.ruling })}${score}${x.reason ? ` — ${x.reason}` : ""}${x.version ? ` (v${x.version})` : ""}`;
}

/** @param {S["DealReplay"]} r */
function rulingForm(r) {
  /** @type {Partial<NonNullable<Target["info"]>>} */
  const info = /** @type {Target} */ (state.target).info || {};
  if (info.status === "resolved" || info.status === "rejected") {
    return h("div", { class: "rulings", id: "ruling-done" }, t("admin.dispute_status", { status: t(`dstatus.${info.status}`) }),
             info.ruling ? `: ${rulingText(info.ruling)}` : "");
  }
  const last = r.steps.length ? r.steps[r.steps.length - 1].view : null;
  const sides = Object.keys(scoresOf(last)).length ? Object.keys(scoresOf(last)) : ["NS", "EW"];
  const kind = h("select", { id: "ruling-kind", "aria-label": t("admin.ruling") },
    ...["void", "adjust", "replay", "reject"].map((k) => h("option", { value: k }, t(`rkind.${k}`))));
  const scores = h("span", { class: "scores", id: "ruling-scores", hidden: true },
    ...sides.map((side) => h("label", {}, `${sideText(side)} `, h("input", { type: "number", value: "0", dataset: { side } }))));
  kind.addEventListener("change", () => { scores.hidden = kind.value !== "adjust"; });
  const reason = h("input", { id: "ruling-reason", placeholder: t("admin.reason"), "aria-label": t("admin.reason"), required: true, maxlength: "500" });
  const form = h("form", { class: "rulings inline", id: "ruling-form" }, h("h3", {}, t("admin.ruling")), kind, scores, reason,
                 h("button", { type: "submit", id: "ruling-go" }, t("admin.apply")), h("div", { id: "ruling-result" }));
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    rule(/** @type {S["RulingIn"]["ruling"]} */ (kind.value), reason.value.trim(), scores);      // one of the kinds offered
  });
  return form;
}

/**
 * @param {S["RulingIn"]["ruling"]} ruling
 * @param {string} reason
 * @param {HTMLElement} scores
 */
async function rule(ruling, reason, scores) {
  const target = /** @type {Target} */ (state.target);         // the form is drawn for a dispute
  /** @type {S["RulingIn"]} */
  const body = { ruling, reason, command_id: uuid() };
  if (ruling === "adjust") {
    body.score = Object.fromEntries([...scores.querySelectorAll("input")].map((i) => [i.dataset.side, Number(i.value || 0)]));
  }
  const out = $("ruling-result");
  try {
    const dispute = /** @type {S["DisputeOut"]} */ (await call(`/v1/admin/disputes/${target.dispute}/rulings`, "POST", body));
    target.info = dispute;
    let score = "";
    try {
      const match = /** @type {S["MatchViewOut"]} */ (await call(`/v1/matches/${target.match}`));
      score = scoreLine(scoresOf(match.table));
    } catch { /* the ruling stands; the score is a convenience */ }
    await open(target);
    document.body.dataset.ruled = dispute.status;
    if (score) $("replay-head").append(h("div", { class: "rulings", id: "ruling-outcome" }, t("admin.score_now"), " ", h("b", { id: "ruling-score" }, score)));
    loadQueue();
    setTimeout(loadQueue, 1000);              // the queue is a read model: it follows within moments
  } catch (thrown) {
    const err = /** @type {Failure} */ (thrown);
    (out || $("replay-head")).replaceChildren(h("p", { class: "flag" }, `${err.code || "error"}: ${err.message}`));
  }
}

function show() {
  const r = state.replay;
  if (!r || !r.steps.length) return;
  const step = r.steps[state.step];
  const seat = $("replay-seat").value || null;
  const table = step.view;
  const hands = seat ? (table && table.hand ? { [seat]: table.hand } : {}) : (step.hands || {});
  renderTable($("replay-table"), table, { bottom: seat || "S", hands, names: {} });
  $("step-range").value = String(state.step);
  $("step-counter").textContent = t("admin.step_counter", { n: num(state.step + 1), total: num(r.steps.length) });
  document.body.dataset.step = String(state.step);
  const ev = seat ? step.seen : step.event;
  $("step-info").replaceChildren(.../** @type {HTMLElement[]} */ ([
    h("div", {}, h("b", {}, step.type), " ", step.mark ? h("span", { class: "mark" }, step.mark) : null),
    h("div", { class: "empty" }, `v${step.version} · ${step.at ? when(step.at) : ""}`),
    step.flag ? h("div", { class: "flag" }, t("admin.flagged", { flag: step.flag.code || JSON.stringify(step.flag) })) : null,
    h("pre", { class: "json" }, ev === null || ev === undefined ? t("admin.hidden") : JSON.stringify(ev, null, 1)),
    h("div", {}, t("admin.score", { score: scoreLine(scoresOf(table)) }))].filter(Boolean)));
  $("replay-contract").textContent = table && table.contract ? contractText(table.contract) : "";
  $("replay-auction").replaceChildren(...auctionOf(table).map((c) => h("li", {}, h("b", {}, seatText(c.seat)), " ", c.text)));
}

/** @param {number} i */
function go(i) {
  if (!state.replay) return;
  state.step = Math.max(0, Math.min(state.replay.steps.length - 1, i));
  show();
}

$("admin-token-form").addEventListener("submit", (ev) => {
  ev.preventDefault();
  state.token = $("admin-token").value.trim();
  localStorage.setItem(KEY, state.token);
  signedIn();
});
$("admin-signout").addEventListener("click", () => { localStorage.removeItem(KEY); state.token = null; signedIn(); });
$("queue-status").addEventListener("change", loadQueue);
$("deal-form").addEventListener("submit", (ev) => {
  ev.preventDefault();
  open({ match: $("deal-match").value.trim(), deal: Number($("deal-number").value) - 1 });     // shown from 1, as players see deals
});
$("replay-seat").addEventListener("change", () => state.target && open(state.target));
$("step-first").addEventListener("click", () => go(0));
$("step-prev").addEventListener("click", () => go(state.step - 1));
$("step-next").addEventListener("click", () => go(state.step + 1));
$("step-last").addEventListener("click", () => go(Infinity));
$("step-range").addEventListener("input", (ev) => go(Number(/** @type {HTMLInputElement} */ (ev.target).value)));
document.addEventListener("keydown", (ev) => {
  const target = /** @type {HTMLInputElement} */ (ev.target);
  if (target.tagName === "INPUT" && target.type !== "range") return;
  const step = { ArrowRight: 1, ArrowLeft: -1 }[ev.key];
  if (step) go(state.step + step);
});
languageMenu($("lang"));
$("lang").addEventListener("change", () => setLocale($("lang").value));
reportsControls(() => state.token, call);
sanctionsControls(() => state.token, call);
onLocale(() => {
  $("lang").value = locale();
  if (!state.token) return;
  loadQueue(); loadReports(); redrawSanctions();
  if (state.replay) { head(state.replay); show(); }
});
await initI18n();
$("lang").value = locale();
signedIn();
