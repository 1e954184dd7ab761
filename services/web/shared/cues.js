// @ts-check
// Saying "your turn" to a player who looks elsewhere (docs/web-client.md "Settings"): the tab's
// title while it is my turn, and when my turn comes a short vibration (phones), a short sound
// (off unless chosen) and, while the tab is hidden, a browser notification (only once the
// player allowed it from the settings: permission is never asked on load).

import { t } from "./i18n.js";
import { loadSettings } from "./storage.js";

const SOUND = "/web/sounds/turn.wav";
let title = "";
let mine = false;
/** @type {HTMLAudioElement | null} */
let sound = null;

/**
 * Called at each drawing of the table: `myTurn` whether the player must act now, `what` the
 * table's status line (the notification's text).
 * @param {boolean} myTurn
 * @param {string} [what]
 */
export function turnCue(myTurn, what = "") {
  if (!title) title = document.title.replace(/^● .*? — /, "");
  document.title = myTurn ? t("cues.title", { title }) : title;
  if (myTurn && !mine) cue(what);
  mine = myTurn;
}

/** @param {string} what */
function cue(what) {
  const settings = loadSettings();
  // a browser refuses (and complains of) a vibration before the player touched the page
  const touched = !navigator.userActivation || navigator.userActivation.hasBeenActive;
  if (settings.vibrate && touched && typeof navigator.vibrate === "function") navigator.vibrate(120);
  if (settings.sound) {
    sound = sound || new Audio(SOUND);
    sound.currentTime = 0;
    sound.play().catch(() => { /* the browser wants a click on the page first */ });
  }
  if (settings.notify && document.hidden && typeof Notification === "function" && Notification.permission === "granted") {
    const note = new Notification(t("cues.notify_title"), { body: what, tag: "atout-turn" });
    note.onclick = () => { window.focus(); note.close(); };
  }
}

/**
 * Ask the browser for notifications (from the settings control, a click): whether allowed.
 * @returns {Promise<boolean>}
 */
export async function allowNotifications() {
  if (typeof Notification !== "function") return false;
  if (Notification.permission === "granted") return true;
  try { return (await Notification.requestPermission()) === "granted"; } catch { return false; }
}

/** Leaving the table: the title says nothing of it any more. */
export function quietCue() { turnCue(false); }
