// @ts-check
// Cards that move on the felt (docs/web-client.md "Settings"): a played card travels from its
// seat to the trick, and a completed trick stays a moment on the felt before it goes to its
// winner. Bots answer in milliseconds, and the view read after the fourth card already holds
// an empty trick: without the hold nobody would see that card. The held trick is drawn from
// the view's own `tricks` (the last one taken), so nothing is shown that the view did not give.
// The speed is a setting; "off" draws each view as it comes, and a browser asking for reduced
// motion gets no movement (a shorter hold only).

import { loadSettings } from "./storage.js";
import { trickPlays } from "./table.js";

/** @import { Table } from "./table.js" */

/** How long a completed trick stays, and how long a card takes to move, by speed (ms). */
const SPEEDS = { off: [0, 0], fast: [500, 150], normal: [1000, 300], slow: [1800, 500] };

const reduced = () => typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion:reduce)").matches;

function timing() {
  const [hold, move] = SPEEDS[loadSettings().motion] || SPEEDS.normal;
  return reduced() ? { hold: Math.min(hold, 600), move: 0 } : { hold, move };
}

/**
 * What the felt showed last, and the completed trick held on it.
 * @type {{ match: string | null, deal: number, tricks: number, drawn: Set<string>,
 *   held: { plays: string[][], winner: string | null, leaving: boolean, deal?: number } | null, timer: number | undefined }}
 */
const felt = { match: null, deal: -1, tricks: 0, drawn: new Set(), held: null, timer: undefined };

/**
 * The plays to draw in the middle of the felt for this view: the view's trick, or the trick
 * just completed while it is held. `redraw` is called when the hold ends.
 * @param {string} match
 * @param {Table | null | undefined} table
 * @param {() => void} redraw
 * @returns {{ plays: string[][], held: boolean }}
 */
export function trickToDraw(match, table, redraw) {
  const tricks = table && Array.isArray(table.tricks) ? table.tricks : [];
  const deal = table ? table.deal_index : -1;
  if (felt.match !== match) {             // a table just opened: what is there is not news
    clearTimeout(felt.timer);
    Object.assign(felt, { match, deal, tricks: tricks.length, drawn: new Set(), held: null });
  }
  if (deal === felt.deal && tricks.length > felt.tricks && !felt.held) {
    const last = tricks[tricks.length - 1];
    hold(trickPlays(last, table && table.game), last.winner || null, redraw);
  }
  // a new deal drops a held trick, unless it is the last trick of the deal before it
  if (deal !== felt.deal && !(felt.held && felt.held.deal === deal - 1)) { clearTimeout(felt.timer); felt.held = null; }
  felt.deal = deal;
  felt.tricks = tricks.length;
  document.body.dataset.trickHeld = String(!!felt.held);
  if (felt.held) return { plays: felt.held.plays, held: true };
  return { plays: trickPlays(table && table.trick, table && table.game), held: false };
}

/**
 * Hold a completed trick on the felt, then sweep it to its winner and `redraw`.
 * @param {string[][]} plays
 * @param {string | null} winner
 * @param {() => void} redraw
 * @param {number} [deal] the deal it ends, when it is a deal's last trick
 */
function hold(plays, winner, redraw, deal) {
  const { hold: ms, move } = timing();
  if (!ms) return;
  clearTimeout(felt.timer);
  felt.held = { plays, winner, leaving: false, deal };
  felt.timer = window.setTimeout(() => {
    if (felt.held) felt.held.leaving = true;
    sweep(move);
    felt.timer = window.setTimeout(() => { felt.held = null; redraw(); }, move);
  }, ms);
}

/**
 * A deal is over (its record, from the live stream): its last trick is held as any other,
 * though the view read after it is the next deal's and no longer holds it.
 * @param {string} match
 * @param {number} deal
 * @param {string[][]} plays
 * @param {string | null} winner
 * @param {() => void} redraw
 */
export function holdLastTrick(match, deal, plays, winner, redraw) {
  // the view may be the next deal's already (my own last card: its answer came first), as
  // long as no trick of that deal has been played
  const now = felt.deal === deal || (felt.deal === deal + 1 && felt.tricks === 0);
  if (felt.match !== match || !now || felt.held || !plays.length) return;
  hold(plays, winner, redraw, deal);
  redraw();
}

/**
 * After the felt is drawn: each card new in the trick travels from its seat, and a trick
 * that is leaving stays where its sweep left it (a redraw meanwhile must not bring it back).
 * @param {HTMLElement} root
 */
export function moveCards(root) {
  const { move } = timing();
  const cards = /** @type {HTMLElement[]} */ ([...root.querySelectorAll("#trick [data-card]")]);
  const now = new Set(cards.map((c) => c.dataset.card || ""));
  if (felt.held && felt.held.leaving) {
    for (const c of cards) c.style.opacity = "0";
  } else if (move) {
    for (const card of cards) {
      if (felt.drawn.has(card.dataset.card || "")) continue;
      const seat = /** @type {HTMLElement | null} */ (card.closest(".slot"));
      const from = seat && root.querySelector(`.seat[data-seat="${seat.dataset.seat}"] .hand-wrap`);
      if (from) card.animate([{ transform: offset(card, from) }, { transform: "none" }], { duration: move, easing: "ease-out" });
    }
  }
  felt.drawn = now;
}

// The held trick's cards go to the seat that took it.
/** @param {number} move */
function sweep(move) {
  const held = felt.held;
  const root = document.getElementById("table");
  if (!held || !root) return;
  const to = held.winner && root.querySelector(`.seat[data-seat="${held.winner}"] .hand-wrap`);
  for (const card of /** @type {HTMLElement[]} */ ([...root.querySelectorAll("#trick [data-card]")])) {
    if (!move || !to) { card.style.opacity = "0"; continue; }
    card.animate([{ transform: "none", opacity: 1 }, { transform: offset(card, to), opacity: 0 }],
      { duration: move, easing: "ease-in", fill: "forwards" });
  }
}

/** The translation that puts `card` over the middle of `place`. @param {Element} card @param {Element} place */
function offset(card, place) {
  const a = card.getBoundingClientRect(), b = place.getBoundingClientRect();
  const dx = b.left + b.width / 2 - (a.left + a.width / 2), dy = b.top + b.height / 2 - (a.top + a.height / 2);
  return `translate(${Math.round(dx)}px, ${Math.round(dy)}px)`;
}
