// @ts-check
// The organiser's console (docs/web-client.md, "The organiser's console"): a new tournament
// from a form the server describes (GET /v1/tournaments/formats: each format and the creation
// fields it reads; GET /v1/games: each game and its options, all typed), so a format, a game or
// an option the server adds is offered here without a new client; and the tournaments I
// organise. Shown to organisers and admins; the server's guards stay the judge.

import { uuid } from "../shared/api.js";
import { num, t, when } from "../shared/i18n.js";
import { $, call, errorText, state } from "../shared/session.js";
import { h } from "../shared/table.js";
import { gameLine, gameText } from "../shared/words.js";

/** @import { components } from "../shared/api-types" */
/** @typedef {components["schemas"]} S */
/** @typedef {S["FieldOut"]} Field */

const ROLES = ["organiser", "admin"];
/** @type {S["FormatOut"][] | null} */
let formats = null;
/** @type {S["GameOut"][]} */
let games = [];

/** Whether the console is offered: the role /v1/players/me gave (`state.role`). */
export const organises = () => ROLES.includes(state.role || "");

// Words for a field and its values: the catalog's, else the server's own name (a field or a
// value the server added after this catalog was written still reads). A game's options are
// named as the lobby's form names them where it has them.
/** @param {string} name */
function fieldText(name) {
  const plain = name.startsWith("options.") ? t(`create.${name.slice(8)}`, { defaultValue: name.slice(8) }) : name;
  return t(`console.field.${name.replace(/\./g, "_")}`, { defaultValue: plain });
}
/**
 * @param {string} name
 * @param {string} value
 */
function valueText(name, value) {
  if (name.startsWith("bots.")) return t(`bot.${value}`, { defaultValue: value });
  if (name === "scoring") return t(`scoring.${value}`, { defaultValue: value });
  if (["options.variant", "options.rules", "options.mode"].includes(name)) return t(`${name.slice(8)}.${value}`, { defaultValue: value });
  return t(`console.value.${name.replace(/\./g, "_")}.${value}`, { defaultValue: value });
}

/** @param {Field} field */
function control(field) {
  const id = `console-f-${field.name.replace(/\./g, "-")}`;
  const data = { field: field.name, kind: field.kind };
  if (field.kind === "choice") {
    const sel = h("select", { id, dataset: data },
      ...(field.values || []).map((v) => h("option", { value: v }, valueText(field.name, v))));
    /** @type {HTMLSelectElement} */ (sel).value = String(field.default ?? (field.values || [""])[0]);
    return h("label", {}, h("span", {}, fieldText(field.name)), " ", sel);
  }
  if (field.kind === "boolean") {
    return h("label", { class: "check" }, h("input", { id, type: "checkbox", checked: field.default === true, dataset: data }),
             " ", h("span", {}, fieldText(field.name)));
  }
  /** @type {{ [attr: string]: unknown }} */
  const attrs = { id, dataset: data, required: field.required };
  if (field.kind === "integer") {
    Object.assign(attrs, { type: "number", inputmode: "numeric", step: "1" });
    if (field.minimum != null) attrs.min = String(field.minimum);
    if (field.maximum != null) attrs.max = String(field.maximum);
    if (field.default != null) attrs.placeholder = num(Number(field.default));
  } else attrs.type = "datetime-local";
  return h("label", {}, h("span", {}, fieldText(field.name)), " ", h("input", attrs));
}

// The format's fields, and the game's options but those the format names itself (`options.deals`,
// which a duplicate format requires).
function drawFields() {
  const chosen = (formats || []).find((f) => f.format === $("console-format").value);
  const own = chosen ? chosen.fields : [];
  const game = games.find((g) => g.game === $("console-game").value);
  const options = (game ? game.fields : []).filter((f) => !own.some((o) => o.name === f.name));
  $("console-game-fields").replaceChildren(...options.map(control));
  $("console-fields").replaceChildren(...own.map(control));
}

// The form is drawn once (a visit back keeps what was typed); the list is read at each visit
// and every few seconds while shown (app.js), as the tournaments' list is.
export async function showConsole() {
  try {
    if (!formats) {
      [formats, games] = /** @type {[S["FormatOut"][], S["GameOut"][]]} */ (await Promise.all([
        call("GET", "/v1/tournaments/formats"), call("GET", "/v1/games")]));
      $("console-game").replaceChildren(...games.map((g) => h("option", { value: g.game }, gameText(g.game))));
      $("console-format").replaceChildren(...formats.map((f) => h("option", { value: f.format }, t(`tformat.${f.format}`, { defaultValue: f.format }))));
      drawFields();
    }
  } catch (err) { $("console-create-said").textContent = errorText(err); }
  await refreshConsole();
}

export async function refreshConsole() {
  try {
    const mine = /** @type {S["TournamentRow"][]} */ (await call("GET", "/v1/tournaments/mine"));
    const me = state.session && state.session.player_id;
    const rows = mine.filter((x) => x.organiser === me);
    $("console-list").replaceChildren(...(rows.length ? rows.map((x) => h("li", { dataset: { tournament: x.tournament_id } },
      h("a", { href: `#/tournament/${x.tournament_id}` }, x.name), ` — ${gameLine(x)} · ${t(`tformat.${x.format}`, { defaultValue: x.format })} · `,
      t(`tstatus.${x.status}`), " · ", t("tournaments.entries", { count: x.entries || 0 }), x.schedule ? ` · ${when(x.schedule)}` : ""))
      : [h("li", { class: "empty" }, t("tournaments.none"))]));
  } catch (err) { $("console-list").replaceChildren(h("li", { class: "empty" }, errorText(err))); }
}

/**
 * The body's value at a dotted path (`bots.level`), made as it goes.
 * @param {{ [key: string]: any }} body
 * @param {string} path
 * @param {unknown} value
 */
function put(body, path, value) {
  const keys = path.split(".");
  const last = /** @type {string} */ (keys.pop());
  let at = body;
  for (const k of keys) at = at[k] = at[k] || {};
  at[last] = value;
}

/** @param {SubmitEvent} ev */
async function createTournament(ev) {
  ev.preventDefault();
  const said = $("console-create-said");
  /** @type {{ [key: string]: any }} */
  const body = { name: $("console-name").value.trim(), game: $("console-game").value, format: $("console-format").value,
                 options: {}, command_id: uuid() };
  for (const el of /** @type {NodeListOf<HTMLInputElement>} */ ($("console-form").querySelectorAll("[data-field]"))) {
    const name = /** @type {string} */ (el.dataset.field);
    const kind = el.dataset.kind;
    if (kind === "boolean") put(body, name, el.checked);
    else if (el.value === "") continue;                    // left out: the server's default
    else if (kind === "integer") put(body, name, Number(el.value));
    else if (kind === "datetime") put(body, name, new Date(el.value).toISOString());   // the browser's zone, sent in UTC
    else put(body, name, el.value);
  }
  said.textContent = "";
  try {
    const made = /** @type {S["TournamentOut"]} */ (await call("POST", "/v1/tournaments", body));
    $("console-name").value = "";                 // the next one is another tournament; its settings may be alike
    location.hash = `#/tournament/${made.tournament_id}`;
  } catch (err) { said.textContent = errorText(err); }
}

export function setupConsole() {
  $("console-format").addEventListener("change", drawFields);
  $("console-game").addEventListener("change", drawFields);
  $("console-form").addEventListener("submit", createTournament);
}

// Called when the language changes: the labels are the catalog's (the fields drawn again lose
// what was typed in them, as the language is seldom changed halfway through a form).
export function relabelConsole() {
  if (!formats) return;
  for (const o of $("console-format").options) o.textContent = t(`tformat.${o.value}`, { defaultValue: o.value });
  for (const o of $("console-game").options) o.textContent = gameText(o.value);
  drawFields();
}
