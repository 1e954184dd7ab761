// @ts-check
// The review of a finished deal beside its replay (GET /v1/matches/{id}/deals/{d}/analysis):
// the four hands as they were played, each card's cost against the real deal and against what
// its player could know, each seat's accuracy, and the contract table. Pending while the
// workers compute it: asked again a few times.

import { num, t } from "../shared/i18n.js";
import { $, call, errorText } from "../shared/session.js";
import { SEATS, cardEl, h } from "../shared/table.js";
import { seatText, sideText, suitName } from "../shared/words.js";

/** @import { components } from "../shared/api-types" */
/** @typedef {components["schemas"]} S */

const RETRIES = 20;
const RETRY_MS = 3000;

/** @type {{ key: string, analysis: S["Analysis"] | null, timer: number | null }} */
const shown = { key: "", analysis: null, timer: null };

/**
 * The review of deal `deal` of match `id`, loaded once per deal; `trick` (0: the auction)
 * marks the cards of that trick in the hands.
 * @param {string} id @param {number} deal @param {number} trick
 */
export async function drawReview(id, deal, trick) {
  const key = `${id}/${deal}`;
  if (shown.key !== key) {
    if (shown.timer !== null) clearTimeout(shown.timer);
    Object.assign(shown, { key, analysis: null, timer: null });
    await load(id, deal, 0);
  }
  render(trick);
}

/** @param {string} id @param {number} deal @param {number} attempt */
async function load(id, deal, attempt) {
  const key = `${id}/${deal}`;
  try {
    const analysis = /** @type {S["Analysis"]} */ (await call("GET", `/v1/matches/${id}/deals/${deal}/analysis`));
    if (shown.key !== key) return;
    shown.analysis = analysis;
    if (analysis.status === "pending" && attempt < RETRIES) {
      shown.timer = window.setTimeout(() => { load(id, deal, attempt + 1).then(() => render(currentTrick())); }, RETRY_MS);
    }
  } catch (err) {
    if (shown.key === key) $("replay-review").replaceChildren(h("p", { class: "message" }, errorText(err)));
  }
}

const currentTrick = () => Number(document.body.dataset.replayStep || 0);

/** @param {number} trick */
function render(trick) {
  const root = $("replay-review");
  const analysis = shown.analysis;
  if (!analysis) return;
  if (analysis.status !== "ready" || !analysis.review) {
    root.replaceChildren(h("h2", {}, t("review.title")),
      h("p", { role: "status" }, analysis.status === "failed" ? t("review.failed") : t("review.pending")));
    return;
  }
  const review = analysis.review;
  root.replaceChildren(h("h2", {}, t("review.title")), summary(review), hands(review, trick), contracts(review),
    h("p", { class: "hint" }, t("review.explain", { unit: t(`review.unit.${review.unit}`, { defaultValue: review.unit }) })));
}

/** @param {S["DealReview"]} review */
function summary(review) {
  const seats = SEATS.filter((s) => s in review.accuracy);
  return h("table", { class: "review-accuracy" },
    h("thead", {}, h("tr", {}, h("th", {}, t("review.seat")), h("th", {}, t("review.accuracy")),
      h("th", {}, t("review.lost")))),
    h("tbody", {}, ...seats.map((s) => {
      const accuracy = review.accuracy[s];
      const lost = review.cards.filter((c) => c.seat === s).reduce((sum, c) => sum + c.cost, 0);
      return h("tr", {}, h("th", { scope: "row" }, seatText(s)),
        h("td", {}, accuracy === null || accuracy === undefined ? "—" : `${num(accuracy)} %`), h("td", {}, num(lost)));
    })));
}

/** @param {S["DealReview"]} review @param {number} trick */
function hands(review, trick) {
  return h("div", { class: "review-hands" }, ...SEATS.filter((s) => review.cards.some((c) => c.seat === s)).map((s) =>
    h("div", { class: "review-hand", "data-seat": s }, h("b", {}, seatText(s)),
      h("ol", {}, ...review.cards.filter((c) => c.seat === s).map((c) => cardLine(c, trick))))));
}

/** @param {S["CardReview"]} c @param {number} trick */
function cardLine(c, trick) {
  const words = c.cost > 0 ? t("review.cost", { points: num(c.cost) }) : t("review.best");
  const fair = c.fair_cost !== null && c.fair_cost !== undefined && c.fair_cost > 0
    ? ` · ${t("review.fair_cost", { points: num(Math.round(c.fair_cost * 10) / 10) })}` : "";
  return h("li", { class: c.trick + 1 === trick ? "now" : "", "data-cost": String(c.cost) },
    cardEl(c.card, { class: "small" }), " ", h("span", { class: c.cost > 0 ? "lost" : "kept" }, words), fair);
}

/** @param {S["DealReview"]} review */
function contracts(review) {
  const labels = Object.keys(review.contract_table);
  if (!labels.length) return h("span", {});
  const sides = [...new Set(labels.flatMap((l) => Object.keys(review.contract_table[l])))];
  return h("table", { class: "review-contracts" },
    h("caption", {}, review.par === null || review.par === undefined ? t("review.table")
      : t("review.par", { side: sideText(review.par_side), points: num(review.par) })),
    h("thead", {}, h("tr", {}, h("th", {}, t("review.contract")), ...sides.map((s) => h("th", {}, sideText(s))))),
    h("tbody", {}, ...labels.map((l) => h("tr", {}, h("th", { scope: "row" }, suitName(l === "SA" ? "NT" : l)),
      ...sides.map((s) => h("td", {}, num(review.contract_table[l][s])))))));
}
