// @ts-check
// Atout reference web client: the player's page. Plain ES modules, no build step
// (docs/web-client.md): api.js talks to the API, session.js holds the guest, lobby.js,
// match.js (the table: table.js draws the felt, actions.js the controls), tournaments.js
// (console.js and organise.js: the organiser's console),
// profiles.js (leaderboards, profiles), replay.js, notices.js the account stream; i18n.js
// and words.js say it all in the player's language.

import { api } from "./shared/api.js";
import { chatForm } from "./chat/chat.js";
import { LOCALES, initI18n, languageMenu, locale, onLocale, setLocale, t } from "./shared/i18n.js";
import { createMatch, refreshLobby, relabelCreateForm, setupCreateForm } from "./matches/lobby.js";
import { enterMatch, leaveMatch, redraw, toggleLastTrick } from "./matches/match.js";
import { setupQuickplay, showQuickplay } from "./matches/quickplay.js";
import { askHint, fileDispute, rematch } from "./matches/table_side.js";
import { dropNoticesOfScreen, followAccount, stopAccount } from "./live/notices.js";
import { showLeaderboard, showPlayer } from "./social/profiles.js";
import { drawReplay, replayControls, showReplay } from "./matches/replay.js";
import { $, call, errorText, show, state } from "./shared/session.js";
import { reportControls } from "./chat/reports.js";
import { settingsControls } from "./matches/settings.js";
import { forgetSession, keepSession, loadSession } from "./shared/storage.js";
import { followedTables, inviteForm, joinWithCode, pairForm, showInvitations } from "./social/social.js";
import { leaveTournament, showTournament, showTournaments } from "./tournaments/tournaments.js";
import { organises, refreshConsole, relabelConsole, setupConsole, showConsole } from "./tournaments/console.js";
import { setupOrganise } from "./tournaments/organise.js";

/** @import { components } from "./shared/api-types" */
/** @import { Locale } from "./shared/i18n.js" */
/** @typedef {components["schemas"]} S */

/** @type {[RegExp, (id: string, code: string) => unknown, string][]} */
const SCREENS = [
  [/^#\/match\/([\w-]+)/, (id) => enterMatch(id), "table"],
  [/^#\/tournaments/, () => showTournaments(), "tournaments"],
  [/^#\/tournament\/([\w-]+)/, (id) => showTournament(id), "tournament"],
  [/^#\/console/, () => showConsole(), "console"],
  [/^#\/leaderboards/, () => showLeaderboard(), "leaderboards"],
  [/^#\/player\/([\w-]+)/, (id) => showPlayer(id), "player"],
  [/^#\/replay\/([\w-]+)(?:\/(\d+))?/, (id, deal) => showReplay(id, Number(deal || 0)), "replay"],
  [/^#\/invitations/, () => showInvitations(), "invitations"],
  [/^#\/join\/([\w-]+)\/(\w+)/, (id, code) => joinWithCode(id, code), "invitations"],
];

function route() {
  state.session = loadSession();
  $("whoami").textContent = state.session ? state.session.name : "";
  $("signout").hidden = !state.session;
  $("nav").hidden = !state.session;
  if (!state.session) { leaveMatch(); leaveTournament(); stopAccount(); show("signin"); return; }
  $("nav-me").href = `#/player/${state.session.player_id}`;
  $("nav-console").hidden = !organises();
  followAccount();
  for (const [pattern, open, screen] of SCREENS) {
    const m = location.hash.match(pattern);
    if (!m) continue;
    if (screen !== "table") leaveMatch();
    if (screen !== "tournament") leaveTournament();
    if (screen !== "table") show(screen);
    open(m[1], m[2]);
    return;
  }
  leaveMatch(); leaveTournament();
  show("lobby");
  refreshLobby();
  showQuickplay();
  followedTables();
}
state.onUnauthorized = route;

// The language kept on the account wins over this browser's (another device may have set it).
async function adoptAccountLocale() {
  try {
    const me = /** @type {S["MeOut"]} */ (await call("GET", "/v1/players/me"));
    state.role = me.role;
    if (me.locale && me.locale !== locale()) await setLocale(me.locale);
    else if (!me.locale && localStorage.getItem("atout.locale")) await call("PATCH", "/v1/players/me", /** @satisfies {S["SetMe"]} */ ({ locale: locale() }));
  } catch { /* keep the browser's */ }
}

// Kept on the account one choice at a time, in the order chosen: two quick switches must not
// land the first one last.
/** @type {Promise<unknown>} */
let keeping = Promise.resolve();
async function chooseLocale() {
  const lng = $("lang").value;                  // one of the menu's: the locales
  await setLocale(lng);
  if (!state.session) return;
  keeping = keeping.then(() => call("PATCH", "/v1/players/me", /** @satisfies {S["SetMe"]} */ ({ locale: /** @type {Locale} */ (lng) })))
    .catch((err) => { $("message").textContent = errorText(err); });
  await keeping;
}

/** @param {SubmitEvent} ev */
async function signIn(ev) {
  ev.preventDefault();
  const name = $("signin-name").value.trim() || t("signin.default_name");
  try {
    const reg = /** @type {S["Registered"]} */ (await api("POST", "/v1/players", /** @satisfies {S["Register"]} */ ({ name })));
    keepSession({ ...reg, name });
    state.session = { ...reg, name };
    state.role = "player";                      // a new guest; an organiser is made so later
    if (storedChoice()) await call("PATCH", "/v1/players/me", /** @satisfies {S["SetMe"]} */ ({ locale: locale() }));
    route();
  } catch (err) { $("signin-error").textContent = errorText(err); }
}
const storedChoice = () => LOCALES.includes(localStorage.getItem("atout.locale") ?? "");

document.addEventListener("atout:invitations", () => {
  for (const delay of [0, 2000]) {
    setTimeout(() => { if (document.body.dataset.screen === "invitations") showInvitations(); }, delay);
  }
});

function redrawAll() {
  $("lang").value = locale();
  relabelCreateForm();
  relabelConsole();
  const screen = document.body.dataset.screen;
  if (screen === "table") redraw();
  else if (screen === "lobby") refreshLobby();
  else if (screen === "replay") drawReplay();
  else if (screen === "invitations") showInvitations();
  else if (screen) route();
}

async function boot() {
  languageMenu($("lang"));
  await initI18n();
  $("signin-form").addEventListener("submit", signIn);
  $("create-form").addEventListener("submit", createMatch);
  $("watch-form").addEventListener("submit", (ev) => { ev.preventDefault(); location.hash = `#/match/${$("watch-id").value.trim()}`; });
  $("lobby-refresh").addEventListener("click", refreshLobby);
  $("dispute-form").addEventListener("submit", fileDispute);
  $("rematch").addEventListener("click", rematch);
  $("hint").addEventListener("click", askHint);
  $("last-trick").addEventListener("click", toggleLastTrick);
  $("lang").addEventListener("change", chooseLocale);
  $("tournament-status").addEventListener("change", showTournaments);
  $("pool").addEventListener("change", showLeaderboard);
  $("invite-form").addEventListener("submit", inviteForm);
  $("pair-form").addEventListener("submit", pairForm);
  $("chat-form").addEventListener("submit", chatForm);
  reportControls();
  replayControls();
  settingsControls();
  $("signout").addEventListener("click", async () => {
    try { await call("DELETE", "/v1/players/me/token"); } catch { /* signed out anyway */ }
    forgetSession(); location.hash = "#/"; route();
  });
  setupCreateForm();
  setupQuickplay();
  setupConsole();
  setupOrganise();
  onLocale(redrawAll);
  $("lang").value = locale();
  window.addEventListener("hashchange", route);
  window.addEventListener("hashchange", dropNoticesOfScreen);
  setInterval(() => {              // the lists others change: the lobby's, the tournaments', the console's
    refreshLobby();
    if (document.body.dataset.screen === "tournaments") showTournaments();
    if (document.body.dataset.screen === "console") refreshConsole();
  }, 5000);
  // for tests and the curious: the live state, and a way to drop the socket
  window.atout = { state, dropSocket: () => state.socket && state.socket.close(4000, "test") };
  state.session = loadSession();
  if (state.session) await adoptAccountLocale();   // before the first screen is drawn
  route();
  document.body.dataset.ready = "true";
}

if (document.body && document.body.dataset.page === "play") boot();
