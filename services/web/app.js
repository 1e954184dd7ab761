// Atout reference web client: the player's page. Plain ES modules, no build step
// (docs/web-client.md): api.js talks to the API, table.js draws the felt, actions.js the
// controls for my legal actions.
//
// Everything it knows comes from the public API: POST /v1/players (a guest), the lobby,
// GET /v1/matches/{id} (my seat's view: hand, `legal`, trick, auction, scores, `to_act`,
// `deadline`) and the live WebSocket. The client never folds events itself: each live
// message only says "something happened at version V", and the view is read again
// (debounced), so the rules stay on the server.

import { api, uuid } from "./api.js";
import { choiceAction, renderActions, renderChoice } from "./actions.js";
import { freshEntropy } from "./fair.js";
import { giveFreshEntropy as giveEntropy, rememberEntropy, renderFair as drawFair, verifyDeals as verify } from "./verified.js";
import { renderHint } from "./hints.js";
import { SEATS, auctionOf, contractText, dealScoreOf, describeAction, h, renderTable, scoresOf } from "./table.js";

const BOTS = ["random", "basic", "expert"];
const STORE_KEY = "atout.session";
const $ = (id) => document.getElementById(id);

const state = {
  session: null,        // {player_id, token, name}
  matchId: null,
  view: null,           // the latest view (GET /v1/matches/{id}), never older than one we had
  lastVersion: 0,       // the last version received on the live stream
  socket: null,
  connects: 0,
  retry: 0,
  finished: false,
  busy: false,
  refreshing: null,
  again: false,
  names: {},
  log: [],
  clockTimer: null,
  reconnectTimer: null,
  pick: null,           // a choice of several cards in progress: {key, chosen: Set}
  hint: null,           // the last hint asked: {match, version, action, reason, used, limit}
  fair: null,           // the match record's deals verified here: {ok, deals, error}
  verifying: null,
};

function loadSession() {
  try { return JSON.parse(localStorage.getItem(STORE_KEY)); } catch { return null; }
}

function call(method, path, body) {
  return api(method, path, body, state.session && state.session.token).catch((err) => {
    if (err.status === 401) { localStorage.removeItem(STORE_KEY); state.session = null; route(); }
    throw err;
  });
}

const verifyDeals = () => verify(state, call, say);
const renderFair = () => drawFair(state);
const giveFreshEntropy = () => giveEntropy(state, call, say);

function show(screen) {
  for (const s of document.querySelectorAll(".screen")) s.hidden = s.id !== `screen-${screen}`;
  document.body.dataset.screen = screen;
}

function say(text, kind = "info") {
  const el = $("message");
  if (!el) return;
  el.textContent = text || "";
  el.dataset.kind = kind;
}

function route() {
  state.session = loadSession();
  $("whoami").textContent = state.session ? state.session.name : "";
  $("signout").hidden = !state.session;
  const m = location.hash.match(/^#\/match\/([\w-]+)/);
  if (!state.session) { leaveMatch(); show("signin"); return; }
  if (m) { enterMatch(m[1]); return; }
  leaveMatch();
  show("lobby");
  refreshLobby();
}

// --- sign in and the lobby ---------------------------------------------------------------------

async function signIn(ev) {
  ev.preventDefault();
  const name = $("signin-name").value.trim() || "Guest";
  try {
    const reg = await api("POST", "/v1/players", { name });
    localStorage.setItem(STORE_KEY, JSON.stringify({ ...reg, name }));
    route();
  } catch (err) { alert(err.message); }
}

function setupCreateForm() {
  for (const sel of document.querySelectorAll("#create-form select[data-seat]")) {
    const seat = sel.dataset.seat;
    for (const v of ["me", "open", ...BOTS.map((b) => `bot:${b}`)]) sel.append(h("option", { value: v }, v));
    sel.value = seat === "S" ? "me" : "bot:basic";
  }
  const game = $("create-game");
  const sync = () => { $("create-variant-label").hidden = game.value !== "belote"; };
  game.addEventListener("change", sync); sync();
}

async function createMatch(ev) {
  ev.preventDefault();
  let options = {};
  const extra = $("create-options").value.trim();
  try { if (extra) options = JSON.parse(extra); } catch { alert("options: not JSON"); return; }
  const game = $("create-game").value;
  if (game === "belote") options.variant = options.variant || $("create-variant").value;
  const deals = $("create-deals").value;
  if (deals) options.deals = Number(deals);
  const seats = {};
  for (const sel of document.querySelectorAll("#create-form select[data-seat]")) seats[sel.dataset.seat] = sel.value;
  const body = { game, options, seats, command_id: uuid() };
  const entropy = Object.values(seats).includes("me") ? freshEntropy() : null;
  if (entropy !== null) body.entropy = entropy;
  const [bid, play] = [$("create-clock-bid").value, $("create-clock-play").value];
  if (bid || play) body.clock = { bid: Number(bid || play), play: Number(play || bid) };
  try {
    const view = await call("POST", "/v1/matches", body);
    if (entropy !== null) rememberEntropy(view.match_id, entropy);
    location.hash = `#/match/${view.match_id}`;
  } catch (err) { alert(`${err.code || "error"}: ${err.message}`); }
}

function seatLabel(holder) {
  if (!holder) return "open";
  if (holder.kind === "bot") return `bot (${holder.level})`;
  if (holder.player_id === (state.session && state.session.player_id)) return "you";
  return holder.name || state.names[holder.player_id] || "player";  // the lobby's rows carry names
}

async function refreshLobby() {
  if (document.body.dataset.screen !== "lobby") return;
  try {
    const [open, mine] = await Promise.all([call("GET", "/v1/matches?status=open"), call("GET", "/v1/matches/mine")]);
    $("open-list").replaceChildren(...(open.length ? open.map((m) => h("li", { dataset: { match: m.match_id } },
      h("span", {}, `${m.game} ${m.options.variant || ""} — ${SEATS.map((s) => `${s}: ${seatLabel(m.seats[s])}`).join(", ")}`),
      ...SEATS.filter((s) => !m.seats[s]).map((s) => h("button", { class: "small", onclick: () => join(m.match_id, s) }, `sit ${s}`))))
      : [h("li", { class: "empty" }, "no open table: create one")]));
    $("mine-list").replaceChildren(...(mine.length ? mine.map((m) => h("li", {},
      h("a", { href: `#/match/${m.match_id}` }, `${m.game} ${m.options && m.options.variant || ""}`),
      ` ${m.status || ""} ${m.score ? Object.entries(m.score).map(([k, v]) => `${k} ${v}`).join(" · ") : ""}`))
      : [h("li", { class: "empty" }, "none yet")]));
  } catch (err) { /* the lobby is best effort */ }
}

async function join(matchId, seat) {
  try {
    const entropy = freshEntropy();
    await call("POST", `/v1/matches/${matchId}/seats/${seat}`, { command_id: uuid(), entropy });
    rememberEntropy(matchId, entropy);
    if (location.hash === `#/match/${matchId}`) { reconnect(true); refresh(); }
    else location.hash = `#/match/${matchId}`;
  } catch (err) { alert(`${err.code || "error"}: ${err.message}`); }
}

// --- a match: the view, the live stream, actions ------------------------------------------------

function enterMatch(id) {
  if (state.matchId === id) return;
  leaveMatch();
  Object.assign(state, { matchId: id, view: null, lastVersion: 0, finished: false, retry: 0, log: [], pick: null,
                         hint: null, fair: null, renewed: 0, entropyChain: 0 });
  show("table");
  $("table").replaceChildren(h("p", { class: "loading" }, "Loading the table…"));
  $("log").replaceChildren();
  renderFair();
  refresh();
  connect();
  verifyDeals();
}

function leaveMatch() {
  if (state.socket) { state.socket.onclose = null; state.socket.close(1000); }
  clearTimeout(state.reconnectTimer);
  state.socket = null; state.matchId = null;
  setConn("idle");
}

function setConn(s) {
  const el = $("conn");
  el.dataset.state = s;
  el.textContent = { open: "● live", connecting: "○ connecting", closed: "○ reconnecting", idle: "", done: "● finished" }[s] || s;
  document.body.dataset.connects = String(state.connects);
}

function connect() {
  const id = state.matchId;
  if (!id || !state.session) return;
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const after = state.lastVersion ? `?after=${state.lastVersion}` : "";
  const ws = new WebSocket(`${proto}://${location.host}/v1/matches/${id}/ws${after}`);
  state.socket = ws;
  setConn("connecting");
  ws.onopen = () => { ws.send(JSON.stringify({ type: "auth", token: state.session.token })); };
  ws.onmessage = (msg) => {
    if (ws !== state.socket) return;
    const m = JSON.parse(msg.data);
    if (m.type === "snapshot") {
      state.connects += 1; state.retry = 0; setConn("open");
      state.lastVersion = Math.max(state.lastVersion, m.version);
      if (!state.view || m.view.version > state.view.version) schedule(0);
    } else if (m.type === "event") {
      if (m.version <= state.lastVersion && m.version !== undefined) return;  // at least once: dedupe
      state.lastVersion = m.version;
      if (m.event) addLog(m.version, m.event);
      if (m.event && m.event.type === "match_finished") state.finished = true;
      if (m.event && (m.event.type === "deal_finished" || m.event.type === "match_finished")) verifyDeals();
      if (m.event && m.event.type === "chain_renewed") {
        state.renewed = Math.max(state.renewed || 0, m.event.chain);
        giveFreshEntropy();
      }
      schedule(40);
    } else if (m.type === "error") {
      if (m.details && m.details.after) state.lastVersion = Math.max(state.lastVersion, m.details.after);
      if (m.code === "unauthorized") { localStorage.removeItem(STORE_KEY); route(); }
    }
  };
  ws.onclose = (ev) => {
    if (ws !== state.socket) return;
    if (state.finished && ev.code === 1000) { setConn("done"); refresh(); return; }
    if (ev.code === 4404) { setConn("idle"); say("no such match", "error"); return; }
    setConn("closed");
    const delay = Math.min(5000, 250 * 2 ** state.retry);
    state.retry += 1;
    state.reconnectTimer = setTimeout(connect, delay);
  };
}

// Reconnect now (after taking a seat: the seat's stream is fixed when a stream opens).
function reconnect(now) {
  if (state.socket) { state.socket.onclose = null; state.socket.close(1000); }
  clearTimeout(state.reconnectTimer);
  if (now) connect();
}

let timer = null;
function schedule(ms) { clearTimeout(timer); timer = setTimeout(refresh, ms); }

// Read the view again; one request at a time, and one more if something happened meanwhile.
async function refresh() {
  if (!state.matchId) return;
  if (state.refreshing) { state.again = true; return state.refreshing; }
  const id = state.matchId;
  state.refreshing = (async () => {
    try {
      const view = await call("GET", `/v1/matches/${id}`);
      if (id !== state.matchId) return;
      if (!state.view || view.version >= state.view.version) { state.view = view; render(); giveFreshEntropy(); }
    } catch (err) {
      if (err.status === 404) say("no such match", "error");
    } finally {
      state.refreshing = null;
      if (state.again) { state.again = false; refresh(); }
    }
  })();
  return state.refreshing;
}

async function act(action) {
  const view = state.view;
  if (!view || state.busy) return;
  state.busy = true; say("");
  try {
    const out = await call("POST", `/v1/matches/${view.match_id}/actions`,
                           { command_id: uuid(), expected_version: view.version, ...action });
    for (const e of out.events || []) if (e.event) addLog(e.version, e.event);
  } catch (err) {
    say(err.code === "stale_version" ? "the table moved on: look again" : `${err.code}: ${err.message}`, "error");
  } finally {
    state.busy = false;
    await refresh();
  }
}

function addLog(version, event) {
  if (state.log.some((l) => l.version === version)) return;
  const who = event.seat ? `${event.seat} ` : "";
  const what = event.card ? `${event.type} ${event.card}` : event.type;
  state.log.push({ version, text: `${who}${what}` });
  if (state.log.length > 40) state.log.shift();
  const log = $("log");
  log.replaceChildren(...state.log.slice().reverse().map((l) => h("li", { dataset: { version: l.version } }, l.text)));
}

async function nameOf(pid) {
  if (!pid || state.names[pid] !== undefined) return;
  state.names[pid] = "";
  try { const p = await call("GET", `/v1/players/${pid}`); state.names[pid] = p.name || "player"; render(); } catch { /* keep "" */ }
}

function render() {
  const view = state.view;
  if (!view) return;
  const me = view.seat;
  const table = view.table;
  const legal = (table && table.legal) || [];
  const myTurn = !!me && (view.to_act || []).includes(me) && view.status === "playing";
  // under a clock the server plays a lone legal action at once (by "automatic"): nothing to click
  const lone = legal.length === 1 ? choiceAction(legal) : null;
  const automatic = myTurn && !!view.clock && legal.length === 1 && !(lone && lone.k !== lone.from.length);
  const plays = legal.filter((a) => a.action === "play" && a.card);
  const playable = new Set(myTurn && !automatic ? plays.map((a) => a.card) : []);
  const names = {};
  for (const s of SEATS) {
    const holder = view.seats[s];
    if (holder && holder.kind === "player") nameOf(holder.player_id);
    names[s] = holder ? (s === me ? "you" : holder.kind === "bot" ? `bot (${holder.level})` : state.names[holder.player_id] || "player") : "open";
  }
  const hands = me && table && table.hand ? { [me]: table.hand } : {};
  const choice = myTurn && !automatic ? choiceAction(legal) : null;
  const pick = choice ? picking(view, choice) : null;
  const kitty = kittyOf(view);
  renderTable($("table"), table, {
    bottom: me || "S", hands, names, toAct: view.to_act, kitty,
    playable: pick ? new Set(choice.from) : playable, chosen: pick ? pick.chosen : null,
    onCard: pick ? (code) => toggle(pick, code) : (code) => playCard(code, plays) });
  document.body.dataset.status = view.status;
  document.body.dataset.myTurn = String(myTurn);
  document.body.dataset.version = String(view.version);
  document.body.dataset.seat = me || "spectator";

  // free seats before the start
  if (view.status === "open") {
    const seatsBox = h("div", { class: "open-seats" }, h("p", {}, "Waiting for players…"),
      ...(me ? [] : SEATS.filter((s) => !view.seats[s]).map((s) => h("button", { onclick: () => join(view.match_id, s) }, `sit ${s}`))));
    $("table").append(seatsBox);
  }

  const phase = table ? table.phase : view.status;
  let status;
  if (view.status === "finished") {
    const w = table && table.winner;
    status = `Match over — ${w ? `${w} win${w.length > 1 ? "" : "s"}` : "a tie"}`;
  } else if (view.status === "open") status = "Waiting for players";
  else if (automatic) status = `Your turn (${phase}): ${describeAction(legal[0])}, your only choice, plays itself`;
  else if (myTurn) status = `Your turn (${phase})`;
  else status = `${phase} — ${(view.to_act || []).join(", ") || "…"} to play`;
  $("status").textContent = status;
  $("status").dataset.status = view.status;
  if (!me) $("status").append(h("span", { class: "badge" }, "spectator"));

  // non-card actions: buttons, a bid picker for a long auction, or a choice of several cards
  const others = myTurn && !automatic ? legal.filter((a) => !(a.action === "play" && a.card)) : [];
  document.body.dataset.automatic = String(automatic);
  if (pick) renderChoice($("actions"), { ...choice, chosen: pick.chosen }, act, () => { pick.chosen.clear(); render(); });
  else renderActions($("actions"), others, act);
  document.body.dataset.picking = pick ? String(choice.k) : "";

  $("scores").replaceChildren(...Object.entries(scoresOf(table)).map(([k, v]) => h("div", { class: "score" }, h("span", {}, k), h("b", {}, String(v)))));
  const ds = dealScoreOf(table);
  if (ds) $("scores").append(h("div", { class: "score sub" }, h("span", {}, `this deal (${ds.label})`),
                                h("b", {}, Object.entries(ds.values).map(([k, v]) => `${k} ${v}`).join(" · "))));
  $("contract").textContent = table && table.contract ? `Contract ${contractText(table.contract)}` : "";
  $("auction").replaceChildren(...auctionOf(table).map((c) => h("li", {}, h("b", {}, c.seat), " ", c.text)));
  $("dispute-panel").hidden = !(me && view.status === "finished");
  $("rematch-panel").hidden = !(me && view.status === "finished");

  renderHint(view, myTurn && !automatic, state.hint, state.busy);
  renderClock(view.deadline);
}

async function askHint() {
  const view = state.view;
  if (!view || state.busy) return;
  $("hint").disabled = true;
  try {
    const out = await call("GET", `/v1/matches/${view.match_id}/hint`);
    state.hint = { match: out.match_id, version: out.version, action: out.action, reason: out.reason,
                   used: out.used, limit: out.limit };
    say("");
  } catch (err) {
    say(`${err.code}: ${err.message}`, "error");
  }
  await refresh();   // the counts moved; the view is the same version, so draw it again
  render();
}

// A choice of k cards (a discard, a rob): the cards picked so far, kept while the view's version stays.
function picking(view, choice) {
  const key = `${view.version}:${choice.field}`;
  if (!state.pick || state.pick.key !== key) state.pick = { key, chosen: new Set() };
  for (const c of [...state.pick.chosen]) if (!choice.from.includes(c)) state.pick.chosen.delete(c);
  return state.pick;
}

function toggle(pick, code) {
  const choice = choiceAction((state.view.table && state.view.table.legal) || []);
  if (pick.chosen.has(code)) pick.chosen.delete(code);
  else if (choice && pick.chosen.size < choice.k) pick.chosen.add(code);
  render();
}

// Five Hundred: the contractor holding the kitty sees which of his cards came from it
// (`kitty_taken`, in his own view only).
function kittyOf(view) {
  const t = view.table;
  if (!t || view.game !== "five_hundred" || t.phase !== "discard" || !(t.kitty_taken || []).length) return null;
  return new Set(t.kitty_taken);
}

function playCard(code, plays) {
  const options = plays.filter((a) => a.card === code);
  if (!options.length) return;
  // the plainest form first (Belote's "belote": false, a Joker's named suit: pick below)
  options.sort((a, b) => Object.keys(a).length - Object.keys(b).length);
  const needsChoice = options.filter((a) => Object.keys(a).length === Object.keys(options[0]).length);
  if (needsChoice.length > 1) {
    const box = $("actions");
    box.replaceChildren(...needsChoice.map((a) => h("button", { class: "action action-play", dataset: { action: JSON.stringify(a) },
                                                               onclick: () => act(a) }, describeAction(a))));
    return;
  }
  act(options[0]);
}

function renderClock(deadline) {
  clearInterval(state.clockTimer);
  const el = $("clock");
  if (!deadline) { el.hidden = true; return; }
  const at = typeof deadline === "number" ? deadline * (deadline < 1e12 ? 1000 : 1) : Date.parse(deadline);
  const tick = () => {
    const left = Math.max(0, Math.round((at - Date.now()) / 1000));
    el.textContent = `⏱ ${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
    el.classList.toggle("urgent", left <= 10);
  };
  el.hidden = false; tick();
  state.clockTimer = setInterval(tick, 1000);
}

// After the match: the same game, options and seat holders again. However many players ask,
// the server makes one new match (its command id is derived from this one), so all land on it.
async function rematch() {
  try {
    const entropy = freshEntropy();
    const created = await call("POST", `/v1/matches/${state.matchId}/rematch`, { entropy });
    rememberEntropy(created.match_id, entropy);
    location.hash = `#/match/${created.match_id}`;
  } catch (err) { say(`${err.code}: ${err.message}`, "error"); }
}

async function fileDispute(ev) {
  ev.preventDefault();
  try {
    const d = await call("POST", `/v1/matches/${state.matchId}/disputes`,
                         { deal: Number($("dispute-deal").value), reason: $("dispute-reason").value, command_id: uuid() });
    say(`dispute filed (${d.dispute_id || d.id || "ok"})`);
  } catch (err) { say(`${err.code}: ${err.message}`, "error"); }
}

function boot() {
  $("signin-form").addEventListener("submit", signIn);
  $("create-form").addEventListener("submit", createMatch);
  $("watch-form").addEventListener("submit", (ev) => { ev.preventDefault(); location.hash = `#/match/${$("watch-id").value.trim()}`; });
  $("lobby-refresh").addEventListener("click", refreshLobby);
  $("dispute-form").addEventListener("submit", fileDispute);
  $("rematch").addEventListener("click", rematch);
  $("hint").addEventListener("click", askHint);
  $("signout").addEventListener("click", async () => {
    try { await call("DELETE", "/v1/players/me/token"); } catch { /* signed out anyway */ }
    localStorage.removeItem(STORE_KEY); location.hash = "#/"; route();
  });
  setupCreateForm();
  window.addEventListener("hashchange", route);
  setInterval(refreshLobby, 5000);
  // for tests and the curious: the live state, and a way to drop the socket
  window.atout = { state, dropSocket: () => state.socket && state.socket.close(4000, "test") };
  route();
}

if (document.body && document.body.dataset.page === "play") boot();
