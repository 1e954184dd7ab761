// @ts-check
// Notifications from the account stream (WS /v1/stream/me/ws, docs/live.md "Account stream"):
// my turn at a table I am not looking at, a match of mine over, a tournament round started, a
// dispute ruled — each a line with a link, the last few kept, read out politely.

import { t } from "../shared/i18n.js";
import { $, state } from "../shared/session.js";
import { h } from "../shared/table.js";
import { gameText, scoreLine, seatText, sideText } from "../shared/words.js";

/** @import { components } from "../shared/live-types" */
/** @import { AnyOf } from "../shared/api.js" */
/** @typedef {components["schemas"]} L */
/** A message of the account stream's WebSocket (`accountSocket`). @typedef {L["AccountSnapshot"] | L["AccountEvent"] | L["Error"]} Message */
/** One notice of the account stream, of any kind. @typedef {AnyOf<NonNullable<L["AccountEvent"]["event"]>>} Notice */

const KEEP = 3;
const SHOWN_FOR = 60_000;          // ms: a notice then goes, the screen is small
/** @type {{ socket: WebSocket | null, after: number, retry: number, timer: number | undefined, token: string | null }} */
const account = { socket: null, after: 0, retry: 0, timer: undefined, token: null };

/** @param {Notice} e */
function notice(e) {
  const match = e.match_id ? `#/match/${e.match_id}` : e.tournament_id ? `#/tournament/${e.tournament_id}` : null;
  // the table on screen (or the one just opened, not yet drawn) says it already
  if (e.match_id && (state.matchId === e.match_id || location.hash === match) && !e.type.startsWith("invitation")) return null;
  let text;
  switch (e.type) {
    case "your_turn": text = t("notice.your_turn", { seat: seatText(e.seat) }); break;
    case "match_started": text = t("notice.match_started"); break;
    case "match_finished": text = e.winner ? t("notice.match_won", { side: sideText(e.winner), score: scoreLine(e.match_score) })
      : t("notice.match_over"); break;
    case "round_started": text = e.bye ? t("notice.bye", { round: e.round }) : t("notice.round_started", { round: e.round, table: e.table }); break;
    case "tournament_started": text = t("notice.tournament_started"); break;
    case "tournament_closed": text = t("notice.tournament_closed"); break;
    case "round_closed": text = t("notice.round_closed", { round: e.round }); break;
    case "dispute_ruled": text = t("notice.dispute_ruled"); break;
    case "seat_taken": text = t("notice.seat_taken", { seat: seatText(e.seat) }); break;
    case "invitation_received": text = t("notice.invitation_received", { game: gameText(e.game) }); break;
    case "invitation_answered": text = t(`notice.invitation_${e.answer}`, { seat: seatText(e.seat), defaultValue: t("notice.invitation_answered") }); break;
    case "invitation_cancelled": text = t("notice.invitation_cancelled"); break;
    case "quickplay_seated": text = t("quickplay.seated_notice", { seat: seatText(e.seat) }); break;
    case "quickplay_expired": text = t("quickplay.expired"); break;
    default: return null;
  }
  const href = e.type === "invitation_received" ? "#/invitations" : e.type === "round_started" && e.match_id ? `#/match/${e.match_id}` : match;
  return h("li", { dataset: { type: e.type } }, href ? h("a", { href }, text) : text);
}

/** @param {Notice} e */
function add(e) {
  // The invitations on screen are a read model the notice may overtake: read them again now
  // and once more a moment later (app.js listens).
  if (e.type.startsWith("invitation")) document.dispatchEvent(new CustomEvent("atout:invitations"));
  const li = notice(e);
  if (!li) return;
  const box = $("notices");
  const list = box.querySelector("ul") || box.appendChild(h("ul", {}));
  list.prepend(li);
  setTimeout(() => li.remove(), SHOWN_FOR);
  while (list.children.length > KEEP) /** @type {ChildNode} */ (list.lastChild).remove();
  document.body.dataset.notices = String(Number(document.body.dataset.notices || 0) + 1);
}

export function followAccount() {
  const token = state.session && state.session.token;
  if (!token || (account.socket && account.token === token)) return;
  stopAccount();
  account.token = token;
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${proto}://${location.host}/v1/stream/me/ws${account.after ? `?after=${account.after}` : ""}`);
  account.socket = ws;
  ws.onopen = () => ws.send(JSON.stringify(/** @satisfies {L["Auth"]} */ ({ type: "auth", token })));
  ws.onmessage = (msg) => {
    const m = /** @type {Message} */ (JSON.parse(msg.data));
    if (m.type === "snapshot") { account.after = m.version; account.retry = 0; }
    else if (m.type === "event" && m.version > account.after) { account.after = m.version; if (m.event) add(m.event); }
  };
  ws.onclose = (ev) => {
    if (ws !== account.socket) return;
    account.socket = null;
    if (ev.code === 4401) return;
    account.timer = setTimeout(followAccount, Math.min(10000, 500 * 2 ** account.retry++));
  };
}

/**
 * The notices about the screen now open (`location.hash`, e.g. `#/match/{id}`) go: that screen
 * says it now, and a notice that came just before it opened (the match I created began, my
 * first turn in it) would only push the table down.
 */
export function dropNoticesOfScreen() {
  const box = document.getElementById("notices");
  if (!box) return;
  for (const a of box.querySelectorAll("li > a")) {
    if (a.getAttribute("href") === location.hash) /** @type {HTMLElement} */ (a.parentElement).remove();
  }
}

export function stopAccount() {
  clearTimeout(account.timer);
  if (account.socket) { account.socket.onclose = null; account.socket.close(1000); }
  account.socket = null; account.token = null;
}
