// @ts-check
// The table's settings panel: each control shows the setting kept in this browser
// (storage.js `loadSettings`) and keeps what the player chooses.

import { $ } from "../shared/session.js";
import { keepSettings, loadSettings } from "../shared/storage.js";

/** @import { Settings } from "../shared/storage.js" */

export function settingsControls() {
  const motion = /** @type {HTMLSelectElement} */ ($("setting-motion"));
  motion.value = loadSettings().motion;
  motion.addEventListener("change", () => keepSettings({ motion: /** @type {Settings["motion"]} */ (motion.value) }));
}
