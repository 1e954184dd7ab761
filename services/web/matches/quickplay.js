// @ts-check
// Quick play on the lobby (docs/quickplay.md): a "play now" button per way of playing, rated
// or casual, bots after a while on consent (casual only); then a waiting panel with the time
// waited, the rating band as it widens, and cancel. The entry is read again every second
// (GET /v1/quickplay): once seated, the table opens; the account stream says it too.

import { uuid } from "../shared/api.js";
import { num, onLocale, t } from "../shared/i18n.js";
import { $, call, errorText } from "../shared/session.js";
import { h } from "../shared/table.js";

/** @import { components } from "../shared/api-types" */
/** @typedef {components["schemas"]} S */
/** @typedef {S["QuickplayEntryOut"]} Entry */
/** @typedef {S["JoinIn"]} Join */
/** @typedef {{game: Join["game"], options: {[option: string]: string}, pool: string}} Way */

/** @type {Way[]} the six ways of playing (docs/ratings.md, "Pools"), each with its defaults */
const WAYS = [
  { game: "belote", options: {}, pool: "belote_classic" },
  { game: "belote", options: { variant: "sans_atout" }, pool: "belote_sans_atout" },
  { game: "belote", options: { variant: "coinche" }, pool: "belote_coinche" },
  { game: "cinch", options: {}, pool: "cinch_partnership" },
  { game: "cinch", options: { mode: "individual" }, pool: "cinch_individual" },
  { game: "five_hundred", options: {}, pool: "five_hundred" },
];
const BOTS_AFTER = 30;               // seconds, when the player ticks "bots if nobody comes"
const POLL_MS = 1000;

/** @type {{entry: Entry | null, timer: number | undefined, error: string}} */
const quick = { entry: null, timer: undefined, error: "" };

/** @returns {HTMLElement | null} */
const box = () => $("quickplay");

/** @param {number} seconds */
function clock(seconds) {
  const s = Math.floor(seconds);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/** @param {string} id @returns {boolean} */
const ticked = (id) => { const el = /** @type {HTMLInputElement | null} */ ($(id)); return !!el && el.checked; };

/** @param {Way} way */
async function playNow(way) {
  const rated = ticked("quickplay-rated");
  /** @type {Join} */
  const body = { game: way.game, options: way.options, rated, command_id: uuid() };
  if (!rated && ticked("quickplay-bots")) { body.bots_after = BOTS_AFTER; body.bot_level = "basic"; }
  try {
    quick.entry = /** @type {Entry} */ (await call("POST", "/v1/quickplay", body));
    quick.error = "";
  } catch (err) { quick.error = errorText(err); }
  draw();
  poll();
}

async function cancel() {
  try { quick.entry = /** @type {Entry} */ (await call("DELETE", "/v1/quickplay")); quick.error = ""; } catch (err) { quick.error = errorText(err); }
  draw();
}

function choices() {
  const rated = h("input", { type: "checkbox", id: "quickplay-rated" });
  const bots = h("input", { type: "checkbox", id: "quickplay-bots", checked: true });
  rated.addEventListener("change", () => { /** @type {HTMLInputElement} */ (bots).disabled = /** @type {HTMLInputElement} */ (rated).checked; });
  return [
    h("div", { class: "quickplay-ways" }, ...WAYS.map((way) =>
      h("button", { type: "button", dataset: { pool: way.pool }, onclick: () => playNow(way) },
        t("quickplay.play", { way: t(`pool.${way.pool}`) })))),
    h("label", {}, rated, " ", t("quickplay.rated")),
    h("label", {}, bots, " ", t("quickplay.bots", { seconds: num(BOTS_AFTER) })),
  ];
}

/** @param {Entry} e */
function waiting(e) {
  const band = e.band === null ? t("quickplay.band_open") : t("quickplay.band", { band: num(Math.round(e.band * 10) / 10) });
  const late = Date.parse(e.ready_at) > Date.now() ? h("p", {}, t("quickplay.penalty", { at: new Date(e.ready_at).toLocaleTimeString() })) : null;
  return [
    h("p", { role: "status", dataset: { status: e.status } },
      t(e.status === "partner" ? "quickplay.waiting_partner" : "quickplay.waiting", { way: t(`pool.${e.pool}`) })),
    h("p", { class: "quickplay-time" }, t("quickplay.waited", { time: clock(e.waited) })),
    h("p", { class: "quickplay-band" }, band, " ", t("quickplay.band_rule")),
    e.casual_with_bots ? h("p", {}, t("quickplay.casual_with_bots", { seconds: num(e.bots_after ?? 0) })) : null,
    e.rated ? h("p", {}, t("quickplay.rated_people")) : null,
    late,
    h("button", { type: "button", id: "quickplay-cancel", onclick: cancel }, t("quickplay.cancel")),
  ];
}

function draw() {
  const el = box();
  if (!el) return;
  const e = quick.entry;
  const live = e && ["partner", "waiting", "seating"].includes(e.status);
  const note = e && e.status === "expired" ? t("quickplay.expired") : "";
  const said = quick.error || note ? h("p", { class: "message", role: "alert", dataset: { kind: "error" } }, quick.error || note) : null;
  // replaceChildren writes a null as the text "null": only elements go in
  el.replaceChildren(...[h("h2", {}, t("quickplay.title")), ...(live && e ? waiting(e) : choices()), said]
    .filter((child) => child !== null));
}

async function poll() {
  window.clearTimeout(quick.timer);
  if (!box() || document.body.dataset.screen !== "lobby") { quick.timer = window.setTimeout(poll, POLL_MS * 5); return; }
  try {
    const e = /** @type {Entry} */ (await call("GET", "/v1/quickplay"));
    const was = quick.entry;
    quick.entry = e;
    if (e.status === "seated" && e.match_id && was && was.status !== "seated" && was.entry_id === e.entry_id) {
      location.hash = `#/match/${e.match_id}`;
      return;
    }
  } catch { quick.entry = null; }
  draw();
  if (quick.entry && ["partner", "waiting", "seating"].includes(quick.entry.status)) quick.timer = window.setTimeout(poll, POLL_MS);
}

// Called once by the page: draws the buttons, and the waiting panel again after a reload.
export function setupQuickplay() {
  onLocale(draw);
  draw();
  poll();
}

// The lobby is shown again: read my entry (a wait goes on across screens).
export const showQuickplay = () => { draw(); poll(); };
