// @ts-check
// The games in words, in the player's language (docs/web-client.md, "Languages"): cards as
// players of that language write them (French V D R, Russian В Д К Т, Polish W D K A), the
// seats and sides, each legal action, each contract, each event of the log. Every word comes
// from the catalogs (locales/*.json); only card codes, suit symbols and numbers are built here.

import { list, num, t } from "./i18n.js";

/** @import { components } from "./api-types" */
/** @import { AnyOf } from "./api.js" */
/** @typedef {components["schemas"]} S */
/**
 * One legal action of a seat (`legal` of any game's view), as the view offers it.
 * @typedef {NonNullable<(S["BeloteView"] | S["CinchView"] | S["FiveHundredView"])["legal"]>[number]} LegalAction
 */
/**
 * An action in any form the documents give one: a legal action, a hint's, one of a record's
 * deal, a call of an auction (Belote's `calls`, Five Hundred's `auction`), a bid made.
 * @typedef {AnyOf<LegalAction | NonNullable<S["HintOut"]["action"]> | S["RecordDeal"]["actions"][number] | S["BeloteCall"]
 *   | S["FiveHundredView"]["auction"][number] | { action: "bid", value: number | string }
 *   | { action: "bid" } & (S["BeloteBidMade"] | S["CinchBidMade"] | S["FiveHundredBidMade"])>} Said
 */
/**
 * A contract as a view, a replay or an event gives it.
 * @typedef {AnyOf<S["BeloteContract"] | S["CinchContract"] | NonNullable<S["FiveHundredView"]["contract"]>
 *   | NonNullable<S["RecordPlayOut"]["deals"][number]["contract"]> | S["FiveHundredContractWon"]>} Contract
 */
/** An event of a match's log, of any game. @typedef {NonNullable<S["EventOut"]["event"]>} MatchEvent */

const SYMBOL = { S: "♠", H: "♥", D: "♦", C: "♣" };
export const JOKER = "JK";

/** @typedef {string | null | undefined} Word a seat, a suit, a code: null or absent said as nothing */

/** @type {(s: Word) => string} */
export const seatText = (s) => t(`seat.${s}`, { defaultValue: String(s ?? "") });
/** @type {(s: Word) => string} */
export const seatName = (s) => t(`seat_name.${s}`, { defaultValue: seatText(s) });
/** @param {Word} side */
export function sideText(side) {
  if (side && side.length === 2 && /^[NESW]{2}$/.test(side)) return seatText(side[0]) + seatText(side[1]);
  return seatText(side);
}

// A bid's or contract's denomination: a suit's symbol, or no trumps (NT, a Coinche bid's SA, a
// contract's null), or Coinche's all trumps (TA).
/** @param {Word} s */
export function suitText(s) {
  if (s === null || s === undefined || s === "NT" || s === "SA") return t("term.no_trump");
  if (s === "TA") return t("term.all_trumps");
  return SYMBOL[/** @type {keyof SYMBOL} */ (s)] || String(s);
}
/** @type {(s: Word) => string} */
export const suitName = (s) => (s === "NT" || s === "SA" || s == null ? t("term.no_trump")
  : s === "TA" ? t("term.all_trumps") : t(`suit_name.${s}`, { defaultValue: String(s) }));

// Rank and suit as printed on the card in this language; the name for a screen reader.
/** @param {string} code */
export function cardFace(code) {
  if (code === JOKER) return { rank: t("rank.JK"), suit: "★", red: true };
  return { rank: t(`rank.${code[0]}`, { defaultValue: code[0] }), suit: SYMBOL[/** @type {keyof SYMBOL} */ (code[1])] || code[1],
           red: code[1] === "H" || code[1] === "D" };
}
/** @param {string} code */
export function cardName(code) {
  if (code === JOKER) return t("rank_name.JK");
  return t("card.name", { rank: t(`rank_name.${code[0]}`, { defaultValue: code[0] }), suit: t(`suit_of.${code[1]}`) });
}
/** @type {(code: string) => string} */
export const cardShort = (code) => { const f = cardFace(code); return code === JOKER ? f.rank : `${f.rank}${f.suit}`; };

/** @type {(v: number | string | null | undefined) => string} */
const bidLevel = (v) => (v === "capot" ? t("term.capot") : v === "generale" ? t("term.generale") : num(v));

// One legal action (or one call of the auction) in words.
/** @param {Said} a */
export function describeAction(a) {
  switch (a.action) {
    case "play": {
      // every play carries its card (a call of Belote's auction, whose action the document
      // types as any string, is never one)
      let text = t("act.play", { card: cardShort(/** @type {string} */ (a.card)) });
      if (a.suit) text += ` — ${t("act.joker_suit", { suit: suitText(a.suit) })}`;
      if (a.belote === false) text += ` — ${t("act.no_belote")}`;
      return text;
    }
    case "pass": return t("act.pass");
    case "take": return t("act.take");
    case "name": return t("act.name", { suit: suitText(a.suit) });
    case "trump": return t("act.trump", { suit: suitText(a.suit) });
    case "coinche": return t("term.coinche");
    case "surcoinche": return t("term.surcoinche");
    case "declare": return a.combinations === false ? t("act.no_combinations") : t("act.declare");
    case "discard": return t("act.discard");
    case "rob": return t("act.rob");
    case "bid":
      if (a.contract === "misere") return t("term.misere");
      if (a.contract === "open_misere") return t("term.open_misere");
      if (a.tricks != null) return t("act.bid_tricks", { count: a.tricks, suit: suitText(a.suit) });
      if (a.suit !== undefined) return `${bidLevel(a.value)} ${suitText(a.suit)}`;
      return t("act.bid", { value: bidLevel(a.value) });
    default: return t("act.other");
  }
}

// A contract as the table calls it: "80 ♥ — E, coinché".
/** @param {Contract | null | undefined} c */
export function contractText(c) {
  if (!c) return "";
  const bits = [];
  if (c.contract === "misere") bits.push(t("term.misere"));
  else if (c.contract === "open_misere") bits.push(t("term.open_misere"));
  else {
    if (c.value !== undefined && c.value !== null) bits.push(bidLevel(c.value));
    if (c.tricks) bits.push(t("act.bid_tricks", { count: c.tricks, suit: "" }).trim());
    bits.push(suitText(c.trump));
  }
  let text = `${bits.join(" ")} — ${seatText(c.seat)}`;
  if (c.multiplier === 2) text += `, ${t("term.coinched")}`;
  if (c.multiplier && c.multiplier > 2) text += `, ${t("term.surcoinched")}`;
  return text;
}

/** @type {(kind: Word) => string} */
export const comboText = (kind) => t(`combo.${kind}`, { defaultValue: String(kind) });
/** @type {(word: Word) => string} */
export const announceText = (word) => t(`term.${word}`, { defaultValue: String(word) });
/** @type {(p: Word) => string} */
export const phaseText = (p) => t(`phase.${p}`, { defaultValue: String(p ?? "").replace(/_/g, " ") });
/** @type {(g: Word) => string} */
export const gameText = (g) => t(`game.${g}`, { defaultValue: String(g) });
/** @type {(v: unknown) => string} */
export const variantText = (v) => t(`variant.${v}`, { defaultValue: String(v ?? "") });
/** @type {(r: Word) => string} */
export const resultText = (r) => t(`result.${r}`, { defaultValue: String(r ?? "") });
// A game and its variant: "Belote · Classic"; Coinche with TA/SA bids says so.
/** @type {(x: { game: string, options?: { [option: string]: unknown } }) => string} */
export const gameLine = (x) => `${gameText(x.game)}${x.options && x.options.variant ? ` · ${variantText(x.options.variant)}` : ""}`
  + (x.options && x.options.contracts === "suits_ta_sa" ? ` · ${t("variant.ta_sa")}` : "");
/** @type {(values: { [side: string]: number } | null | undefined) => string} */
export const scoreLine = (values) => Object.entries(values || {}).map(([k, v]) => `${sideText(k)} ${num(v)}`).join(" · ");

// An event of the log in words: "В играет 10♥", "S: belote", "NS take the trick".
/** @param {MatchEvent} e */
export function eventText(e) {
  const who = "seat" in e && e.seat ? seatText(e.seat) : "";
  const cards = (/** @type {string[] | undefined} */ cs) => (cs || []).map(cardShort).join(" ");
  switch (e.type) {
    case "card_played": return t("event.card_played", { seat: who, card: cardShort(e.card) })
      + ("announce" in e && e.announce ? ` — ${announceText(e.announce)}` : "");
    case "passed": return t("event.passed", { seat: who });
    case "took": return t("event.took", { seat: who });
    case "named": case "trump_named": return t("event.named", { seat: who, suit: suitText(e.suit) });
    // Cinch's bid is a bare level ("N bids 5"), the others' name a suit or a contract
    case "bid_made": return t("event.bid_made", { seat: who, bid: "value" in e && !("suit" in e) ? bidLevel(e.value)
      : describeAction({ action: "bid", ...e }) });
    case "coinched": return t("event.coinched", { seat: who });
    case "surcoinched": return t("event.surcoinched", { seat: who });
    case "auction_closed": return t("event.auction_closed", { contract: contractText(e.contract) });
    case "contract_won": return t("event.auction_closed", { contract: contractText({ ...e, trump: e.suit }) });
    case "combination_declared": return t("event.combination_declared", { seat: who, kind: comboText(e.kind) });
    case "combinations_declined": return t("event.combinations_declined", { seat: who });
    case "combinations_compared": return e.team ? t("event.combinations_compared", { side: sideText(e.team), points: num(e.points) })
      : t("event.combinations_none");
    case "trick_won": case "trick_taken": return t("event.trick_won", { seat: seatText("seat" in e ? e.seat : e.winner) });
    case "deal_scored": return t("event.deal_scored", { result: resultText(e.result), score: scoreLine(e.score || e.points) });
    case "deal_started": case "hand_dealt":
      return t("event.deal_started", { dealer: seatText(e.dealer) });
    case "thrown_in": return t("event.thrown_in");
    case "non_trumps_discarded": return t("event.discarded_face_up", { seat: who, cards: cards(e.cards) });
    case "trumps_discarded": return t("event.trumps_shown", { seat: who, cards: cards(e.cards) });
    case "cards_drawn": return t("event.cards_drawn", { seat: who, count: (e.cards || []).length });
    case "pack_robbed": return t("event.pack_robbed", { seat: who });
    case "kitty_taken": return t("event.kitty_taken", { seat: who });
    case "discarded": return t("event.discarded", { seat: who });
    case "hand_exposed": return t("event.hand_exposed", { seat: who });
    case "seat_taken": return t("event.seat_taken", { seat: who });
    case "seat_left": return t("event.seat_left", { seat: who });
    case "match_started": return t("event.match_started");
    case "match_created": return t("event.match_created");
    case "deal_finished": return t("event.deal_finished", { deal: num((e.deal ?? 0) + 1) });
    case "match_finished": return e.winner ? t("event.match_won", { side: sideText(e.winner), score: scoreLine(e.match_score) })
      : t("event.match_tied");
    case "action_taken": return t("event.action_taken", { seat: who, action: describeAction(e.action || {}) });
    case "ruling_applied": return t("event.ruling_applied", { ruling: t(`ruling.${e.ruling}`, { defaultValue: e.ruling }) });
    case "chain_renewed": return t("event.chain_renewed");
    case "seed_revealed": return t("event.seed_revealed", { deal: num((e.deal ?? 0) + 1) });
    default: return t("event.other");
  }
}

/** @type {(seats: string[]) => string} */
export const seatsList = (seats) => list(seats.map(seatText));
