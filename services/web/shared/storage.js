// What this browser keeps for the player's page (localStorage), each under its own key: the
// signed-in guest (verify.html reads it too, to fill in the token), the codes of the private
// tables I created (shown once, in the creation's answer), and the entropy I gave each match.
// It imports nothing, so any module may keep or read these without importing another feature.

const SESSION_KEY = "atout.session";
const CODES_KEY = "atout.codes";
const ENTROPY_KEY = "atout.entropy";

export function loadSession() {
  try { return JSON.parse(localStorage.getItem(SESSION_KEY)); } catch { return null; }
}
export const keepSession = (session) => localStorage.setItem(SESSION_KEY, JSON.stringify(session));
export const forgetSession = () => localStorage.removeItem(SESSION_KEY);

// A private table's code is shown to its creator once, in the creation's answer: kept here.
export function rememberCode(matchId, code) {
  if (!code) return;
  let all = {};
  try { all = JSON.parse(localStorage.getItem(CODES_KEY)) || {}; } catch { /* start again */ }
  all[matchId] = code;
  localStorage.setItem(CODES_KEY, JSON.stringify(Object.fromEntries(Object.entries(all).slice(-50))));
}
export const codeOf = (matchId) => { try { return (JSON.parse(localStorage.getItem(CODES_KEY)) || {})[matchId] || null; } catch { return null; } };

// The entropy strings this browser gave each match's seat, to check the record's against.
export function givenEntropy(matchId) {
  try { return (JSON.parse(localStorage.getItem(ENTROPY_KEY)) || {})[matchId] || []; } catch { return []; }
}
export function rememberEntropy(matchId, text) {
  let all = {};
  try { all = JSON.parse(localStorage.getItem(ENTROPY_KEY)) || {}; } catch { /* start again */ }
  all[matchId] = [...(all[matchId] || []), text].slice(-50);
  localStorage.setItem(ENTROPY_KEY, JSON.stringify(all));
}
