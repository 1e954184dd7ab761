// @ts-check
// The replay of a finished match, deal by deal and trick by trick: its record
// (GET /v1/matches/{id}/record) played through by the server (POST /v1/records/play). All read
// the public API only.

import { num, t } from "../shared/i18n.js";
import { $, call, errorText } from "../shared/session.js";
import { SEATS, cardEl, h, trickPlays } from "../shared/table.js";
import { contractText, describeAction, gameLine, resultText, scoreLine, seatText } from "../shared/words.js";
import { drawReview } from "./review.js";

/** @import { components } from "../shared/api-types" */
/** @typedef {components["schemas"]} S */

/**
 * The replay shown: the record (GET /v1/matches/{id}/record) and its play (POST /v1/records/play).
 * @type {{ id: string | null, record: S["RecordOut"] | null, played: S["RecordPlayOut"] | null, deal: number, step: number }}
 */
const replay = { id: null, record: null, played: null, deal: 0, step: 0 };

/** @param {string} id @param {number} [deal] the deal shown first (0-based) */
export async function showReplay(id, deal = 0) {
  Object.assign(replay, { id, record: null, played: null, deal, step: 0 });
  $("replay-info").textContent = t("table.loading");
  try {
    const record = /** @type {S["RecordOut"]} */ (await call("GET", `/v1/matches/${id}/record`));
    const played = /** @type {S["RecordPlayOut"]} */ (await call("POST", "/v1/records/play", record));
    Object.assign(replay, { record, played });
    drawReplay();
  } catch (err) { $("replay-info").textContent = errorText(err); }
}

export function replayControls() {
  $("replay-deal").addEventListener("change", () => { replay.deal = Number($("replay-deal").value); replay.step = 0; drawReplay(); });
  $("replay-prev").addEventListener("click", () => { replay.step = Math.max(0, replay.step - 1); drawReplay(); });
  $("replay-next").addEventListener("click", () => { replay.step += 1; drawReplay(); });
}

// Step 0 is the auction; step k the k-th trick, each card by its seat, and who took it.
export function drawReplay() {
  if (!replay.played || !replay.record) return;
  const { record, played } = replay;
  $("replay-info").textContent = `${gameLine(record)} · ${t("replay.deals", { count: record.deals.length })} · ${scoreLine(played.match_score)}`;
  $("replay-deal").replaceChildren(...record.deals.map((_, i) => h("option", { value: String(i) }, t("replay.deal_n", { deal: num(i + 1) }))));
  $("replay-deal").value = String(replay.deal);
  const deal = played.deals[replay.deal] || {};
  const source = record.deals[replay.deal] || {};
  const tricks = deal.tricks || [];
  replay.deal = Math.min(replay.deal, Math.max(record.deals.length - 1, 0));
  replay.step = Math.min(replay.step, tricks.length);
  document.body.dataset.replayStep = String(replay.step);
  $("replay-contract").textContent = deal.contract ? contractText(deal.contract) : resultText(deal.result);
  $("replay-step").textContent = replay.step === 0 ? t("replay.auction") : t("replay.trick", { n: num(replay.step), count: tricks.length });
  $("replay-prev").disabled = replay.step === 0;
  $("replay-next").disabled = replay.step >= tricks.length;
  if (replay.step === 0) {
    const calls = (source.actions || []).filter((a) => a.action !== "play");
    $("replay-trick").replaceChildren(h("ol", { class: "auction" }, ...calls.map((a) => h("li", {}, h("b", {}, seatText(a.seat)), " ", describeAction(a)))));
  } else {
    const trick = tricks[replay.step - 1];
    // a three-card trick of Five Hundred: the misère contractor's partner sits out
    const out = record.game === "five_hundred" && trick.cards.length === 3 && deal.contract
      ? SEATS[(SEATS.indexOf(deal.contract.seat) + 2) % 4] : null;
    $("replay-trick").replaceChildren(h("div", { class: "last-cards" }, ...trickPlays(trick, record.game, out).map(([s, c]) =>
      h("div", { class: "last-play" }, h("small", {}, seatText(s)), cardEl(c)))),
      h("p", {}, t("table.taken_by", { seat: seatText(trick.winner) })));
  }
  $("replay-score").textContent = deal.score ? `${resultText(deal.result)} · ${scoreLine(deal.score)}` : "";
  if (replay.id) drawReview(replay.id, replay.deal, replay.step);
}
