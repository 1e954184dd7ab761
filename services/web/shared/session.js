// What every screen of the player's page shares: the signed-in guest, the API call that
// forgets a dead token, the message line, and which screen shows.

import { api } from "./api.js";
import { t } from "./i18n.js";
import { forgetSession } from "./storage.js";

export const $ = (id) => document.getElementById(id);

export const state = {
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
  sheet: [],            // the score sheet: one row per finished deal {deal, score}
  clockTimer: null,
  reconnectTimer: null,
  pick: null,           // a choice of several cards in progress: {key, chosen: Set}
  naming: null,         // a card with several forms (a Joker led in no trumps): {version, options}
  hint: null,           // the last hint asked: {match, version, action, reason, used, limit}
  fair: null,           // the match record's deals verified here: {ok, deals, error}
  verifying: null,
  showLast: false,      // the last trick, drawn on request
  saidAt: 0,            // the view's version when the message line was last written
  onUnauthorized: () => {},
};

export function call(method, path, body) {
  return api(method, path, body, state.session && state.session.token).catch((err) => {
    if (err.status === 401) { forgetSession(); state.session = null; state.onUnauthorized(); }
    throw err;
  });
}

export function show(screen) {
  for (const s of document.querySelectorAll(".screen")) s.hidden = s.id !== `screen-${screen}`;
  document.body.dataset.screen = screen;
  for (const a of document.querySelectorAll("#nav [data-nav]")) {
    if (a.dataset.nav === screen) a.setAttribute("aria-current", "page"); else a.removeAttribute("aria-current");
  }
}

export function say(text, kind = "info") {
  const el = $("message");
  if (!el) return;
  el.textContent = text || "";
  el.dataset.kind = kind;
  state.saidAt = state.view ? state.view.version : 0;   // cleared by a newer view (match.js refresh)
}

// An API error in the player's words: the catalog's for a known code, else the server's message.
export const errorText = (err) => (err && err.code
  ? t(`error.${err.code}`, { defaultValue: t("error.generic", { code: err.code, message: err.message }) })
  : t("error.network"));

// The lobby's and the table's name for a seat holder.
export function holderLabel(holder, names = state.names) {
  if (!holder) return t("seat_holder.open");
  if (holder.kind === "bot") return t("seat_holder.bot", { level: t(`bot.${holder.level}`, { defaultValue: holder.level }) });
  if (holder.player_id === (state.session && state.session.player_id)) return t("seat_holder.you");
  return holder.name || names[holder.player_id] || t("seat_holder.player");
}
