// @ts-check
// The felt: drawing one seat's view of a table, whatever the game (docs/web-client.md).
//
// Everything drawn comes from the view the API gave (GET /v1/matches/{id} `table`, or an
// admin replay step's `view` and `hands`): a face-up card is drawn only when that view holds
// it, and only face-up cards carry a card code (`data-card`). Shared by the player's page
// (app.js) and the admin's (admin.js). Words come from words.js, in the player's language.

import { num, t } from "./i18n.js";
import { announceText, cardFace, cardName, comboText, contractText, describeAction, seatText, suitText } from "./words.js";

/** @import { components } from "./api-types" */
/** @import { AnyOf } from "./api.js" */
/** @import { Said } from "./words.js" */
/** @typedef {components["schemas"]} S */
/**
 * One game's view of the table (`table` of GET /v1/matches/{id}, `view` of an admin replay's
 * step): Belote's, Cinch's or Five Hundred's, by `game`.
 * @typedef {S["BeloteView"] | S["CinchView"] | S["FiveHundredView"]} GameView
 */
/**
 * Any game's view, read by what it holds: what only some games show (a Cinch stock, a Five
 * Hundred kitty) is absent from the others'.
 * @typedef {AnyOf<GameView>} Table
 */
/**
 * A trick as a view (Belote's and Cinch's `plays`; Five Hundred's `cards` from the leader) or a
 * replayed record (`cards`) gives it.
 * @typedef {AnyOf<S["Trick"] | NonNullable<S["FiveHundredView"]["trick"]> | S["RecordPlayOut"]["deals"][number]["tricks"][number]>} AnyTrick
 */
/** @typedef {Node | string | null | undefined | false} Child */
/**
 * An element's attributes: `class`, `dataset` (its `data-*`), `on<event>` (a listener), any
 * other set as given (true as present; null, undefined and false left out).
 * @typedef {{ class?: string | null, dataset?: { [key: string]: string | number | boolean | undefined },
 *   [name: string]: unknown }} Attrs
 */

export { contractText, describeAction, suitText };
export const SEATS = ["N", "E", "S", "W"];

// --- tiny DOM helpers --------------------------------------------------------------------

/**
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Attrs} [attrs]
 * @param {...(Child | Child[])} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") el.className = /** @type {string} */ (v);
    else if (k === "dataset") Object.assign(el.dataset, v);
    else if (k.startsWith("on")) el.addEventListener(k.slice(2), /** @type {EventListener} */ (v));
    else el.setAttribute(k, v === true ? "" : /** @type {string} */ (v));
  }
  for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) el.append(c);
  return el;
}

// A face-up card: the only element that carries a card code (`data-card`). A card that can
// be played is a button (reachable by Tab and the arrow keys, named for a screen reader).
/**
 * @param {string} code
 * @param {{ class?: string, pressed?: string | null, onclick?: (() => void) | null }} [extra]
 */
export function cardEl(code, extra = {}) {
  const face = cardFace(code);
  const attrs = { class: `card${face.red ? " red" : ""} ${extra.class || ""}`, dataset: { card: code }, title: cardName(code) };
  const parts = [h("span", { class: "rank", "aria-hidden": "true" }, face.rank), h("span", { class: "suit", "aria-hidden": "true" }, face.suit)];
  if (extra.onclick) {
    return h("button", { ...attrs, type: "button", "aria-label": cardName(code), "aria-pressed": extra.pressed, onclick: extra.onclick }, ...parts);
  }
  return h("span", { ...attrs, role: "img", "aria-label": cardName(code) }, ...parts);
}

/** @type {(cls?: string) => HTMLElement} */
export const backEl = (cls = "") => h("span", { class: `card back ${cls}`, "aria-hidden": "true" });

// --- reading a view, whatever the game -----------------------------------------------------

// The trick as [[seat, card], ...]: Belote and Cinch views send `plays`, Five Hundred's and a
// replayed record's `cards` from the leader, the seats following in the game's own direction
// (Belote counter-clockwise N→W→S→E, Cinch and Five Hundred clockwise N→E→S→W), passing over
// a seat that sits out (a Five Hundred misère contractor's partner).
/**
 * @param {AnyTrick | null | undefined} trick
 * @param {string | null} [game]
 * @param {string | null} [sittingOut]
 * @returns {string[][]}
 */
export function trickPlays(trick, game = null, sittingOut = null) {
  if (!trick) return [];
  if (Array.isArray(trick.plays)) return trick.plays;
  if (Array.isArray(trick.cards)) {
    const step = game === "belote" ? 3 : 1;
    let at = SEATS.indexOf(trick.leader);
    return trick.cards.map((card) => {
      if (SEATS[at] === sittingOut) at = (at + step) % 4;
      const play = [SEATS[at], card];
      at = (at + step) % 4;
      return play;
    });
  }
  return [];
}

// A compact choice (`{"choose": k, "from": [...]}`) in a legal action: [field, k, from] or null.
/**
 * @param {object} a
 * @returns {[string, number, string[]] | null}
 */
export function choiceOf(a) {
  for (const [k, v] of Object.entries(a)) {
    if (v && typeof v === "object" && !Array.isArray(v) && "choose" in v && Array.isArray(v.from)) return [k, v.choose, v.from];
  }
  return null;
}

/** @param {Table | null | undefined} table */
export function auctionOf(table) {
  if (!table) return [];
  if (Array.isArray(table.calls)) return table.calls.map((c) => ({ seat: c.seat, text: describeAction(c) }));
  if (Array.isArray(table.bids)) return cinchBids(table.bids).map(([seat, v]) => ({ seat, text: describeAction(v === null ? { action: "pass" } : { action: "bid", value: v }) }));
  if (Array.isArray(table.auction)) return table.auction.map((c) => ({ seat: c.seat, text: describeAction(c) }));
  return [];
}

// Cinch's auction: each bid a pair [seat, value], a pass [seat, null] (the document says only
// "an array of seats and numbers").
const cinchBids = (/** @type {S["CinchView"]["bids"]} */ bids) => /** @type {[S["Seat"], number | null][]} */ (bids);

// Where the auction stands, in words: the highest bid and who made it, and (Coinche) who
// coinched or surcoinched it. [] when nobody has bid yet.
/** @param {Table | null | undefined} table */
export function auctionState(table) {
  if (!table) return [];
  /** @type {Said[]} */
  const calls = Array.isArray(table.calls) ? table.calls : Array.isArray(table.auction) ? table.auction
    : Array.isArray(table.bids) ? cinchBids(table.bids).map(([seat, v]) => (v === null ? { seat, action: "pass" } : { seat, action: "bid", value: v })) : [];
  let high = -1;
  calls.forEach((c, i) => { if (c.action === "bid") high = i; });
  if (high < 0) return [];
  const out = [t("glance.high_bid", { bid: describeAction(calls[high]), seat: seatText(calls[high].seat) })];
  for (const c of calls.slice(high + 1)) {
    if (c.action === "coinche") out.push(t("glance.coinched_by", { seat: seatText(c.seat) }));
    if (c.action === "surcoinche") out.push(t("glance.surcoinched_by", { seat: seatText(c.seat) }));
  }
  return out;
}

/**
 * @param {Table | null | undefined} table
 * @returns {{ [side: string]: number }}
 */
export function scoresOf(table) {
  if (!table) return {};
  return table.match_score || table.score || {};
}

/** @param {Table | null | undefined} table */
export function dealScoreOf(table) {
  if (!table) return null;
  if (table.points && Object.keys(table.points).length) return { label: t("table.card_points"), values: table.points };
  if (table.tricks_won) return { label: t("table.tricks"), values: table.tricks_won };
  return null;
}

/** @type {(table: Table | null | undefined) => string | null} */
export const trumpOf = (table) => (table && table.contract ? table.contract.trump || null : null);

// A hand in the order players hold it: by suit, trumps first when known, colours
// alternating, each suit from the highest card down in that game's order. A card that plays
// as a trump sorts with the trumps: the Joker first, then in Five Hundred the right and left
// bowers (the jacks of the trump suit and of its colour's other suit), and in Cinch the Left
// Pedro (the five of the trump's colour's other suit) just below the five of trumps.
// In tout atout each suit runs in the trump order.
const SUITS = ["S", "H", "C", "D"];
const PLAIN = "AKQJT98765432";
const BELOTE_TRUMP = "J9ATKQ87";
const BELOTE_PLAIN = "ATKQJ987";
/** @type {{ [suit: string]: string }} */
const SAME_COLOUR = { S: "C", C: "S", H: "D", D: "H" };
/**
 * Where a card stands among the trumps (0 the highest), or null when it is not a trump.
 * @param {string} code
 * @param {string | null} trump
 * @param {string | null | undefined} game
 * @returns {number | null}
 */
export function trumpRank(code, trump, game) {
  if (code === "JK") return 0;
  if (!trump || !SUITS.includes(trump)) return null;
  if (game === "five_hundred") {
    if (code === `J${trump}`) return 1;
    if (code === `J${SAME_COLOUR[trump]}`) return 2;
    return code[1] === trump ? 3 + PLAIN.indexOf(code[0]) : null;
  }
  if (game === "cinch" && code === `5${SAME_COLOUR[trump]}`) return PLAIN.indexOf("5") + 0.5;
  if (code[1] !== trump) return null;
  return game === "belote" ? BELOTE_TRUMP.indexOf(code[0]) : PLAIN.indexOf(code[0]);
}
/**
 * @param {string[]} cards
 * @param {string | null} trump
 * @param {string | null | undefined} game
 */
export function sortHand(cards, trump, game) {
  /** @type {(string | undefined)[]} */
  let suits = SUITS;
  if (trump && SUITS.includes(trump)) {        // the trumps, then the colours alternating
    const red = (/** @type {string | undefined} */ x) => x === "H" || x === "D";
    const other = SUITS.filter((x) => red(x) !== red(trump));
    const same = SUITS.find((x) => x !== trump && red(x) === red(trump));
    suits = [trump, other[0], same, other[1]];
  }
  // Coinche's tout atout (TA): every suit in the trump order, none before the others
  const order = game === "belote" ? (trump === "TA" ? BELOTE_TRUMP : BELOTE_PLAIN) : PLAIN;
  const key = (/** @type {string} */ c) => {
    if (c === "JK") return [-1, 0];
    const rank = trumpRank(c, trump, game);       // a trump is one only when trump is a suit: suits[0]
    return rank === null ? [suits.indexOf(c[1]), order.indexOf(c[0])] : [0, rank];
  };
  return [...cards].sort((a, b) => { const [x, y] = [key(a), key(b)]; return x[0] - y[0] || x[1] - y[1]; });
}

// --- what each game shows beside the hands ------------------------------------------------

/** @type {(code: string, cls?: string) => HTMLElement} */
const mini = (code, cls = "") => cardEl(code, { class: `mini ${cls}` });
/** @type {(label: string, cards: Node[], cls?: string) => HTMLElement} */
const group = (label, cards, cls = "") => h("div", { class: `shown ${cls}` }, h("small", {}, label), ...cards);

// Under each seat: what that seat has shown the table (and, for my own seat, what only I
// know of my own cards: a Five Hundred contractor's discards).
/**
 * @param {Table | null | undefined} table
 * @param {string} seat
 * @param {string} bottom
 */
function seatExtras(table, seat, bottom) {
  /** @type {HTMLElement[]} */
  const out = [];
  if (!table) return out;
  // Belote: the combinations shown at trick 2 (§2.7.4), then kept in view for the deal
  if (Array.isArray(table.combinations_shown) && table.phase === "play") {
    for (const c of table.combinations_shown.filter((x) => x.seat === seat)) {
      out.push(group(`${comboText(c.kind)} (${num(c.value)})`, c.cards.map((x) => mini(x)), "combination"));
    }
  }
  // Cinch: face-up non-trumps (minus those given back when the stock ran out), trumps shown
  if (Array.isArray(table.discards) && table.game === "cinch") {
    const reused = new Set((table.reused || []).map(([, c]) => c));
    const faceUp = table.discards.filter(([s, c]) => s === seat && !reused.has(c)).map(([, c]) => c);
    if (faceUp.length) out.push(group(t("shown.face_up"), faceUp.map((c) => mini(c)), "discards"));
    const back = (table.reused || []).filter(([s]) => s === seat).map(([, c]) => c);
    if (back.length) out.push(group(t("shown.took_back"), back.map((c) => mini(c)), "reused"));
    const shown = (table.shown || []).filter(([s]) => s === seat).map(([, c]) => c);
    if (shown.length) out.push(group(t("shown.trumps_shown"), shown.map((c) => mini(c)), "trumps-shown"));
    if (seat === table.dealer && table.buried) out.push(group(t("shown.buried", { count: table.buried }),
      table.seat === seat && table.buried_cards ? table.buried_cards.map((c) => mini(c, "buried"))
        : Array.from({ length: table.buried }, () => backEl("mini")), "buried"));
  }
  // Five Hundred: the contractor's own discards (the view gives them to him alone)
  if (seat === bottom && table.game === "five_hundred" && table.discarded && table.discarded.length) {
    out.push(group(t("shown.your_discards"), table.discarded.map((c) => mini(c)), "discarded"));
  }
  return out;
}

/**
 * @param {Table | null | undefined} table
 * @param {string} seat
 */
function seatBadges(table, seat) {
  /** @type {HTMLElement[]} */
  const badges = [];
  if (!table) return badges;
  if (table.dealer === seat) badges.push(h("span", { class: "badge" }, t("badge.dealer")));
  if (table.contract && table.contract.seat === seat) badges.push(h("span", { class: "badge gold contract" }, contractText(table.contract)));
  if (table.sitting_out === seat) badges.push(h("span", { class: "badge" }, t("badge.sits_out")));
  // Belote: the kind said at trick 1, and belote / rebelote
  if (table.declared && table.declared[seat] && !(table.combinations_shown || []).length && (table.tricks || []).length === 0) {
    badges.push(h("span", { class: "badge declared" }, t("badge.declares", { kind: comboText(table.declared[seat]) })));
  }
  for (const [s, word] of table.announces || []) {
    if (s === seat) badges.push(h("span", { class: "badge gold announce", dataset: { word } }, announceText(word)));
  }
  // Belote coinche: who coinched or surcoinched during the auction
  if (table.phase === "auction") {
    for (const c of table.calls || []) if (c.seat === seat && (c.action === "coinche" || c.action === "surcoinche")) {
      badges.push(h("span", { class: "badge red", dataset: { word: c.action } }, `${describeAction(c)}!`));
    }
  }
  return badges;
}

// In the middle of the felt, when no trick is on: the auction's state, the turn-up, the
// Five Hundred kitty, the Cinch stock (face up to the robbing dealer alone).
/**
 * @param {Table | null | undefined} table
 * @param {TableOptions} opts
 */
function centrePile(table, opts) {
  if (!table) return null;
  const { onCard } = opts;
  const items = [];
  if (table.phase === "auction") {
    const st = auctionState(table);
    if (st.length) items.push(h("div", { class: "auction-state" }, ...st.map((x) => h("div", {}, x))));
  }
  if (table.turn_up && table.phase === "auction") {
    items.push(h("div", { class: "turn-up" }, h("small", {}, t("shown.turn_up")), cardEl(table.turn_up)));
  }
  if (table.game === "five_hundred" && table.kitty_size) {
    items.push(group(t("term.kitty"), Array.from({ length: table.kitty_size }, () => backEl("mini")), "kitty"));
  }
  if (table.game === "five_hundred" && table.phase === "discard" && opts.kitty && opts.kitty.size) {
    items.push(h("div", { class: "kitty-note" }, t("shown.kitty_marked")));
  }
  if (table.game === "cinch" && Array.isArray(table.stock)) {
    items.push(group(t("shown.the_pack"), table.stock.map((code) => {
      const pick = opts.playable && opts.playable.has(code);
      const chosen = opts.chosen && opts.chosen.has(code);
      return cardEl(code, { class: `${pick ? "legal" : ""} ${chosen ? "chosen" : ""}`, pressed: pick ? String(!!chosen) : null,
                            onclick: pick && onCard ? () => onCard(code) : null });
    }), "stock"));
  } else if (table.game === "cinch" && table.stock_size && table.phase !== "auction") {
    items.push(group(t("shown.stock", { count: table.stock_size }), [backEl("mini")], "stock"));
  }
  return items.length ? h("div", { class: "pile" }, ...items) : null;
}

// Arrow keys move between the playable cards of a hand (one Tab stop for the hand).
/** @param {HTMLElement} hand */
function arrowKeys(hand) {
  const buttons = /** @type {HTMLElement[]} */ ([...hand.querySelectorAll("button.card")]);
  buttons.forEach((b, i) => b.setAttribute("tabindex", i === 0 ? "0" : "-1"));
  hand.addEventListener("keydown", (ev) => {
    const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[ev.key];
    if (!step) return;
    const i = buttons.indexOf(/** @type {HTMLElement} */ (document.activeElement));
    const next = buttons[(i + step + buttons.length) % buttons.length];
    if (next) { ev.preventDefault(); buttons.forEach((b) => b.setAttribute("tabindex", "-1")); next.setAttribute("tabindex", "0"); next.focus(); }
  });
}

// --- the table ----------------------------------------------------------------------------

// Render the felt: four seats around the current trick. `opts`: `bottom` (the seat shown at
// the bottom), `hands` ({seat: cards} shown face up: my hand, or every hand for an admin),
// `playable` (Set of my cards that can be clicked: legal cards, or the cards of a choice),
// `chosen` (Set of cards picked for a choice), `kitty` (Set: my cards that came from the
// kitty), `onCard(code)`, `names` ({seat: label}), `toAct`, `game`.
/**
 * @typedef {object} TableOptions
 * @property {string} [bottom]
 * @property {{ [seat: string]: string[] }} [hands]
 * @property {Set<string> | null} [playable]
 * @property {Set<string> | null} [chosen]
 * @property {Set<string> | null} [kitty]
 * @property {((code: string) => void) | null} [onCard]
 * @property {{ [seat: string]: string }} [names]
 * @property {string[]} [toAct]
 * @property {string} [game]
 * @property {string[][]} [plays] the trick to draw, when not the view's (a completed trick held)
 * @property {string | null} [raised] my card raised by a first tap, played by a second
 */
/**
 * @param {HTMLElement} root
 * @param {Table | null | undefined} table
 * @param {TableOptions} [opts]
 */
export function renderTable(root, table, opts = {}) {
  const active = /** @type {HTMLElement | null} */ (document.activeElement);
  const focused = active && root.contains(active) ? active.dataset.card : null;
  root.replaceChildren();
  const bottom = opts.bottom || "S";
  const i = SEATS.indexOf(bottom);
  const places = { bottom, left: SEATS[(i + 1) % 4], top: SEATS[(i + 2) % 4], right: SEATS[(i + 3) % 4] };
  // the "to play" badge: the seat in turn when the view names one (under Coinche's House rules
  // `to_act` also holds the seats that may coinche out of turn), else every seat to act
  const toAct = new Set(table && table.turn ? [table.turn] : opts.toAct || []);
  const hands = opts.hands || {};
  const plays = opts.plays || trickPlays(table && table.trick, table && table.game);
  const exposed = (table && table.exposed) || {};
  const chosen = opts.chosen || new Set();
  const kitty = opts.kitty || new Set();
  const trump = trumpOf(table);
  const game = opts.game || (table && table.game);
  const { onCard } = opts;

  for (const [place, seat] of Object.entries(places)) {
    const faceUp = hands[seat] || exposed[seat] || null;
    const size = table && table.hand_sizes ? table.hand_sizes[seat] : undefined;
    let cards;
    if (faceUp) {
      cards = sortHand(faceUp, trump, game).map((code) => {
        const mine = seat === bottom && opts.playable;
        const playable = mine && mine.has(code);
        const cls = [playable ? "legal" : mine ? "dim" : "", chosen.has(code) && seat === bottom ? "chosen" : "",
                     kitty.has(code) && seat === bottom ? "from-kitty" : "", opts.raised === code && seat === bottom ? "raised" : "",
                     trump && trumpRank(code, trump, game) !== null ? "trump" : ""].join(" ");
        return cardEl(code, { class: cls, pressed: playable && opts.chosen ? String(chosen.has(code)) : null,
                              onclick: playable && onCard ? () => onCard(code) : null });
      });
    } else {
      cards = Array.from({ length: size || 0 }, () => backEl());
    }
    const extras = seatExtras(table, seat, bottom);
    const name = (opts.names && opts.names[seat]) || "";
    const hand = h("div", { class: `hand${faceUp ? " face-up" : ""}`, dataset: { seat }, role: faceUp ? "group" : null,
                            "aria-label": faceUp ? t("table.hand_of", { seat: seatText(seat) }) : null }, ...cards);
    arrowKeys(hand);
    root.append(h("div", { class: `seat seat-${place}${toAct.has(seat) ? " to-act" : ""}`, dataset: { seat } },
      h("div", { class: "seat-name" }, h("strong", {}, seatText(seat)), " ", name,
        toAct.has(seat) ? h("span", { class: "badge turn" }, t("badge.turn")) : null, ...seatBadges(table, seat),
        !faceUp && size ? h("span", { class: "count", "aria-label": t("table.cards_held", { count: size }) }, `×${num(size)}`) : null),
      h("div", { class: "hand-wrap" }, hand),
      extras.length ? h("div", { class: "seat-extras", dataset: { seat } }, ...extras) : null));
  }

  const centre = h("div", { class: "trick", id: "trick", role: "group", "aria-label": t("table.trick") });
  for (const [place, seat] of Object.entries(places)) {
    const play = plays.find(([s]) => s === seat);
    centre.append(h("div", { class: `slot slot-${place}`, dataset: { seat } }, play ? cardEl(play[1]) : null));
  }
  root.append(centre);
  const pile = centrePile(table, { ...opts, chosen });
  if (pile) root.append(pile);
  if (focused) {
    const again = /** @type {HTMLElement | null} */ (root.querySelector(`button.card[data-card="${focused}"]`));
    if (again) again.focus();
  }
}

// The last trick, drawn on request: who played what, and who took it.
/** @param {Table | null | undefined} table */
export function lastTrickEl(table) {
  const tricks = table && Array.isArray(table.tricks) ? table.tricks : [];
  const last = tricks.length ? tricks[tricks.length - 1] : null;
  if (!last) return h("p", {}, t("table.no_trick_yet"));
  return h("div", {}, h("p", {}, t("table.taken_by", { seat: seatText(last.winner) })),
    h("div", { class: "last-cards" }, ...trickPlays(last, table && table.game).map(([s, c]) => h("div", { class: "last-play" }, h("small", {}, seatText(s)), cardEl(c, { class: "mini" })))));
}
