// @ts-check
// The end of a deal on the table (docs/web-client.md "End of a deal"): the contract, whether it
// was made, each side's tricks, card points and what the deal added, in the game's own words,
// and the four hands as they were played, until the player closes it.
//
// All of it comes from the `deal_finished` event the live stream brings: the deal's public
// record, given to every seat once the deal is over (the record route serves the same). The
// hands are the cards each seat played, face up, in the tricks; nothing is worked out from the
// deck. Belote's combinations are the ones the view showed the table at trick 2.

import { num, t } from "../shared/i18n.js";
import { $ } from "../shared/session.js";
import { SEATS, cardEl, h, sortHand, trickPlays } from "../shared/table.js";
import { cardShort, comboText, contractText, resultText, seatText, sideText } from "../shared/words.js";

/** @import { components } from "../shared/live-types" */
/** @import { Table } from "../shared/table.js" */
/** @typedef {components["schemas"]["DealFinished"]} DealFinished */
/** @typedef {DealFinished["summary"]["contract"] & { contract?: string, multiplier?: number, value?: number | string }} Contract */

/**
 * The combinations the table was shown during the deal in play (Belote), and that deal.
 * @type {{ deal: number, combos: { seat: string, kind: string, value: number }[] }}
 */
const shown = { deal: -1, combos: [] };

/**
 * Cinch's counting cards of the deal just scored, each with the side it went to (null: dead),
 * as its `deal_scored` event says: the record sums the points up without them.
 * @type {{ deal: number, credits: (string | null)[][] }}
 */
const counted = { deal: -1, credits: [] };

/**
 * Keep a Cinch deal's credits from its `deal_scored` event (before its `deal_finished`).
 * @param {{ type: string, deal?: number, credits?: unknown }} event
 */
export function noteCredits(event) {
  if (event.type !== "deal_scored" || !Array.isArray(event.credits) || typeof event.deal !== "number") return;
  counted.deal = event.deal;
  counted.credits = /** @type {(string | null)[][]} */ (event.credits);
}

/**
 * Keep what the view shows of the deal in play that its record will not say.
 * @param {Table | null | undefined} table
 */
export function noteView(table) {
  if (!table || !Array.isArray(table.combinations_shown) || !table.combinations_shown.length) return;
  shown.deal = table.deal_index;
  shown.combos = table.combinations_shown.map((c) => ({ seat: c.seat, kind: c.kind, value: c.value }));
}

// Five Hundred's misère contractor's partner sits the deal out: its tricks have three cards.
/** @param {DealFinished} event @param {string} game */
function sitsOut(event, game) {
  const contract = /** @type {Contract} */ (event.summary.contract);
  return game === "five_hundred" && contract && contract.contract && event.summary.tricks.some((x) => x.cards.length === 3)
    ? SEATS[(SEATS.indexOf(contract.seat) + 2) % 4] : null;
}

/**
 * The deal's last trick, [seat, card] in play order, and who took it.
 * @param {DealFinished} event
 * @param {string} game
 * @returns {{ plays: string[][], winner: string | null }}
 */
export function lastTrickOf(event, game) {
  const tricks = (event.summary && event.summary.tricks) || [];
  const last = tricks[tricks.length - 1];
  return last ? { plays: trickPlays(last, game, sitsOut(event, game)), winner: last.winner } : { plays: [], winner: null };
}

/** @param {string} seat @param {string[]} sides */
const sideOf = (seat, sides) => (sides.includes(seat) ? seat : sides.find((s) => s.includes(seat)) || seat);

/**
 * Show the deal just finished.
 * @param {DealFinished} event
 * @param {string} game
 */
export function showDealSummary(event, game) {
  const box = $("deal-summary");
  const s = event.summary;
  if (!s || s.result === "incomplete") return;
  const contract = /** @type {Contract} */ (s.contract);
  const sides = Object.keys(s.score || {}).sort((a, b) => SEATS.indexOf(a[0]) - SEATS.indexOf(b[0]));
  const tricks = s.tricks || [];
  const sittingOut = sitsOut(event, game);
  /** @type {{ [seat: string]: string[] }} */
  const hands = {};
  /** @type {{ [side: string]: number }} */
  const taken = Object.fromEntries(sides.map((x) => [x, 0]));
  for (const trick of tricks) {
    for (const [seat, card] of trickPlays(trick, game, sittingOut)) (hands[seat] = hands[seat] || []).push(card);
    if (trick.winner) taken[sideOf(trick.winner, sides)] = (taken[sideOf(trick.winner, sides)] || 0) + 1;
  }
  const result = game === "belote" && s.result === "failed" ? t("deal_summary.inside") : resultText(s.result);
  const pointsLabel = game === "five_hundred" ? t("table.tricks") : game === "cinch" ? t("deal_summary.cinch_points") : t("table.card_points");
  /** @type {[string, { [side: string]: number }][]} */
  const rows = [[t("deal_summary.tricks_won"), taken], [pointsLabel, s.points || {}], [t("deal_summary.deal_score"), s.score || {}],
                [t("deal_summary.match_score"), event.match_score || {}]];
  if (game === "five_hundred") rows.splice(0, 1);           // its points are the tricks won
  box.replaceChildren(
    h("h2", { class: "h3", id: "deal-summary-title" }, t("deal_summary.title", { deal: num(event.deal + 1) })),
    h("p", { class: "deal-result", dataset: { result: s.result } },
      contract ? `${contractText(contract)} · ` : "", h("b", {}, result)),
    h("table", { class: "sheet deal-breakdown" },
      h("thead", {}, h("tr", {}, h("th", {}), ...sides.map((x) => h("th", { scope: "col" }, sideText(x))))),
      h("tbody", {}, ...rows.map(([label, values]) => h("tr", {}, h("th", { scope: "row" }, label),
        ...sides.map((x) => h("td", {}, num(values[x] || 0))))))),
    ...(game === "belote" ? beloteLines(event, tricks) : game === "cinch" ? cinchLines(event, contract) : []),
    h("h3", { class: "h3" }, t("deal_summary.hands")),
    h("div", { class: "deal-hands" }, ...SEATS.filter((x) => hands[x]).map((x) => h("div", { class: "deal-hand", dataset: { seat: x } },
      h("b", {}, seatText(x)), " ",
      ...sortHand(hands[x], contract ? contract.trump || null : null, game).map(played)))),
    h("button", { type: "button", id: "deal-summary-close", onclick: () => { box.hidden = true; } }, t("deal_summary.close")));
  box.hidden = false;
}

// Belote's own lines: who said belote-rebelote, the combinations shown, who took the last trick.
/**
 * @param {DealFinished} event
 * @param {DealFinished["summary"]["tricks"]} tricks
 */
function beloteLines(event, tricks) {
  const lines = [];
  const said = [...new Set(event.actions.filter((a) => a.action === "play" && "belote" in a && a.belote).map((a) => a.seat))];
  for (const seat of said) lines.push(t("deal_summary.belote", { seat: seatText(seat) }));
  if (shown.deal === event.deal) {
    for (const c of shown.combos) lines.push(t("deal_summary.combination", { kind: comboText(c.kind), points: num(c.value), seat: seatText(c.seat) }));
  }
  const last = tricks[tricks.length - 1];
  if (last && last.winner) lines.push(t("deal_summary.last_trick", { seat: seatText(last.winner) }));
  return lines.length ? [h("ul", { class: "deal-lines" }, ...lines.map((x) => h("li", {}, x)))] : [];
}

// Cinch's six points, each a fixed card of trumps (A.2.1): who counted it, or "dead" when a
// trump its own side shed face up scores for nobody.
/**
 * @param {DealFinished} event
 * @param {Contract} contract
 */
function cinchLines(event, contract) {
  if (counted.deal !== event.deal || !contract || !contract.trump) return [];
  const trump = contract.trump;
  /** @param {string} card */
  const point = (card) => (card[0] === "5" ? (card[1] === trump ? "right_pedro" : "left_pedro")
    : { A: "high", "2": "low", J: "jack", T: "game" }[card[0]] || "game");
  return [h("ul", { class: "deal-lines" }, ...counted.credits.map(([card, side]) => {
    const code = String(card);
    return h("li", { dataset: { counted: code } }, t("deal_summary.counted", {
      point: t(`cinch_point.${point(code)}`), card: cardShort(code), side: side ? sideText(side) : t("deal_summary.dead") }));
  }))];
}

// A card of the finished deal: marked `data-played`, not `data-card`, which names the cards of
// the deal on the table (and its cards are now dealt anew).
/** @param {string} code */
function played(code) {
  const el = cardEl(code, { class: "mini" });
  el.removeAttribute("data-card");
  el.dataset.played = code;
  return el;
}

export function hideDealSummary() { $("deal-summary").hidden = true; }
