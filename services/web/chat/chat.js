// @ts-check
// The table chat (docs/chat.md): the match's chat stream (WS /v1/matches/{id}/chat/ws, from the
// first message), each message in the reader's language (a preset is a code the catalogs
// translate), a button per preset, and free text when it is mine to write: before the start,
// after the end, or as a spectator (the server refuses it to a seat during play).

import { uuid } from "../shared/api.js";
import { t } from "../shared/i18n.js";
import { $, call, errorText, say, state } from "../shared/session.js";
import { openReport } from "./reports.js";
import { h } from "../shared/table.js";
import { seatText } from "../shared/words.js";

/** @import { components } from "../shared/api-types" */
/** @import { components as Live } from "../shared/live-types" */
/** @import { Session } from "../shared/storage.js" */
/** @typedef {Live["schemas"]} L */
/** @typedef {NonNullable<components["schemas"]["ChatIn"]["preset"]>} Preset */
/** A message of the chat's WebSocket (the AsyncAPI document's `chatSocket`). @typedef {L["ChatSnapshot"] | L["ChatEvent"] | L["Error"]} Message */

/**
 * The chat followed: its socket, the last version read, the view (what I may say), the messages.
 * @type {{ socket: WebSocket | null, id: string | null, after: number, view: L["ChatView"] | null, messages: L["ChatMessage"][],
 *   retry: number, timer: number | undefined }}
 */
const chat = { socket: null, id: null, after: 0, view: null, messages: [], retry: 0, timer: undefined };

/** @param {string} id */
export function openChat(id) {
  closeChat();
  Object.assign(chat, { id, after: 0, view: null, messages: [], retry: 0 });
  $("chat-log").replaceChildren();
  $("chat-presets").replaceChildren();
  connect();
}

export function closeChat() {
  clearTimeout(chat.timer);
  if (chat.socket) { chat.socket.onclose = null; chat.socket.close(1000); }
  chat.socket = null; chat.id = null;
}

function connect() {
  const id = chat.id;
  if (!id || !state.session) return;
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${proto}://${location.host}/v1/matches/${id}/chat/ws?after=${chat.after}`);
  chat.socket = ws;
  ws.onopen = () => ws.send(JSON.stringify(/** @satisfies {L["Auth"]} */ ({ type: "auth", token: /** @type {Session} */ (state.session).token })));
  ws.onmessage = (msg) => {
    if (ws !== chat.socket) return;
    const m = /** @type {Message} */ (JSON.parse(msg.data));
    if (m.type === "snapshot") { chat.view = m.view; chat.retry = 0; chatControls(); }
    else if (m.type === "event" && m.version > chat.after) {
      chat.after = m.version;
      if (m.event && m.event.type === "chat_message") { chat.messages.push(m.event); drawLog(); }
    }
  };
  ws.onclose = (ev) => {
    if (ws !== chat.socket || [4401, 4403, 4404].includes(ev.code)) return;
    chat.timer = setTimeout(connect, Math.min(5000, 250 * 2 ** chat.retry++));   // resync, a dropped socket
  };
}

/** @type {(m: { preset: string | null, text: string | null }) => string} */
const said = (m) => (m.preset ? t(`chat_preset.${m.preset}`, { defaultValue: m.preset }) : m.text || "");

// Each message with its sender; another's has a button to report it to the admins.
function drawLog() {
  const me = state.session && state.session.player_id;
  $("chat-log").replaceChildren(...chat.messages.slice(-50).map((m) => {
    const who = m.seat ? seatText(m.seat) : m.name || t("chat.spectator");
    const report = m.player_id && m.player_id !== me && m.message_id
      ? h("button", { type: "button", class: "small report", "aria-label": t("report.message_label", { who: m.name || who }),
                      onclick: () => openReport({ match_id: /** @type {string} */ (chat.id), message_id: m.message_id },
                                                t("report.title_message", { who: m.name || who, said: said(m) })) }, t("report.message"))
      : null;
    return h("li", { dataset: { preset: m.preset || "", channel: m.channel, message: m.message_id || "" } },
      h("b", {}, who), m.seat && m.name ? ` (${m.name})` : "", ": ", said(m), report ? " " : "", report);
  }));
}

// The presets as buttons; the free-text form only when the server will take it from me now.
export function chatControls() {
  const view = chat.view;
  if (!view) return;
  $("chat-presets").replaceChildren(...(view.presets || []).map((p) => h("button", { type: "button", class: "small preset", dataset: { preset: p },
    onclick: () => send({ preset: /** @type {Preset} */ (p) }) }, t(`chat_preset.${p}`, { defaultValue: p }))));
  const match = state.view;
  const playing = match && ["playing", "suspended"].includes(match.status);
  $("chat-form").hidden = !!(match && match.seat && playing);
  drawLog();
}

/** @param {{ preset: Preset } | { text: string }} body a preset the chat's view offers, or my words */
async function send(body) {
  if (!chat.id) return;
  try { await call("POST", `/v1/matches/${chat.id}/chat`, /** @satisfies {components["schemas"]["ChatIn"]} */ ({ command_id: uuid(), ...body })); }
  catch (err) { say(errorText(err), "error"); }
}

/** @param {SubmitEvent} ev */
export function chatForm(ev) {
  ev.preventDefault();
  const text = $("chat-text").value.trim();
  if (!text) return;
  send({ text });
  $("chat-text").value = "";
}
