// @ts-check
// The organiser's part of a tournament's screen (docs/web-client.md, "The organiser's
// console"): its entries with a withdraw button each, an entry taken (players by name or id, or
// house bots), start (or close it unstarted), the next round paired by hand, the round in play made
// the last, the standings exported.
// Drawn with the rest of the screen at each event of the tournament's stream, so it follows
// the rounds live. Shown to this tournament's organiser and to admins; the server refuses
// anyone else (403).

import { num, t } from "../shared/i18n.js";
import { $, call, errorText, state } from "../shared/session.js";
import { h } from "../shared/table.js";

/** @import { components } from "../shared/api-types" */
/** @typedef {components["schemas"]} S */
/** @typedef {S["TournamentOut"]} View */

const LEVELS = ["random", "basic", "expert", "master"];
/** @type {{ view: View | null, reread: (id: string) => void }} */
const here = { view: null, reread: () => {} };

/** @param {View} view */
const owns = (view) => state.role === "admin" || (state.role === "organiser" && !!state.session
  && view.organiser === state.session.player_id);

/**
 * A command of the organiser's; the screen is read again after it (the stream would too, a
 * poll later).
 * @param {string} method
 * @param {string} path
 * @param {unknown} [body]
 * @returns {Promise<boolean>} whether the server took it
 */
async function command(method, path, body) {
  const said = $("console-said");
  said.textContent = "";
  try {
    await call(method, path, body);
    if (here.view) here.reread(here.view.tournament_id);
    return true;
  } catch (err) { said.textContent = errorText(err); return false; }
}

/**
 * The round the organiser may pair next by hand, or null: a manual tournament's next round
 * while the last one is closed; any other format's first round before the start (it replaces
 * the automatic pairing). Never an elimination bracket nor an individual or robot event.
 * @param {View} view
 */
function pairable(view) {
  if (["elimination", "robot"].includes(view.format) || view.individual || view.status === "closed") return null;
  const rounds = view.rounds || [];
  const last = rounds[rounds.length - 1];
  if (view.status === "registering") return rounds.length ? null : 1;
  if (view.format !== "manual" || (last && !last.closed)) return null;
  const next = rounds.length + 1;
  return view.rounds_planned != null && next > view.rounds_planned ? null : next;
}

/**
 * Whether the organiser may still make the round in play the last: a running tournament that
 * has rounds after it, not an elimination bracket nor a robot event (they run to their end).
 * @param {View} view
 */
function finishable(view) {
  if (view.status !== "running" || ["elimination", "robot"].includes(view.format)) return false;
  return view.rounds_planned == null || (view.rounds || []).length < view.rounds_planned;
}

/**
 * @param {View} view
 * @param {(entry: string) => string} entryName
 * @param {number} round
 */
function drawPairing(view, entryName, round) {
  const active = (view.entries || []).filter((e) => !e.withdrawn).map((e) => e.entry_id);
  const choose = (/** @type {string} */ slot, /** @type {string} */ value) => {
    const sel = /** @type {HTMLSelectElement} */ (h("select", { dataset: { slot } },
      ...active.map((e) => h("option", { value: e }, entryName(e)))));
    sel.value = value;
    return sel;
  };
  const tables = [];
  for (let i = 0; i + 1 < active.length; i += 2) {
    tables.push(h("p", { dataset: { table: String(i / 2 + 1) } }, `${t("tournaments.table", { table: num(i / 2 + 1) })}: `,
      h("label", {}, t("console.ns"), " ", choose("ns", active[i])), " ",
      h("label", {}, t("console.ew"), " ", choose("ew", active[i + 1]))));
  }
  if (active.length % 2) tables.push(h("p", {}, h("label", {}, t("console.bye"), " ", choose("bye", active[active.length - 1]))));
  $("console-pair-title").textContent = t("console.pair_round", { round: num(round) });
  $("console-pair-tables").replaceChildren(...tables);
  $("console-pair").dataset.round = String(round);
}

/** @param {SubmitEvent} ev */
function submitPairing(ev) {
  ev.preventDefault();
  const tables = [...$("console-pair-tables").querySelectorAll("[data-table]")].map((p) =>
    ["ns", "ew"].map((slot) => /** @type {HTMLSelectElement} */ (p.querySelector(`[data-slot=${slot}]`)).value));
  const byes = [...$("console-pair-tables").querySelectorAll("[data-slot=bye]")].map((s) => /** @type {HTMLSelectElement} */ (s).value);
  if (!here.view) return;
  const round = Number($("console-pair").dataset.round);
  // Before the start a pairing is kept for round 1 and nothing else shows it: say so.
  void command("POST", `/v1/tournaments/${here.view.tournament_id}/pairings`, /** @satisfies {S["PairingIn"]} */ ({ round, tables, byes }))
    .then((done) => { if (done) $("console-said").textContent = t("console.paired", { round: num(round) }); });
}

/** A name that names nobody, or several people: its message is the organiser's to read. */
class Unnamed extends Error {}

/**
 * The player a name (or an id) the organiser typed means, or why it means none: several people
 * may share a display name, and then only the id tells them apart.
 * @param {string} name
 * @returns {Promise<string>} the player id
 */
async function playerNamed(name) {
  const found = /** @type {S["PlayerOut"][]} */ (await call("GET", `/v1/players?name=${encodeURIComponent(name)}`));
  if (found.length === 1) return found[0].player_id;
  throw new Unnamed(found.length ? t("console.named_several", { name, ids: found.map((p) => p.player_id).join(", ") })
                               : t("console.named_none", { name }));
}

/** @param {SubmitEvent} ev */
async function submitEntry(ev) {
  ev.preventDefault();
  if (!here.view) return;
  const view = here.view;
  const typed = $("console-players").value.split(",").map((p) => p.trim()).filter(Boolean);
  const level = $("console-house").value;
  let players;
  try {
    players = typed.length ? await Promise.all(typed.map(playerNamed)) : [`bot:${level}`, `bot:${level}`];
  } catch (err) { $("console-said").textContent = err instanceof Unnamed ? err.message : errorText(err); return; }
  $("console-players").value = "";
  void command("POST", `/v1/tournaments/${view.tournament_id}/entries`, /** @satisfies {S["EntryIn"]} */ ({ players }));
}

/**
 * The export, fetched with my token (a plain link would carry none) and handed to the browser
 * as a file.
 * @param {"csv" | "json"} format
 */
async function exportStandings(format) {
  if (!here.view || !state.session) return;
  const id = here.view.tournament_id;
  try {
    const res = await fetch(`/v1/tournaments/${id}/export?format=${format}`,
                            { headers: { Authorization: `Bearer ${state.session.token}` } });
    if (!res.ok) throw Object.assign(new Error(res.statusText), await res.json().catch(() => ({})));
    const link = h("a", { href: URL.createObjectURL(await res.blob()), download: `tournament-${id}.${format}` });
    link.click();
    setTimeout(() => URL.revokeObjectURL(/** @type {HTMLAnchorElement} */ (link).href), 10_000);
  } catch (err) { $("console-said").textContent = errorText(err); }
}

export function setupOrganise() {
  $("console-entry-form").addEventListener("submit", (ev) => void submitEntry(ev));
  $("console-pair").addEventListener("submit", submitPairing);
  $("console-start").addEventListener("click", () => here.view && command("POST", `/v1/tournaments/${here.view.tournament_id}/start`));
  $("console-cancel").addEventListener("click", () => {
    // Irreversible: the entries are dropped and the tournament never reopens.
    if (here.view && confirm(t("console.cancel_sure"))) void command("POST", `/v1/tournaments/${here.view.tournament_id}/cancel`);
  });
  $("console-finish").addEventListener("click", () => {
    // The tables of the round play on; only the rounds after it are given up.
    if (here.view && confirm(t("console.finish_sure"))) void command("POST", `/v1/tournaments/${here.view.tournament_id}/finish`);
  });
  $("console-export-csv").addEventListener("click", () => exportStandings("csv"));
  $("console-export-json").addEventListener("click", () => exportStandings("json"));
}

/**
 * @param {View} view
 * @param {(entry: string) => string} entryName
 * @param {(id: string) => void} reread draws the screen again from the API
 */
export function drawOrganise(view, entryName, reread) {
  const box = $("tournament-console");
  const mine = owns(view);
  box.hidden = !mine;
  if (!mine) { here.view = null; return; }
  const fresh = !here.view || here.view.tournament_id !== view.tournament_id;
  here.view = view; here.reread = reread;
  if (fresh) $("console-said").textContent = "";
  const open = view.status === "registering";
  $("console-entries").replaceChildren(...(view.entries || []).filter((e) => !e.withdrawn).map((e) =>
    h("li", { dataset: { entry: e.entry_id } }, entryName(e.entry_id), " ",
      view.status !== "closed" ? h("button", { type: "button", class: "small", dataset: { withdraw: e.entry_id },
        onclick: () => command("DELETE", `/v1/tournaments/${view.tournament_id}/entries/${e.entry_id}`) }, t("console.withdraw")) : null)));
  $("console-entry-form").hidden = !open || view.format === "robot";
  const house = $("console-house");
  if (!house.options.length || fresh) {
    house.replaceChildren(...LEVELS.map((l) => h("option", { value: l }, t("seat_holder.bot", { level: t(`bot.${l}`) }))));
    house.value = "basic";
  }
  $("console-start").hidden = !open;
  $("console-cancel").hidden = !open;
  $("console-finish").hidden = !finishable(view);
  const round = pairable(view);
  const form = $("console-pair");
  form.hidden = round == null;
  if (round != null && (fresh || form.dataset.round !== String(round) || form.dataset.entries !== entriesKey(view))) {
    drawPairing(view, entryName, round);
    form.dataset.entries = entriesKey(view);
  }
}

// Which entries the pairing form was drawn for: drawn again only when they change, so a
// choice being made is not undone by the next event.
/** @param {View} view */
const entriesKey = (view) => (view.entries || []).filter((e) => !e.withdrawn).map((e) => e.entry_id).join(",");
