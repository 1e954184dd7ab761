// @ts-check
// Playing a card of my hand from the felt: at once, or (a setting) raised by a first tap and
// played by a second; a card with several forms (Belote's belote said or not, a Joker led in
// no trumps) offers them as buttons until the view moves on.

import { t } from "../shared/i18n.js";
import { $, state } from "../shared/session.js";
import { loadSettings } from "../shared/storage.js";
import { cardName } from "../shared/words.js";

/** @import { AnyOf } from "../shared/api.js" */
/** @import { LegalAction } from "../shared/words.js" */
/** @import { components } from "../shared/api-types" */
/** @typedef {components["schemas"]["MatchViewOut"]} MatchView */
/** @typedef {AnyOf<Extract<LegalAction, { action: "play" }>>} Play */

// With "tap to raise, tap again to play" set, a card's first tap raises it (for the view drawn);
// a tap on the raised card plays it, a tap on another raises that one instead.
/** @type {{ version: number, code: string } | null} */
let raised = null;

/**
 * A tap (a click, Enter) on one of my playable cards.
 * @param {string} code
 * @param {Play[]} plays my legal plays
 * @param {{ act: (action: Play) => unknown, render: () => void }} page what the match page does
 */
export function playCard(code, plays, { act, render }) {
  const options = plays.filter((a) => a.card === code);
  if (!options.length) return;
  const version = /** @type {MatchView} */ (state.view).version;
  if (loadSettings().confirm && !(raised && raised.version === version && raised.code === code)) {
    raised = { version, code };
    $("announce").textContent = t("cues.raised", { card: cardName(code) });
    render();
    return;
  }
  raised = null;
  // the plainest form first (Belote's "belote": false, a Joker's named suit: pick below)
  options.sort((a, b) => Object.keys(a).length - Object.keys(b).length);
  const needsChoice = options.filter((a) => Object.keys(a).length === Object.keys(options[0]).length);
  if (needsChoice.length > 1) {            // the forms of this card, offered until the view moves on
    state.naming = { version: /** @type {MatchView} */ (state.view).version, options: needsChoice };
    render();
    /** @type {HTMLButtonElement} */ ($("actions").querySelector("button")).focus();
    return;
  }
  act(options[0]);
}

/** The card raised for the view of `version`, if any. @param {number} version */
export const raisedCard = (version) => (raised && raised.version === version ? raised.code : null);
