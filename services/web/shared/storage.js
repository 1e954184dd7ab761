// @ts-check
// What this browser keeps for the player's page (localStorage), each under its own key: the
// signed-in guest (verify.html reads it too, to fill in the token), the codes of the private
// tables I created (shown once, in the creation's answer), the entropy I gave each match, and
// whether a quick-play entry of mine is waiting.
// It imports nothing, so any module may keep or read these without importing another feature.

/** @import { components } from "./api-types" */

/**
 * The signed-in guest: the registration's answer (POST /v1/players) and the name given.
 * @typedef {components["schemas"]["Registered"] & { name: string }} Session
 */

const SESSION_KEY = "atout.session";
const CODES_KEY = "atout.codes";
const ENTROPY_KEY = "atout.entropy";
const QUICKPLAY_KEY = "atout.quickplay";

/** @returns {Session | null} */
export function loadSession() {
  try { return JSON.parse(localStorage.getItem(SESSION_KEY) ?? "null"); } catch { return null; }
}
export const keepSession = (/** @type {Session} */ session) => localStorage.setItem(SESSION_KEY, JSON.stringify(session));
export const forgetSession = () => localStorage.removeItem(SESSION_KEY);

/**
 * A private table's code is shown to its creator once, in the creation's answer: kept here.
 * @param {string} matchId
 * @param {string | undefined} code
 */
export function rememberCode(matchId, code) {
  if (!code) return;
  /** @type {Record<string, string>} */
  let all = {};
  try { all = JSON.parse(localStorage.getItem(CODES_KEY) ?? "null") || {}; } catch { /* start again */ }
  all[matchId] = code;
  localStorage.setItem(CODES_KEY, JSON.stringify(Object.fromEntries(Object.entries(all).slice(-50))));
}
/** @type {(matchId: string) => string | null} */
export const codeOf = (matchId) => { try { return (JSON.parse(localStorage.getItem(CODES_KEY) ?? "null") || {})[matchId] || null; } catch { return null; } };

/**
 * The entropy strings this browser gave each match's seat, to check the record's against.
 * @param {string} matchId
 * @returns {string[]}
 */
export function givenEntropy(matchId) {
  try { return (JSON.parse(localStorage.getItem(ENTROPY_KEY) ?? "null") || {})[matchId] || []; } catch { return []; }
}
/**
 * @param {string} matchId
 * @param {string} text
 */
export function rememberEntropy(matchId, text) {
  /** @type {Record<string, string[]>} */
  let all = {};
  try { all = JSON.parse(localStorage.getItem(ENTROPY_KEY) ?? "null") || {}; } catch { /* start again */ }
  all[matchId] = [...(all[matchId] || []), text].slice(-50);
  localStorage.setItem(ENTROPY_KEY, JSON.stringify(all));
}

/**
 * Whether this browser has a quick-play entry waiting (so the lobby reads it again after a
 * reload, and asks the server nothing when there is none).
 * @param {string | null} entryId
 */
export const keepQuickplay = (entryId) => (entryId ? localStorage.setItem(QUICKPLAY_KEY, entryId) : localStorage.removeItem(QUICKPLAY_KEY));
export const quickplayKept = () => localStorage.getItem(QUICKPLAY_KEY) !== null;

/**
 * The player's table settings (the table's settings panel): how fast cards move, and how the
 * page says it is my turn when I look elsewhere.
 * @typedef {{ motion: "off" | "fast" | "normal" | "slow", sound: boolean, vibrate: boolean,
 *   notify: boolean, confirm: boolean }} Settings
 */
const SETTINGS_KEY = "atout.settings";
/** @type {Settings} */
const DEFAULTS = { motion: "normal", sound: false, vibrate: true, notify: false, confirm: false };
/** @returns {Settings} */
export function loadSettings() {
  try { return { ...DEFAULTS, ...(JSON.parse(localStorage.getItem(SETTINGS_KEY) ?? "null") || {}) }; } catch { return { ...DEFAULTS }; }
}
/** @param {Partial<Settings>} change */
export const keepSettings = (change) => localStorage.setItem(SETTINGS_KEY, JSON.stringify({ ...loadSettings(), ...change }));
