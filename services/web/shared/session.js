// @ts-check
// What every screen of the player's page shares: the signed-in guest, the API call that
// forgets a dead token, the message line, and which screen shows.

import { api } from "./api.js";
import { t } from "./i18n.js";
import { forgetSession } from "./storage.js";

/** @import { components } from "./api-types" */
/** @import { Failure } from "./api.js" */
/** @import { ById, PlayerPage } from "./pages" */
/** @import { Session } from "./storage.js" */
/** @import { LegalAction, MatchEvent } from "./words.js" */
/** @import { Verified } from "./fair.js" */
/** @typedef {components["schemas"]} S */

/** An element of the player's page (index.html) by id. @type {ById<PlayerPage>} */
export const $ = (id) => /** @type {any} */ (document.getElementById(id));

/**
 * The last hint asked (GET /v1/matches/{id}/hint), with the match it is for.
 * @typedef {{ match: string, version: number, action: S["HintOut"]["action"], reason: S["HintOut"]["reason"],
 *   used: number, limit: number, levelShown?: boolean }} Hint
 */
/**
 * The match record's deals as verified here (fair.js), and what my seat's entropy says; or why
 * the record could not be read.
 * @typedef {(Verified & { mine?: { seat: string, gave: boolean } | null, seat?: string | null, error?: undefined })
 *   | { error: string, ok?: undefined, deals?: undefined, tip_checked?: undefined, mine?: undefined, seat?: undefined }} Fair
 */
/**
 * @typedef {object} State
 * @property {Session | null} session
 * @property {string | null} role the account's role as GET /v1/players/me last said (the console is shown by it)
 * @property {string | null} matchId
 * @property {S["MatchViewOut"] | null} view
 * @property {number} lastVersion
 * @property {WebSocket | null} socket
 * @property {number} connects
 * @property {number} retry
 * @property {boolean} finished
 * @property {boolean} busy
 * @property {Promise<void> | null} refreshing
 * @property {boolean} again
 * @property {{ [playerId: string]: string }} names
 * @property {{ version: number, event: MatchEvent }[]} log
 * @property {{ deal: number, score: { [side: string]: number } }[]} sheet
 * @property {number | undefined} clockTimer
 * @property {number | undefined} reconnectTimer
 * @property {{ key: string, chosen: Set<string> } | null} pick
 * @property {{ version: number, options: LegalAction[] } | null} naming
 * @property {Hint | null} hint
 * @property {Fair | null} fair
 * @property {Promise<void> | null} verifying
 * @property {boolean} [verifyAgain]
 * @property {S["RecordOut"]} [record] the match record read last (GET /v1/matches/{id}/record)
 * @property {number} [renewed] the last chain renewed that this page knows of
 * @property {number} [entropyChain] the last chain this page gave entropy for
 * @property {boolean} showLast
 * @property {number} saidAt
 * @property {() => void} onUnauthorized
 */

/** @type {State} */
export const state = {
  session: null,        // {player_id, token, name}
  role: null,
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
  clockTimer: undefined,
  reconnectTimer: undefined,
  pick: null,           // a choice of several cards in progress: {key, chosen: Set}
  naming: null,         // a card with several forms (a Joker led in no trumps): {version, options}
  hint: null,           // the last hint asked: {match, version, action, reason, used, limit}
  fair: null,           // the match record's deals verified here: {ok, deals, error}
  verifying: null,
  showLast: false,      // the last trick, drawn on request
  saidAt: 0,            // the view's version when the message line was last written
  onUnauthorized: () => {},
};

/**
 * `api` with the signed-in guest's token; a 401 forgets it.
 * @param {string} method
 * @param {string} path
 * @param {unknown} [body]
 */
export function call(method, path, body) {
  return api(method, path, body, state.session && state.session.token).catch((/** @type {Failure} */ err) => {
    if (err.status === 401) { forgetSession(); state.session = null; state.onUnauthorized(); }
    throw err;
  });
}

/** @param {string} screen */
export function show(screen) {
  for (const s of document.querySelectorAll(".screen")) /** @type {HTMLElement} */ (s).hidden = s.id !== `screen-${screen}`;
  document.body.dataset.screen = screen;
  for (const a of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("#nav [data-nav]"))) {
    // "My profile" is current on my own profile only, not on another player's
    const here = a.dataset.nav === screen && (screen !== "player" || a.getAttribute("href") === location.hash);
    if (here) a.setAttribute("aria-current", "page"); else a.removeAttribute("aria-current");
  }
}

/**
 * @param {string} text
 * @param {"info" | "error"} [kind]
 */
export function say(text, kind = "info") {
  const el = $("message");
  if (!el) return;
  el.textContent = text || "";
  el.dataset.kind = kind;
  state.saidAt = state.view ? state.view.version : 0;   // cleared by a newer view (match.js refresh)
}

// An API error in the player's words: the catalog's for a known code, else the server's message.
/** @param {unknown} thrown what a call threw (an ApiError, or the network's error) */
export function errorText(thrown) {
  const err = /** @type {Failure | null | undefined} */ (thrown);
  return err && err.code
    ? t(`error.${err.code}`, { defaultValue: t("error.generic", { code: err.code, message: err.message }) })
    : t("error.network");
}

// The lobby's and the table's name for a seat holder.
/**
 * @param {S["SeatHolderOut"] | S["NamedSeatHolderOut"] | null | undefined} holder
 * @param {{ [playerId: string]: string }} [names]
 */
export function holderLabel(holder, names = state.names) {
  if (!holder) return t("seat_holder.open");
  if (holder.kind === "bot") return t("seat_holder.bot", { level: t(`bot.${holder.level}`, { defaultValue: holder.level }) });
  if (holder.player_id === (state.session && state.session.player_id)) return t("seat_holder.you");
  return ("name" in holder && holder.name) || names[/** @type {string} */ (holder.player_id)] || t("seat_holder.player");
}
