// The fair deal at the table: the match record read after each deal and every finished deal
// recomputed with fair.js (docs/fair-deal.md, "Verify in your browser"), the mark it earns on
// the table and in the match's deals, and the seat's entropy — the words this browser gave
// each match, and fresh ones for every renewed chain.

import { freshEntropy, verifyRecord } from "./fair.js";
import { num, t } from "./i18n.js";
import { h } from "./table.js";

const ENTROPY_KEY = "atout.entropy";
const $ = (id) => document.getElementById(id);

// The entropy strings this browser gave each match's seat, to check the record's against.
export function givenEntropy(matchId) {
  try { return (JSON.parse(localStorage.getItem(ENTROPY_KEY)) || {})[matchId] || []; } catch { return []; }
}
export function rememberEntropy(matchId, text) {
  let all = {};
  try { all = JSON.parse(localStorage.getItem(ENTROPY_KEY)) || {}; } catch { /* start again */ }
  all[matchId] = [...(all[matchId] || []), text].slice(-50);
  localStorage.setItem(ENTROPY_KEY, JSON.stringify(all));
}

export async function verifyDeals(state, call, say) {
  const id = state.matchId;
  if (!id || !state.session) return;
  if (state.verifying) { state.verifyAgain = true; return; }
  state.verifying = (async () => {
    try {
      const record = await call("GET", `/v1/matches/${id}/record`);
      if (id !== state.matchId) return;
      const seat = state.view && state.view.seat;
      const given = givenEntropy(id);
      state.fair = verifyRecord(record, seat && given.length ? { seat, given } : null);
      // the stream's chain_renewed may have passed unseen (before this page, or in a replay)
      for (const r of record.renewals || []) state.renewed = Math.max(state.renewed || 0, r.chain);
      giveFreshEntropy(state, call, say);
    } catch (err) {
      if (id !== state.matchId) return;
      state.fair = { error: err.code === "board_sealed" ? t("fair.sealed") : t("fair.unreadable", { code: err.code || err.message }) };
    } finally {
      state.verifying = null;
      renderFair(state);
      if (state.verifyAgain) { state.verifyAgain = false; verifyDeals(state, call, say); }
    }
  })();
}

// The mark on the table (#fair) and each deal's line in the match's history (#deal-history).
export function renderFair(state) {
  const mark = $("fair"), list = $("deal-history");
  if (!mark || !list) return;
  const fair = state.fair;
  const shuffled = fair && fair.deals ? fair.deals.filter((d) => !d.imported) : [];
  if (!fair) { mark.dataset.state = "pending"; mark.textContent = t("fair.checking"); }
  else if (fair.error) { mark.dataset.state = "unknown"; mark.textContent = t("fair.error", { error: fair.error }); }
  else if (!fair.ok) {
    const bad = fair.deals.filter((d) => !d.ok);
    mark.dataset.state = "failed";
    mark.textContent = t("fair.failed", { deals: bad.map((d) => d.deal ?? d.position + 1).join(", "),
                                          checks: [...new Set(bad.flatMap((d) => d.failed))].join(", ") });
  } else if (!shuffled.length) { mark.dataset.state = "none"; mark.textContent = t("fair.none_yet"); }
  else {
    mark.dataset.state = "verified";
    mark.textContent = t(fair.tip_checked ? "fair.verified" : "fair.verified_links", { count: shuffled.length });
  }
  mark.dataset.verified = String(shuffled.filter((d) => d.ok).length);
  const link = $("verify-link");
  if (link && state.matchId) link.href = `/verify?match=${encodeURIComponent(state.matchId)}`;
  list.replaceChildren(...(fair && fair.deals ? fair.deals : []).map((d) => h("li", {
    dataset: { deal: String(d.deal ?? ""), verified: String(d.ok), imported: String(!!d.imported) },
    class: d.ok ? "verified" : "failed" },
    d.imported ? t("fair.deal_imported", { deal: num(d.position + 1) })
      : d.ok ? t("fair.deal_verified", { deal: num(d.deal) }) : t("fair.deal_failed", { deal: d.deal ?? "?", checks: d.failed.join(", ") }))));
}

// A renewed chain takes only entropy given after its tip was published: give fresh words, once
// per chain, as soon as the view says which seat is mine (the event may come first).
export async function giveFreshEntropy(state, call, say) {
  const id = state.matchId, seat = state.view && state.view.seat, chain = state.renewed || 0;
  if (!id || !seat || chain <= (state.entropyChain || 0) || state.view.status === "finished") return;
  state.entropyChain = chain;
  const entropy = freshEntropy();
  try {
    await call("PUT", `/v1/matches/${id}/seats/${seat}/entropy`, { entropy });
    rememberEntropy(id, entropy);
  } catch (err) { say(t("fair.entropy_error", { chain, code: err.code, message: err.message }), "error"); }
}

