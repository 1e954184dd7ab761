// @ts-check
// A grid of rows for the screens around the tables (a tournament's standings, the leaderboards,
// a player's ratings and stats): a header row, one row per line, "nothing" when there is none.

import { t } from "./i18n.js";
import { h } from "./table.js";

/** @import { Attrs } from "./table.js" */

/** @type {(el: HTMLElement, head: string[], rows: HTMLElement[]) => void} */
export const grid = (el, head, rows) => el.replaceChildren(
  h("thead", {}, h("tr", {}, ...head.map((x) => h("th", { scope: "col" }, x)))),
  h("tbody", {}, ...(rows.length ? rows : [h("tr", {}, h("td", { colspan: String(head.length), class: "empty" }, t("common.nothing")))])));
/** @type {(cells: (Node | string)[], attrs?: Attrs) => HTMLElement} */
export const tr = (cells, attrs = {}) => h("tr", attrs, ...cells.map((c) => h("td", {}, c)));
