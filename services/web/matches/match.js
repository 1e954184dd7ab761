// @ts-check
// A match on the player's page: the view, the live stream, my actions (docs/web-client.md).
//
// Everything it knows comes from the public API: GET /v1/matches/{id} (my seat's view: hand,
// `legal`, trick, auction, scores, `to_act`, `deadline`), its events and the live WebSocket.
// The client never folds events itself: each live message only says "something happened at
// version V", and the view is read again (debounced), so the rules stay on the server.

import { uuid } from "../shared/api.js";
import { choiceAction, renderActions, renderChoice } from "./actions.js";
import { addLog, drawLog, drawSheet, renderClock, renderGlance } from "./glance.js";
import { connect, disconnect, reconnect, setConn } from "./match_live.js";
import { renderHint } from "./hints.js";
import { num, t } from "../shared/i18n.js";
import { join } from "./lobby.js";
import { $, call, errorText, holderLabel, say, show, state } from "../shared/session.js";
import { chatControls as drawChat, closeChat, openChat } from "../chat/chat.js";
import { renderInvite } from "../social/social.js";
import { SEATS, auctionOf, dealScoreOf, h, lastTrickEl, renderTable, scoresOf } from "../shared/table.js";
import { holdLastTrick, moveCards, trickToDraw } from "../shared/trick_motion.js";
import { hideDealSummary, lastTrickOf, noteView, showDealSummary } from "./deal_summary.js";
import { quietCue, turnCue } from "../shared/cues.js";
import { playCard, raisedCard } from "./card_taps.js";
import { giveFreshEntropy as giveEntropy, renderFair as drawFair, verifyDeals as verify } from "./verified.js";
import { cardName, contractText, describeAction, phaseText, scoreLine, seatText, seatsList, sideText } from "../shared/words.js";

/** @import { components, paths } from "../shared/api-types" */
/** @import { AnyOf, Failure } from "../shared/api.js" */
/** @import { Choice, Sent } from "./actions.js" */
/** @import { Conn } from "./match_live.js" */
/** @import { Table } from "../shared/table.js" */
/** @import { LegalAction } from "../shared/words.js" */
/** @typedef {components["schemas"]["MatchViewOut"]} MatchView */
/** @import { components as live } from "../shared/live-types" */
/** @typedef {live["schemas"]["DealFinished"]} DealFinished */
/** @import { Play } from "./card_taps.js" */
/** @typedef {NonNullable<paths["/v1/matches/{match_id}/actions"]["post"]["requestBody"]>["content"]["application/json"]} ActionBody */

const verifyDeals = () => verify(state, call, say);
export const renderFair = () => drawFair(state);
const giveFreshEntropy = () => giveEntropy(state, call, say);

/** @param {string} id */
export function enterMatch(id) {
  if (state.matchId === id) return;
  leaveMatch();
  Object.assign(state, { matchId: id, view: null, lastVersion: 0, finished: false, retry: 0, log: [], sheet: [], pick: null,
                         hint: null, naming: null, fair: null, renewed: 0, entropyChain: 0, showLast: false });
  show("table");
  say("");
  for (const key of ["status", "myTurn", "version", "seat", "game", "automatic", "picking"]) delete document.body.dataset[key];
  $("glance").replaceChildren();
  $("table").replaceChildren(h("p", { class: "loading" }, t("table.loading")));
  $("log").replaceChildren(); drawSheet();
  for (const other of /** @type {const} */ (["last-trick-box", "replay-trick"])) $(other).replaceChildren();   // no card of another match stays
  renderFair();
  refresh();
  hideDealSummary();
  connect({ changed: schedule, dealOver, chainRenewed: giveFreshEntropy });
  verifyDeals();
  history(id);
  openChat(id);
}

// The log and the score sheet from the events so far (the live stream brings the rest).
/** @param {DealFinished | null} finished the deal just over, when the live stream says so */
function dealOver(finished) {
  verifyDeals();
  if (!finished || !state.view) return;
  const last = lastTrickOf(finished, state.view.game);
  holdLastTrick(state.view.match_id, finished.deal, last.plays, last.winner, render);
  showDealSummary(finished, state.view.game);
}

/** @param {string} id */
async function history(id) {
  try {
    const out = /** @type {components["schemas"]["EventsOut"]} */ (await call("GET", `/v1/matches/${id}/events?after=0`));
    if (id !== state.matchId) return;
    const events = Array.isArray(out) ? out : out.events || [];
    for (const e of events.slice(-200)) if (e.event) addLog(e.version, e.event);
  } catch { /* best effort: the live stream goes on */ }
}

export function leaveMatch() {
  disconnect();
  clearInterval(state.clockTimer);
  closeChat();
  quietCue();
  state.matchId = null;
}

// The live stream says something happened: read the view again after `ms` (debounced).
/** @type {number | undefined} */
let timer;
/** @param {number} ms */
function schedule(ms) { clearTimeout(timer); timer = setTimeout(refresh, ms); }

// Read the view again; one request at a time, and one more if something happened meanwhile.
// A newer view clears the message line: an error said about an older table no longer holds.
export async function refresh() {
  if (!state.matchId) return;
  if (state.refreshing) { state.again = true; return state.refreshing; }
  const id = state.matchId;
  state.refreshing = (async () => {
    try {
      const view = /** @type {MatchView} */ (await call("GET", `/v1/matches/${id}`));
      if (id !== state.matchId) return;
      if (!state.view || view.version >= state.view.version) {
        if (view.version > state.saidAt) say("");
        state.view = view; render(); renderFair(); giveFreshEntropy();   // renderFair: my seat may be new
      }
    } catch (err) {
      if (/** @type {Failure} */ (err).status === 404) say(t("error.unknown_match"), "error");
    } finally {
      state.refreshing = null;
      if (state.again) { state.again = false; refresh(); }
    }
  })();
  return state.refreshing;
}

/** @param {Sent} action */
async function act(action) {
  const view = state.view;
  if (!view || state.busy) return;
  state.busy = true; say("");
  try {
    const out = /** @type {components["schemas"]["CommandOut"]} */ (await call("POST", `/v1/matches/${view.match_id}/actions`,
      /** @satisfies {ActionBody} */ ({ command_id: uuid(), expected_version: view.version, ...action })));
    for (const e of out.events || []) if (e.event) addLog(e.version, e.event);
  } catch (thrown) {
    const err = /** @type {Failure} */ (thrown);
    say(err.code === "stale_version" ? t("error.stale_version") : errorText(err), "error");
  } finally {
    state.busy = false;
    state.saidAt = Infinity;       // what was said of this action holds for the view it brings
    await refresh();
    state.saidAt = state.view ? state.view.version : 0;
  }
}

/** @param {string | null} pid */
async function nameOf(pid) {
  if (!pid || state.names[pid] !== undefined) return;
  state.names[pid] = "";
  try { const p = /** @type {components["schemas"]["PlayerOut"]} */ (await call("GET", `/v1/players/${pid}`)); state.names[pid] = p.name || t("seat_holder.player"); render(); } catch { /* keep "" */ }
}

// Said to a screen reader when it becomes my turn, and what the others just did.
let lastSaid = "";
/**
 * @param {MatchView} view
 * @param {boolean} myTurn
 * @param {AnyOf<LegalAction>[]} legal
 */
function announce(view, myTurn, legal) {
  const cards = legal.filter((a) => a.action === "play" && a.card).length;
  const text = myTurn ? t("announce.your_turn", { phase: phaseText(view.table && view.table.phase), count: cards }) : "";
  if (text !== lastSaid) $("announce").textContent = text;
  lastSaid = text;
}

export function render() {
  const view = state.view;
  if (!view) return;
  const me = view.seat;
  /** @type {Table} */
  const table = view.table;
  /** @type {AnyOf<LegalAction>[]} */
  const legal = (table && table.legal) || [];
  const myTurn = !!me && (view.to_act || []).includes(me) && view.status === "playing";
  // under a clock the server plays a lone legal action at once (by "automatic"): nothing to click
  const lone = legal.length === 1 ? choiceAction(legal) : null;
  const automatic = myTurn && !!view.clock && legal.length === 1 && !(lone && lone.k !== lone.from.length);
  const plays = /** @type {Play[]} */ (legal.filter((a) => a.action === "play" && a.card));
  // while a completed trick is held on the felt, my next card waits for it to go
  const trick = trickToDraw(view.match_id, table, render);
  noteView(table);
  const playable = new Set(myTurn && !automatic && !trick.held ? plays.map((a) => a.card) : []);
  /** @type {{ [seat: string]: string }} */
  const names = {};
  for (const s of SEATS) {
    const holder = view.seats[s];
    if (holder && holder.kind === "player") nameOf(holder.player_id);
    names[s] = s === me ? t("seat_holder.you") : holderLabel(holder);
  }
  const hands = me && table && table.hand ? { [me]: table.hand } : {};
  const choice = myTurn && !automatic ? choiceAction(legal) : null;
  const pick = choice ? picking(view, choice) : null;
  const kitty = kittyOf(view);
  renderTable($("table"), table, {
    bottom: me || "S", hands, names, toAct: view.to_act, kitty, game: view.game, plays: trick.plays,
    raised: raisedCard(view.version),
    playable: choice && pick ? new Set(choice.from) : playable, chosen: pick ? pick.chosen : null,
    onCard: pick ? (code) => toggle(pick, code) : (code) => playCard(code, plays, { act, render }) });
  moveCards($("table"));
  document.body.dataset.status = view.status;
  document.body.dataset.myTurn = String(myTurn);
  document.body.dataset.version = String(view.version);
  document.body.dataset.seat = me || "spectator";
  document.body.dataset.game = view.game;

  // free seats before the start
  if (view.status === "open") {
    const seatsBox = h("div", { class: "open-seats" }, h("p", {}, t("table.waiting")),
      ...(me ? [] : SEATS.filter((s) => !view.seats[s]).map((s) => h("button", { type: "button",
        onclick: () => join(view.match_id, s, () => { reconnect(); refresh(); }) }, t("lobby.sit", { seat: seatText(s) })))));
    $("table").append(seatsBox);
  }

  const phase = phaseText(table ? table.phase : view.status);
  let status;
  if (view.status === "finished") {
    const w = table && table.winner;
    status = w ? t("status.won", { side: sideText(w) }) : t("status.tie");
  } else if (view.status === "open") status = t("table.waiting");
  else if (view.status !== "playing") status = t(`mstatus.${view.status}`, { defaultValue: view.status });
  else if (automatic) status = t("status.automatic", { phase, action: describeAction(legal[0]) });
  else if (myTurn) status = t("status.your_turn", { phase });
  else {
    const who = table && table.turn ? [table.turn] : view.to_act || [];     // as the glance line says it
    status = t("status.others", { phase, seats: seatsList(who) || "…", count: who.length });
  }
  $("status").textContent = status;
  turnCue(myTurn && !automatic, status);
  $("status").dataset.status = view.status;
  if (!me) $("status").append(h("span", { class: "badge" }, t("badge.spectator")));
  renderGlance(view, myTurn && !automatic);
  announce(view, myTurn && !automatic, legal);

  // non-card actions: buttons, a bid picker for a long auction, or a choice of several cards
  const others = myTurn && !automatic ? legal.filter((a) => !(a.action === "play" && a.card)) : [];
  const naming = myTurn && !automatic && state.naming && state.naming.version === view.version ? state.naming.options : null;
  document.body.dataset.automatic = String(automatic);
  if (choice && pick) renderChoice($("actions"), { ...choice, chosen: pick.chosen }, act, () => { pick.chosen.clear(); render(); });
  // a choice of cards, when there is one, is drawn above: these are sent as offered
  else renderActions($("actions"), /** @type {Parameters<typeof renderActions>[1]} */ (naming || others), act);
  document.body.dataset.picking = choice && pick ? String(choice.k) : "";

  $("scores").replaceChildren(...Object.entries(scoresOf(table)).map(([k, v]) => h("div", { class: "score", dataset: { side: k } },
    h("span", {}, sideText(k)), h("b", {}, num(v)))));
  const ds = dealScoreOf(table);
  if (ds) $("scores").append(h("div", { class: "score sub" }, h("span", {}, t("table.this_deal", { what: ds.label })),
                                h("b", {}, scoreLine(ds.values))));
  // The review of the last deal that is over (GET …/deals/{d}/analysis), beside its replay.
  const over = ["finished", "abandoned", "void"].includes(view.status);
  const reviewed = table ? (over ? table.deal_index : table.deal_index - 1) : -1;
  if (reviewed >= 0) $("scores").append(h("a", { class: "review-link", href: `#/replay/${view.match_id}/${reviewed}` },
                                          t("review.open", { deal: num(reviewed + 1) })));
  $("contract").textContent = table && table.contract ? t("table.contract", { contract: contractText(table.contract) }) : "";
  $("auction").replaceChildren(...auctionOf(table).map((c) => h("li", {}, h("b", {}, seatText(c.seat)), " ", c.text)));
  $("dispute-panel").hidden = !(me && view.status === "finished");
  $("rematch-panel").hidden = !(me && view.status === "finished");
  $("last-trick").hidden = !(table && (table.tricks || []).length);
  $("last-trick-box").hidden = !state.showLast || $("last-trick").hidden;
  $("last-trick").setAttribute("aria-expanded", String(state.showLast));
  $("last-trick-box").replaceChildren(...(state.showLast ? [lastTrickEl(table)] : []));

  renderHint(view, myTurn && !automatic, state.hint, state.busy);
  renderInvite(view);
  drawChat();
  renderClock(view.deadline);
  drawSheet();
}

export function redraw() { render(); drawLog(); drawSheet(); renderFair(); setConn(/** @type {Conn} */ ($("conn").dataset.state)); }


// A choice of k cards (a discard, a rob): the cards picked so far, kept while the view's version stays.
/**
 * @param {MatchView} view
 * @param {Choice} choice
 */
function picking(view, choice) {
  const key = `${view.version}:${choice.field}`;
  if (!state.pick || state.pick.key !== key) state.pick = { key, chosen: new Set() };
  for (const c of [...state.pick.chosen]) if (!choice.from.includes(c)) state.pick.chosen.delete(c);
  return state.pick;
}

/**
 * @param {{ chosen: Set<string> }} pick
 * @param {string} code
 */
function toggle(pick, code) {
  const view = /** @type {MatchView} */ (state.view);       // a card is picked on the view drawn
  const choice = choiceAction((view.table && view.table.legal) || []);
  if (pick.chosen.has(code)) pick.chosen.delete(code);
  else if (choice && pick.chosen.size < choice.k) pick.chosen.add(code);
  $("announce").textContent = t(pick.chosen.has(code) ? "announce.picked" : "announce.unpicked", { card: cardName(code) });
  render();
}

// Five Hundred: the contractor holding the kitty sees which of his cards came from it
// (`kitty_taken`, in his own view only).
/** @param {MatchView} view */
function kittyOf(view) {
  /** @type {Table} */
  const tb = view.table;
  if (!tb || view.game !== "five_hundred" || tb.phase !== "discard" || !(tb.kitty_taken || []).length) return null;
  return new Set(tb.kitty_taken);
}

export function toggleLastTrick() { state.showLast = !state.showLast; render(); }
