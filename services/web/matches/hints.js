// @ts-check
// The "Hint" control and the hint counts (docs/web-client.md, "Hints"): drawn from the view
// (`hints_used`, `hints_limit`) and the last hint asked (GET /v1/matches/{id}/hint).

import { has, list, num, t } from "../shared/i18n.js";
import { SEATS, describeAction } from "../shared/table.js";
import { seatText } from "../shared/words.js";

/** @import { components } from "../shared/api-types" */
/** @import { AnyOf } from "../shared/api.js" */
/** @import { ById, PlayerPage } from "../shared/pages" */
/** @import { Hint } from "../shared/session.js" */

/** @type {ById<PlayerPage>} */
const $ = (id) => /** @type {any} */ (document.getElementById(id));

// A hint's reason in the reader's language, from its stable `code` and `params` (docs/bots.md,
// "Hints for humans"): the suit named as the language names it, the honours listed, the
// tricks a contract still needs counted in the language's plural. A code (or `needs`) this
// client does not know yet shows the server's English `words`.
/** @param {components["schemas"]["HintReason"] | null | undefined} reason */
export function reasonText(reason) {
  if (!reason) return "";
  // each code's params as docs/bots.md ("Hints for humans") lists them
  const p = /** @type {{ trumps?: number, aces?: number, masters?: number, level?: number, suit?: string, honours?: string[],
    needs?: string, tricks_needed?: number }} */ (reason.params || {});
  const count = p.trumps ?? p.aces;
  const honours = (p.honours || []).map((n) => t(`hint_honour.${String(n).toLowerCase().replace(/ /g, "_")}`, { defaultValue: n }));
  const fill = { ...(count === undefined ? {} : { count }), trumps: num(p.trumps), aces: num(p.aces), masters: num(p.masters), level: num(p.level),
                 suit: !p.suit ? "" : p.suit === "NT" ? t("term.no_trump") : t(`suit_name.${p.suit}`, { defaultValue: p.suit }),
                 honours: honours.length ? t("hint_honour.with", { list: list(honours) }) : "" };
  const key = `hint_reason.${reason.code}`;
  const needs = p.needs ? `hint_needs.${p.needs}` : null;
  if (!has(key, fill) || (needs && !has(needs, { count: p.tricks_needed }))) return reason.words || "";
  return needs ? `${t(key, fill)} ${t(needs, { count: p.tricks_needed })}` : t(key, fill);
}

// Hints (docs/api.md, "Hints"): a button while it is my turn and I have hints left here
// (`hints_limit` is 0 where they are off); the expert's suggestion and its reason in words,
// its card or button outlined, until the table moves on. Everyone's counts, never the words.
/**
 * @param {components["schemas"]["MatchViewOut"]} view
 * @param {boolean} myTurn
 * @param {Hint | null} hint
 * @param {boolean} busy
 */
export function renderHint(view, myTurn, hint, busy) {
  const me = view.seat;
  const limit = view.hints_limit || 0;
  const used = me ? (view.hints_used || {})[me] || 0 : 0;
  const current = hint && hint.match === view.match_id && hint.version === view.version ? hint : null;
  const box = $("hint-box");
  box.hidden = !(myTurn && limit > 0);
  const button = $("hint");
  button.disabled = !!current || used >= limit || busy;
  button.textContent = used >= limit && !current ? t("hint.none_left") : t("hint.ask", { count: limit - used });
  const text = $("hint-text");
  text.textContent = current ? `${current.action ? `${describeAction(current.action)}: ` : ""}${reasonText(current.reason)}` : "";
  text.dataset.code = current ? current.reason.code : "";
  document.body.dataset.hint = current ? JSON.stringify(current.action) : "";
  if (current && current.action) {
    const a = current.action;
    if (a.action === "play" && a.card) {
      const el = document.querySelector(`#table .seat-bottom .card[data-card="${a.card}"]`);
      if (el) el.classList.add("hinted");
    }
  }
  const hinted = current && current.action ? JSON.stringify(current.action) : null;
  if (current && hinted && !current.levelShown) showLevel(current);
  for (const b of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("#actions [data-action]"))) b.classList.toggle("hinted", b.dataset.action === hinted);
  const counts = view.hints_used || {};
  const any = SEATS.some((s) => counts[s]);
  $("hints-used").textContent = any ? t("hint.used", { counts: SEATS.map((s) => `${seatText(s)} ${counts[s] || 0}`).join(" · ") }) : "";
}

// A hinted bid of a long auction: its level is chosen in the level list once, when the hint
// arrives, so its button is there to be outlined (the player may choose another level after).
/** @param {Hint} hint one with an action */
function showLevel(hint) {
  hint.levelShown = true;
  const picker = /** @type {HTMLSelectElement | null} */ ($("bid-level"));     // drawn for a long auction only
  const action = /** @type {AnyOf<NonNullable<Hint["action"]>>} */ (hint.action);
  const level = action.action === "bid" ? (action.value ?? action.tricks) : undefined;
  if (!picker || level === undefined || ![...picker.options].some((o) => o.value === String(level))) return;
  picker.value = String(level);
  picker.dispatchEvent(new Event("change"));
}
