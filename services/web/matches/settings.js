// @ts-check
// The table's settings panel: each control shows the setting kept in this browser
// (storage.js `loadSettings`) and keeps what the player chooses. Notifications are asked of
// the browser here, on the player's click, never on load.

import { allowNotifications } from "../shared/cues.js";
import { t } from "../shared/i18n.js";
import { $ } from "../shared/session.js";
import { keepSettings, loadSettings } from "../shared/storage.js";

/** @import { Settings } from "../shared/storage.js" */

export function settingsControls() {
  const kept = loadSettings();
  const motion = /** @type {HTMLSelectElement} */ ($("setting-motion"));
  motion.value = kept.motion;
  motion.addEventListener("change", () => keepSettings({ motion: /** @type {Settings["motion"]} */ (motion.value) }));
  for (const name of /** @type {const} */ (["confirm", "sound", "vibrate"])) {
    const box = /** @type {HTMLInputElement} */ ($(`setting-${name}`));
    box.checked = kept[name];
    box.addEventListener("change", () => keepSettings({ [name]: box.checked }));
  }
  const notify = /** @type {HTMLInputElement} */ ($("setting-notify"));
  notify.checked = kept.notify && typeof Notification === "function" && Notification.permission === "granted";
  notify.addEventListener("change", async () => {
    const wanted = notify.checked;
    const on = wanted && await allowNotifications();
    notify.checked = on;
    keepSettings({ notify: on });
    $("setting-said").textContent = wanted && !on ? t("settings.notify_refused") : "";
  });
}
