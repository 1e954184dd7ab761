// @ts-check
// The fair deal at the table: the match record read after each deal and every finished deal
// recomputed with fair.js (docs/fair-deal.md, "Verify in your browser"), the mark it earns on
// the table and in the match's deals, and the seat's entropy — the words this browser gave
// each match, and fresh ones for every renewed chain.

import { freshEntropy, verifyRecord } from "../shared/fair.js";
import { num, t } from "../shared/i18n.js";
import { givenEntropy, rememberEntropy } from "../shared/storage.js";
import { h } from "../shared/table.js";

/** @import { components } from "../shared/api-types" */
/** @import { Failure } from "../shared/api.js" */
/** @import { Fair, State } from "../shared/session.js" */
/** @import { DealCheck } from "../shared/fair.js" */
/** @import { ById, PlayerPage } from "../shared/pages" */
/** @typedef {(method: string, path: string, body?: unknown) => Promise<unknown>} Call */
/** @typedef {(text: string, kind?: "info" | "error") => void} Say */

/** @type {ById<PlayerPage>} */
const $ = (id) => /** @type {any} */ (document.getElementById(id));

/**
 * @param {State} state
 * @param {Call} call
 * @param {Say} say
 */
export async function verifyDeals(state, call, say) {
  const id = state.matchId;
  if (!id || !state.session) return;
  if (state.verifying) { state.verifyAgain = true; return; }
  state.verifying = (async () => {
    try {
      const record = /** @type {components["schemas"]["RecordOut"]} */ (await call("GET", `/v1/matches/${id}/record`));
      if (id !== state.matchId) return;
      state.record = record;
      check(state);
      // the stream's chain_renewed may have passed unseen (before this page, or in a replay)
      for (const r of record.renewals || []) state.renewed = Math.max(state.renewed || 0, r.chain);
      giveFreshEntropy(state, call, say);
    } catch (thrown) {
      const err = /** @type {Failure} */ (thrown);
      if (id !== state.matchId) return;
      state.fair = { error: err.code === "board_sealed" ? t("fair.sealed") : t("fair.unreadable", { code: err.code || err.message }) };
    } finally {
      state.verifying = null;
      renderFair(state);
      if (state.verifyAgain) { state.verifyAgain = false; verifyDeals(state, call, say); }
    }
  })();
}

// Verify the record read last, for my seat as the view knows it now.
/** @param {State} state one with a match and its record read */
function check(state) {
  const seat = (state.view && state.view.seat) || null;
  const given = givenEntropy(/** @type {string} */ (state.matchId));
  /** @type {Fair} */
  const fair = verifyRecord(/** @type {components["schemas"]["RecordOut"]} */ (state.record), seat && given.length ? { seat, given } : null);
  state.fair = fair;
  fair.mine = seat ? { seat, gave: given.length > 0 } : null;
  fair.seat = seat;
}

// The mark on the table (#fair) and each deal's line in the match's history (#deal-history).
/** @param {State} state */
export function renderFair(state) {
  const mark = $("fair"), list = $("deal-history");
  if (!mark || !list) return;
  // entering a match, the record may be verified before the view says which seat is mine
  const seat = (state.view && state.view.seat) || null;
  if (state.record && state.fair && !state.fair.error && state.fair.seat !== seat) check(state);
  const fair = state.fair;
  const shuffled = fair && fair.deals ? fair.deals.filter((d) => !d.imported) : [];
  if (!fair) { mark.dataset.state = "pending"; mark.textContent = t("fair.checking"); }
  else if (fair.error) { mark.dataset.state = "unknown"; mark.textContent = t("fair.error", { error: fair.error }); }
  else if (!fair.ok) {
    const bad = /** @type {DealCheck[]} */ (fair.deals).filter((d) => !d.ok);
    mark.dataset.state = "failed";
    mark.textContent = t("fair.failed", { deals: bad.map((d) => d.deal ?? d.position + 1).join(", "),
                                          checks: [...new Set(bad.flatMap((d) => d.failed))].join(", ") });
  } else if (!shuffled.length) { mark.dataset.state = "none"; mark.textContent = t("fair.none_yet"); }
  else {
    mark.dataset.state = "verified";
    mark.textContent = t(fair.tip_checked ? "fair.verified" : "fair.verified_links", { count: shuffled.length });
  }
  mark.dataset.verified = String(shuffled.filter((d) => d.ok).length);
  renderMyEntropy(fair);
  const link = $("verify-link");
  if (link && state.matchId) link.href = `/verify?match=${encodeURIComponent(state.matchId)}`;
  list.replaceChildren(...(fair && fair.deals ? fair.deals : []).map((d) => h("li", {
    dataset: { deal: String(d.deal ?? ""), verified: String(d.ok), imported: String(!!d.imported) },
    class: d.ok ? "verified" : "failed" },
    d.imported ? t("fair.deal_imported", { deal: num(d.position + 1) })
      : d.ok ? t("fair.deal_verified", { deal: num(d.deal) }) : t("fair.deal_failed", { deal: d.deal ?? "?", checks: d.failed.join(", ") }))));
}

// My seat's entropy in the record against the words this browser gave (fair.js's
// `my_entropy`): the one check only a seat can make, since nothing else published binds
// entropy — a record with a seat's words swapped verifies everywhere else.
/**
 * @param {Fair | null} fair
 * @returns {{ state: "unknown" | "none" } | { state: "differs", deals: number[] } | { state: "matches", count: number } | null}
 */
export function myEntropy(fair) {
  if (!fair || !fair.deals || !fair.mine) return null;
  const shuffled = fair.deals.filter((d) => d.kind === "shuffled" || d.kind === "replay");
  if (!shuffled.length) return null;
  if (!fair.mine.gave) return { state: "unknown" };
  const checked = shuffled.filter((d) => d.checks.my_entropy !== undefined);
  const differs = checked.filter((d) => d.checks.my_entropy === false).map((d) => d.deal);
  if (differs.length) return { state: "differs", deals: differs };
  return checked.length ? { state: "matches", count: checked.length } : { state: "none" };
}

/** @param {Fair | null} fair */
function renderMyEntropy(fair) {
  const line = $("my-entropy");
  if (!line) return;
  const mine = fair && !fair.error ? myEntropy(fair) : null;
  line.hidden = !mine;
  if (!mine) return;
  line.dataset.state = mine.state;
  line.textContent = mine.state === "differs" ? t("fair.mine_differs", { deals: mine.deals.join(", ") })
    : mine.state === "matches" ? t("fair.mine_matches", { count: mine.count }) : t(`fair.mine_${mine.state}`);
}

// A renewed chain takes only entropy given after its tip was published: give fresh words, once
// per chain, as soon as the view says which seat is mine (the event may come first).
/**
 * @param {State} state
 * @param {Call} call
 * @param {Say} say
 */
export async function giveFreshEntropy(state, call, say) {
  const id = state.matchId, seat = state.view && state.view.seat, chain = state.renewed || 0;
  if (!id || !seat || chain <= (state.entropyChain || 0) || /** @type {components["schemas"]["MatchViewOut"]} */ (state.view).status === "finished") return;
  state.entropyChain = chain;
  const entropy = freshEntropy();
  try {
    await call("PUT", `/v1/matches/${id}/seats/${seat}/entropy`, /** @satisfies {components["schemas"]["GiveEntropy"]} */ ({ entropy }));
    rememberEntropy(id, entropy);
  } catch (thrown) {
    const err = /** @type {Failure} */ (thrown);
    say(t("fair.entropy_error", { chain, code: err.code, message: err.message }), "error");
  }
}

