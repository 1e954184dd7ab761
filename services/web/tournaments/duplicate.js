// @ts-check
// Duplicate beside a tournament (docs/tournaments.md, "Robot duplicate", "Travellers"): the
// play button of a robot duplicate event while its window is open, each public board linked
// from the standings, and a board's traveller (every table's contract and score, what each
// side earned, a link to each table's replay with its double-dummy analysis, the hand record,
// whether its seed verifies, and the board's par). All read the public API only.

import { num, t, when } from "../shared/i18n.js";
import { grid, tr } from "../shared/grid.js";
import { $, call, errorText } from "../shared/session.js";
import { h } from "../shared/table.js";
import { cardShort, contractText, resultText, scoreLine, seatText } from "../shared/words.js";

/** @import { components } from "../shared/api-types" */
/** @typedef {components["schemas"]} S */
/** @typedef {S["TournamentOut"]} TournamentView */
/** @typedef {S["TravellerOut"]} Traveller */
/** @typedef {S["RobotEntryOut"]} RobotEntry */
/** @typedef {Parameters<typeof contractText>[0]} Contract */

const DUPLICATE = ["duplicate", "teams", "robot"];

/**
 * An element of the page, which has it.
 * @param {string} id
 * @returns {HTMLElement}
 */
function el(id) {
  const found = $(id);
  if (!found) throw new Error(id);
  return found;
}

/**
 * The duplicate parts of a tournament's screen, drawn with the rest of it.
 * @param {TournamentView} view
 * @param {(entry: string) => string} entryName
 */
export function drawDuplicate(view, entryName) {
  const play = /** @type {HTMLButtonElement} */ (el("tournament-play"));
  play.hidden = !(view.format === "robot" && view.status === "running");
  play.textContent = view.closes_at ? t("duplicate.play_until", { when: when(view.closes_at) }) : t("duplicate.play");
  play.onclick = async () => {
    try {
      const mine = /** @type {RobotEntry} */ (await call("POST", `/v1/tournaments/${view.tournament_id}/play`));
      if (mine.match_id) location.hash = `#/match/${mine.match_id}`;
    } catch (err) { el("tournament-live").textContent = errorText(err); }
  };
  const boards = DUPLICATE.includes(view.format)
    ? (view.rounds || []).filter((r) => r.closed).flatMap((r) => r.boards) : [];
  el("tournament-boards").replaceChildren(...(boards.length ? [t("duplicate.boards"), " ",
    ...boards.map((b) => h("button", { type: "button", class: "link", dataset: { board: String(b) },
                                       onclick: () => showTraveller(view.tournament_id, b, entryName) },
                           t("duplicate.board", { board: num(b) })))] : []));
  if (!boards.length) el("tournament-traveller").replaceChildren();
}

/**
 * Board `board`'s traveller, under the standings.
 * @param {string} id
 * @param {number} board
 * @param {(entry: string) => string} entryName
 */
export async function showTraveller(id, board, entryName) {
  const box = el("tournament-traveller");
  try {
    const trav = /** @type {Traveller} */ (await call("GET", `/v1/tournaments/${id}/boards/${board}/traveller`));
    const who = (/** @type {string | null} */ e, /** @type {boolean} */ bots) => (bots ? t("duplicate.bots") : e ? entryName(e) : t("duplicate.bots"));
    const points = (/** @type {number | null} */ p) => (p == null ? "" : num(p));
    const table = h("table", { class: "grid" });
    grid(table, [t("duplicate.table"), t("duplicate.ns"), t("duplicate.ew"), t("duplicate.contract"), t("duplicate.declarer"),
                 t("duplicate.result"), t("duplicate.score"), t("duplicate.ns_points"), t("duplicate.ew_points"),
                 t("duplicate.analysis")],
         trav.rows.map((r) => tr([num(r.table), who(r.ns, r.bots), who(r.ew, r.bots),
                                  r.contract ? contractText(/** @type {Contract} */ (r.contract)) : r.forfeit ? t("duplicate.forfeit") : "",
                                  r.declarer ? seatText(r.declarer) : "", r.result ? resultText(r.result) : "",
                                  r.score ? scoreLine(r.score) : "", points(r.ns_points), points(r.ew_points),
                                  r.match_id != null && r.deal != null
                                    ? h("a", { href: `#/replay/${r.match_id}/${r.deal}` }, t("duplicate.analysis_link")) : ""],
                                 { dataset: { table: String(r.table) } })));
    const hand = trav.hand;
    box.replaceChildren(
      h("h2", {}, t("duplicate.traveller", { board: num(board), scoring: t(`scoring.${trav.scoring}`, { defaultValue: trav.scoring }) })),
      h("div", { class: "scroll" }, table),
      h("p", { class: "hand" }, t("duplicate.dealer", { seat: seatText(hand.dealer) }), " · ",
        hand.deck.map(cardShort).join(" ")),
      h("p", { dataset: { verified: String(hand.verified) } },
        hand.verified === true ? t("duplicate.verified") : hand.verified === false ? t("duplicate.not_verified") : t("duplicate.imported")),
      ...(hand.par ? [h("p", { class: "par", dataset: { par: hand.par.contract ? String(hand.par.contract.team) : "" } },
        t("duplicate.par", { contract: hand.par.contract ? contractText(/** @type {Contract} */ (hand.par.contract)) : t("duplicate.passed_out"),
                             score: scoreLine(hand.par.score) }))]
        : hand.par_pending ? [h("p", { class: "par-pending" }, t("duplicate.par_pending"))] : []));
    // The par is worked out once per board: read the traveller again while it is.
    if (hand.par_pending) {
      setTimeout(() => { if (box.dataset.board === String(board)) void showTraveller(id, board, entryName); }, 3000);
    }
    box.dataset.board = String(board);
  } catch (err) { box.replaceChildren(h("p", { class: "empty" }, errorText(err))); }
}
