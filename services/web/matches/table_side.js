// @ts-check
// The table's side controls that act outside the view: the hint, "Play again", a dispute.

import { uuid } from "../shared/api.js";
import { freshEntropy } from "../shared/fair.js";
import { t } from "../shared/i18n.js";
import { refresh, render } from "./match.js";
import { $, call, errorText, say, state } from "../shared/session.js";
import { rememberEntropy } from "../shared/storage.js";

/** @import { components } from "../shared/api-types" */
/** @typedef {components["schemas"]} S */

export async function askHint() {
  const view = state.view;
  if (!view || state.busy) return;
  $("hint").disabled = true;
  try {
    const out = /** @type {S["HintOut"]} */ (await call("GET", `/v1/matches/${view.match_id}/hint`));
    state.hint = { match: out.match_id, version: out.version, action: out.action, reason: out.reason,
                   used: out.used, limit: out.limit };
    say("");
  } catch (err) {
    say(errorText(err), "error");
  }
  await refresh();   // the counts moved; the view is the same version, so draw it again
  render();
}

// After the match: the same game, options and seat holders again. However many players ask,
// the server makes one new match (its command id is derived from this one), so all land on it.
export async function rematch() {
  try {
    const entropy = freshEntropy();
    const created = /** @type {S["MatchViewOut"]} */ (await call("POST", `/v1/matches/${state.matchId}/rematch`,
      /** @satisfies {S["Rematch"]} */ ({ entropy })));
    rememberEntropy(created.match_id, entropy);
    location.hash = `#/match/${created.match_id}`;
  } catch (err) { say(errorText(err), "error"); }
}

/** @param {SubmitEvent} ev */
export async function fileDispute(ev) {
  ev.preventDefault();
  try {
    // the form counts deals from 1, as the score sheet and the replay show them; the API from 0
    const d = /** @type {S["DisputeOut"]} */ (await call("POST", `/v1/matches/${state.matchId}/disputes`,
      /** @satisfies {S["FileDispute"]} */ ({ deal: Number($("dispute-deal").value) - 1, reason: $("dispute-reason").value, command_id: uuid() })));
    say(t("dispute.filed", { id: d.dispute_id }));
  } catch (err) { say(errorText(err), "error"); }
}
