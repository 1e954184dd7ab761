// @ts-check
// The table read at a glance: the trump and the contract in large, whose turn it is and the
// time left on its clock, the score sheet (a row per finished deal), the event log in words.

import { num, t } from "../shared/i18n.js";
import { $, state } from "../shared/session.js";
import { h, scoresOf, trumpOf } from "../shared/table.js";
import { contractText, eventText, scoreLine, seatsList, sideText, suitName, suitText } from "../shared/words.js";

/** @import { components } from "../shared/api-types" */
/** @import { MatchEvent } from "../shared/words.js" */

// The line above the felt: trump, contract (or the auction's high bid), whose turn, the score.
/**
 * @param {components["schemas"]["MatchViewOut"]} view
 * @param {boolean} myTurn
 */
export function renderGlance(view, myTurn) {
  const table = view.table;
  const trump = trumpOf(table);
  const items = [];
  if (table && table.contract) {
    const red = trump === "H" || trump === "D";
    items.push(h("span", { class: `trump-big${red ? " red" : ""}`, "aria-label": t("glance.trump", { suit: suitName(trump || "NT") }),
                           title: t("glance.trump", { suit: suitName(trump || "NT") }) }, suitText(trump || "NT")));
    items.push(h("span", { class: "contract-big", id: "glance-contract" }, contractText(table.contract)));
  }
  // the seat in turn when the view names one (House Coinche's to_act also names the seats that
  // may coinche out of turn: they are not "to play")
  const who = table && table.turn ? [table.turn] : view.to_act || [];
  if (view.status === "playing") {
    items.push(h("span", { class: `turn${myTurn ? " mine" : ""}`, id: "glance-turn" },
      myTurn ? t("glance.your_turn") : who.length ? t("glance.to_play", { seats: seatsList(who), count: who.length }) : "…"));
  }
  items.push(h("span", { id: "glance-clock", class: "clock-small", hidden: true }));
  // the match score here too: on a narrow screen the side panel is far below the felt
  const score = scoresOf(table);
  if (Object.keys(score).length) items.push(h("span", { class: "glance-score", id: "glance-score" }, scoreLine(score)));
  $("glance").replaceChildren(...items);
}

// A stopwatch drawn inline (no font of the page has one, and not every system font does):
// decorative, the clock's label says the time left.
const SVG = "http://www.w3.org/2000/svg";
function stopwatch() {
  const svg = document.createElementNS(SVG, "svg");
  for (const [k, v] of Object.entries({ class: "stopwatch", viewBox: "0 0 16 16", width: "1em", height: "1em", "aria-hidden": "true",
                                         fill: "none", stroke: "currentColor", "stroke-width": "1.6", "stroke-linecap": "round" })) {
    svg.setAttribute(k, v);
  }
  for (const [tag, attrs] of /** @type {[string, { [k: string]: string }][]} */ ([
    ["circle", { cx: "8", cy: "9.5", r: "5.5" }], ["path", { d: "M8 9.5V6.5M6.5 1.5h3M8 1.5V4M12.5 4.5l1-1" }]])) {
    const part = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs)) part.setAttribute(k, v);
    svg.append(part);
  }
  return svg;
}

// The countdown to the deadline of the seat(s) to act, in the side panel and the glance line.
/** @param {string | number | null} deadline an ISO time (the view's), or seconds or milliseconds since 1970 */
export function renderClock(deadline) {
  clearInterval(state.clockTimer);
  const el = $("clock"), small = $("glance-clock");
  if (!deadline) { el.hidden = true; if (small) small.hidden = true; return; }
  const at = typeof deadline === "number" ? deadline * (deadline < 1e12 ? 1000 : 1) : Date.parse(deadline);
  const tick = () => {
    const left = Math.max(0, Math.round((at - Date.now()) / 1000));
    const text = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
    el.replaceChildren(stopwatch(), text);
    el.setAttribute("aria-label", t("glance.time_left", { count: left }));
    el.classList.toggle("urgent", left <= 10);
    const s = $("glance-clock");
    if (s) { s.hidden = false; s.replaceChildren(stopwatch(), text); s.classList.toggle("urgent", left <= 10); }
  };
  el.hidden = false; tick();
  state.clockTimer = setInterval(tick, 1000);
}

// The log: the newest first, each event in words (the seat's own hidden decisions are not
// there: the game's own events say what the table may know).
const QUIET = new Set(["action_taken", "deal_dealt", "seed_revealed", "chain_renewed", "rest_seen", "deal_seen"]);
/**
 * @param {number} version
 * @param {MatchEvent} event
 */
export function addLog(version, event) {
  if (state.log.some((l) => l.version === version)) return;
  if (event.type === "deal_finished") addSheet(event);
  if (QUIET.has(event.type)) return;
  state.log.push({ version, event });
  state.log.sort((a, b) => a.version - b.version);
  if (state.log.length > 60) state.log.shift();
  drawLog();
}

export function drawLog() {
  $("log").replaceChildren(...state.log.slice().reverse().map((l) => h("li", { dataset: { version: l.version, type: l.event.type } },
    eventText(l.event))));
}

// The score sheet: a row per finished deal, each side's points in it and its total after it.
/** @param {components["schemas"]["DealFinished"]} event */
function addSheet(event) {
  if (state.sheet.some((r) => r.deal === event.deal)) return;
  state.sheet.push({ deal: event.deal, score: event.match_score || {} });
  state.sheet.sort((a, b) => a.deal - b.deal);
  drawSheet();
}

export function drawSheet() {
  const box = $("score-sheet");
  const view = state.view;
  const sides = view && Object.keys(scoresOf(view.table)).length ? Object.keys(scoresOf(view.table))
    : Object.keys((state.sheet[0] || {}).score || {});
  if (!state.sheet.length || !sides.length) { box.replaceChildren(); return; }
  let before = Object.fromEntries(sides.map((s) => [s, 0]));
  const rows = state.sheet.map((r) => {
    const cells = sides.map((s) => {
      const total = r.score[s] ?? before[s];
      const delta = total - before[s];
      return h("td", {}, `${delta >= 0 ? "+" : ""}${num(delta)}`, h("small", {}, ` (${num(total)})`));
    });
    before = { ...before, ...r.score };
    return h("tr", { dataset: { deal: String(r.deal) } }, h("th", { scope: "row" }, num(r.deal + 1)), ...cells);
  });
  box.replaceChildren(h("caption", {}, t("table.sheet")),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("table.deal")), ...sides.map((s) => h("th", { scope: "col" }, sideText(s))))),
    h("tbody", {}, ...rows));
}
