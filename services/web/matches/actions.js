// @ts-check
// My legal actions that are not a card to play, as controls (docs/web-client.md, "Acting"):
//
// * a button per action (take, pass, name a suit, coinche, declare…);
// * a long auction (Coinche's 80…capot in four suits, Five Hundred's 6…10 tricks, Cinch's
//   1…14) as a level list and one button per suit at that level, the other calls as buttons;
// * a choice of several cards (`{"choose": k, "from": [...]}`: a Five Hundred discard, a
//   Cinch discard or rob): the cards are picked on the felt, then sent with one button.
//
// Every control carries the action it sends as JSON in `data-action`, and is named in words
// for a screen reader (the suit's name, not its symbol).

import { locale, num, t } from "../shared/i18n.js";
import { choiceOf, h } from "../shared/table.js";
import { describeAction, suitName, suitText } from "../shared/words.js";

/** @import { paths } from "../shared/api-types" */
/** @import { AnyOf, Without } from "../shared/api.js" */
/** @import { LegalAction } from "../shared/words.js" */
/**
 * An action as POST /v1/matches/{id}/actions takes it, but for the command id and the expected
 * version the table adds (match.js).
 * @typedef {Without<NonNullable<paths["/v1/matches/{match_id}/actions"]["post"]["requestBody"]>["content"]["application/json"],
 *   "command_id" | "expected_version">} Sent
 */
/** A legal action sent as offered: any but a choice of cards. @typedef {AnyOf<Exclude<LegalAction, { keep: unknown } | { cards: unknown }>>} Plain */
/**
 * The one legal action that is a choice of several cards: its field, how many, from which.
 * @typedef {{ action: LegalAction, field: string, k: number, from: string[] }} Choice
 */
/** @typedef {(action: Sent) => void} Act */

const MANY = 12;
/** @type {(a: Plain) => number | string | undefined} */
const levelOf = (a) => (a.action === "bid" ? (a.value ?? a.tricks) : undefined);
/** @type {(a: Plain) => string} */
const spoken = (a) => describeAction(a).replace(/[♠♥♦♣]/g, (s) => suitName(/** @type {{ [symbol: string]: string }} */ ({ "♠": "S", "♥": "H", "♦": "D", "♣": "C" })[s]));

/**
 * @param {Plain} a
 * @param {Act} act
 * @param {string} [label]
 */
function button(a, act, label) {
  const red = a.suit === "H" || a.suit === "D";
  return h("button", { type: "button", class: `action action-${a.action}${red ? " red-suit" : ""}`, dataset: { action: JSON.stringify(a) },
                       "aria-label": spoken(a), onclick: () => act(a) },
           label || describeAction(a));
}

// Buttons, or for a long auction a level list plus the bids of the chosen level. The same
// offer drawn again (a chat line, a name, the clock's deadline arriving) leaves the controls as
// they are, so the control holding the focus keeps it; drawn in another language, the level
// the player chose stays chosen.
/**
 * @param {HTMLElement} box
 * @param {Plain[]} actions
 * @param {Act} act
 */
export function renderActions(box, actions, act) {
  const offer = JSON.stringify(actions);
  const same = box.dataset.offer === offer;
  if (same && box.dataset.lang === locale()) return;
  const chosen = same ? /** @type {HTMLSelectElement | null} */ (box.querySelector("#bid-level"))?.value : undefined;
  Object.assign(box.dataset, { offer, lang: locale() });
  box.replaceChildren();
  const leveled = actions.filter((a) => levelOf(a) !== undefined);
  if (actions.length <= MANY || leveled.length < 2) {
    if (actions.length <= MANY) { for (const a of actions) box.append(button(a, act)); return; }
    const sel = h("select", { id: "action-select", "aria-label": t("act.choose") }, ...actions.map((a, i) => h("option", { value: i }, describeAction(a))));
    box.append(sel, h("button", { type: "button", onclick: () => act(actions[Number(sel.value)]) }, t("act.send")));
    return;
  }
  for (const a of actions.filter((x) => !leveled.includes(x))) box.append(button(a, act));
  const levels = /** @type {(number | string)[]} */ ([...new Set(leveled.map(levelOf))]);
  const bids = h("div", { class: "bids", id: "bid-buttons" });
  const sel = h("select", { id: "bid-level" }, ...levels.map((v) => h("option", { value: String(v) },
    typeof v === "number" ? num(v) : describeAction({ action: "bid", value: v }))));
  const fill = () => {
    const at = leveled.filter((a) => String(levelOf(a)) === sel.value);
    bids.replaceChildren(...at.map((a) => button(a, act, a.suit !== undefined ? suitText(a.suit) : describeAction(a))));
    const hinted = document.body.dataset.hint;          // the hint's outline, back with its level
    for (const b of /** @type {HTMLCollectionOf<HTMLElement>} */ (bids.children)) b.classList.toggle("hinted", !!hinted && b.dataset.action === hinted);
  };
  if (chosen !== undefined && levels.some((v) => String(v) === chosen)) sel.value = chosen;
  sel.addEventListener("change", fill);
  fill();
  box.append(h("div", { class: "bid-picker" }, h("label", {}, h("span", {}, t("act.bid_level")), " ", sel), bids));
}

// A choice of k cards: what is picked so far, and the button that sends it.
// `pick`: {action, field, k, from, chosen: Set}; `act(action)`; `clear()`.
/**
 * @param {HTMLElement} box
 * @param {Choice & { chosen: Set<string> }} pick
 * @param {Act} act
 * @param {() => void} clear
 */
export function renderChoice(box, pick, act, clear) {
  const verb = pick.field === "keep" ? "keep" : pick.action.action;
  const n = pick.chosen.size;
  delete box.dataset.offer;
  const send = h("button", { type: "button", id: "pick-confirm", class: `action action-${pick.action.action}`, disabled: n !== pick.k,
                             // the choice's field now holds the cards chosen (a Cinch rob's `keep`, a discard's `cards`)
                             onclick: () => act(/** @type {Sent} */ ({ ...pick.action, [pick.field]: pick.from.filter((c) => pick.chosen.has(c)) })) },
                 t(`pick.send_${verb}`, { count: pick.k }));
  box.replaceChildren(
    h("div", { class: "pick-help", id: "pick-help", "aria-live": "polite" },
      t(`pick.help_${verb}`, { count: pick.k }), " ", h("b", {}, `${n} / ${pick.k}`)),
    send, h("button", { type: "button", class: "link", id: "pick-clear", onclick: clear, disabled: n === 0 }, t("pick.clear")));
}

// The one legal action that is a choice of several cards, if any: {action, field, k, from}.
/**
 * @param {LegalAction[]} legal
 * @returns {Choice | null}
 */
export function choiceAction(legal) {
  for (const a of legal) {
    const c = choiceOf(a);
    if (c) return { action: a, field: c[0], k: c[1], from: c[2] };
  }
  return null;
}
