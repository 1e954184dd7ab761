// @ts-check
// A match's live stream (docs/live.md): a WebSocket whose messages only say "something
// happened at version V" (the page reads its view again: the rules stay on the server). It
// dedupes at-least-once deliveries, resumes after the last version seen, and reconnects with
// a growing delay; `on` says what the page does: `changed(ms)` (read the view in ms),
// `dealOver(event)` (verify the deals; `event` the record of a deal that finished),
// `chainRenewed()` (give fresh entropy).

import { noteCredits } from "./deal_summary.js";
import { addLog } from "./glance.js";
import { t } from "../shared/i18n.js";
import { $, state } from "../shared/session.js";
import { forgetSession } from "../shared/storage.js";

/** @import { components } from "../shared/live-types" */
/** @import { Session } from "../shared/storage.js" */
/** @typedef {components["schemas"]} L */
/** A message of a match's WebSocket (the AsyncAPI document's `matchSocket`). @typedef {L["Snapshot"] | L["Event"] | L["Error"]} Message */
/** @typedef {{ changed: (ms: number) => void, dealOver: (event: L["DealFinished"] | null) => void, chainRenewed: () => void }} Handlers */

/** @typedef {"idle" | "connecting" | "open" | "closed" | "done"} Conn */

/** @param {Conn} s */
export function setConn(s) {
  const el = $("conn");
  el.dataset.state = s;
  el.textContent = s === "idle" ? "" : t(`conn.${s}`);
  document.body.dataset.connects = String(state.connects);
}

/** @type {Handlers | null} */
let on = null;

/** @param {Handlers | null} [handlers] what the page does (enterMatch gives them, a reconnection keeps them) */
export function connect(handlers = on) {
  on = handlers;
  const id = state.matchId;
  if (!id || !state.session) return;
  const to = /** @type {Handlers} */ (handlers);
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const after = state.lastVersion ? `?after=${state.lastVersion}` : "";
  const ws = new WebSocket(`${proto}://${location.host}/v1/matches/${id}/ws${after}`);
  state.socket = ws;
  setConn("connecting");
  ws.onopen = () => { ws.send(JSON.stringify(/** @satisfies {L["Auth"]} */ ({ type: "auth", token: /** @type {Session} */ (state.session).token }))); };
  ws.onmessage = (msg) => {
    if (ws !== state.socket) return;
    const m = /** @type {Message} */ (JSON.parse(msg.data));
    if (m.type === "snapshot") {
      state.connects += 1; state.retry = 0; setConn("open");
      state.lastVersion = Math.max(state.lastVersion, m.version);
      if (!state.view || m.view.version > state.view.version) to.changed(0);
    } else if (m.type === "event") {
      if (m.version <= state.lastVersion && m.version !== undefined) return;  // at least once: dedupe
      state.lastVersion = m.version;
      if (m.event) addLog(m.version, m.event);
      if (m.event && m.event.type === "deal_scored") noteCredits(m.event);
      if (m.event && m.event.type === "match_finished") state.finished = true;
      if (m.event && (m.event.type === "deal_finished" || m.event.type === "match_finished")) to.dealOver(m.event.type === "deal_finished" ? m.event : null);
      if (m.event && m.event.type === "chain_renewed") {
        state.renewed = Math.max(state.renewed || 0, m.event.chain);
        to.chainRenewed();
      }
      to.changed(40);
    } else if (m.type === "error") {
      if (m.details && m.details.after) state.lastVersion = Math.max(state.lastVersion, /** @type {number} */ (m.details.after));
      if (m.code === "unauthorized") { forgetSession(); state.onUnauthorized(); }
    }
  };
  ws.onclose = (ev) => {
    if (ws !== state.socket) return;
    if (state.finished && ev.code === 1000) { setConn("done"); to.changed(0); return; }
    setConn("closed");
    const delay = Math.min(5000, 250 * 2 ** state.retry);
    state.retry += 1;
    state.reconnectTimer = setTimeout(() => connect(), delay);
  };
}

function drop() {
  if (state.socket) { state.socket.onclose = null; state.socket.close(1000); }
  clearTimeout(state.reconnectTimer);
}

// Reconnect now (after taking a seat: the seat's stream is fixed when a stream opens).
export function reconnect() { drop(); connect(); }

// Leave the match's stream for good (leaving the table).
export function disconnect() { drop(); state.socket = null; setConn("idle"); }
