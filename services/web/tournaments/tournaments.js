// @ts-check
// The tournaments (docs/tournaments.md): the list by status, one tournament followed live
// (WS /v1/tournaments/{id}/ws: drawn from its snapshot, read again at each event), registering,
// the standings and the rounds' tables by their players' names, with a link to watch each (to
// go to it, for my own), and the organiser's commands (organise.js). All read the public API only.

import { num, t, when } from "../shared/i18n.js";
import { grid, tr } from "../shared/grid.js";
import { $, call, errorText, state } from "../shared/session.js";
import { h } from "../shared/table.js";
import { gameLine, scoreLine, seatText } from "../shared/words.js";
import { drawDuplicate } from "./duplicate.js";
import { drawOrganise } from "./organise.js";

/** @import { components } from "../shared/api-types" */
/** @import { components as Live } from "../shared/live-types" */
/** @import { Session } from "../shared/storage.js" */
/** @typedef {components["schemas"]} S */
/** @typedef {Live["schemas"]} L */
/**
 * A message of a tournament's WebSocket (`tournamentSocket`). The AsyncAPI document gives the
 * snapshot's `view` and `standings` as bare objects and its events as a match's: they are the
 * tournament as GET /v1/tournaments/{id} gives it, its standings' `overall`, and the
 * tournament's own events (of which this page reads the type).
 * @typedef {Omit<L["TournamentSnapshot"], "view" | "standings"> & { view: S["TournamentOut"], standings: S["StandingLine"][] }
 *   | Omit<L["Event"], "event"> & { event: { type: string } | null } | L["Error"]} Message
 */

export async function showTournaments() {
  const status = $("tournament-status").value;
  try {
    const list = /** @type {S["TournamentRow"][]} */ (await call("GET", `/v1/tournaments${status ? `?status=${status}` : ""}`));
    $("tournament-list").replaceChildren(...(list.length ? list.map((x) => h("li", { dataset: { tournament: x.tournament_id } },
      h("a", { href: `#/tournament/${x.tournament_id}` }, x.name), ` — ${gameLine(x)} · ${t(`tstatus.${x.status}`)} · `,
      t("tournaments.entries", { count: x.entries || 0 }), x.schedule ? ` · ${when(x.schedule)}` : ""))
      : [h("li", { class: "empty" }, t("tournaments.none"))]));
  } catch (err) { $("tournament-list").replaceChildren(h("li", { class: "empty" }, errorText(err))); }
}

/** @type {{ socket: WebSocket | null, id: string | null }} */
const live = { socket: null, id: null };
export function leaveTournament() {
  if (live.socket) { live.socket.onclose = null; live.socket.close(1000); }
  live.socket = null; live.id = null;
}

// One tournament: drawn from the live stream's snapshot, then again at each of its events.
/** @param {string} id */
export function showTournament(id) {
  if (live.id === id && live.socket) return;
  leaveTournament();
  live.id = id;
  $("tournament-live").textContent = t("tournaments.connecting");
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${proto}://${location.host}/v1/tournaments/${id}/ws`);
  live.socket = ws;
  ws.onopen = () => ws.send(JSON.stringify(/** @satisfies {L["Auth"]} */ ({ type: "auth", token: /** @type {Session} */ (state.session).token })));
  ws.onmessage = (msg) => {
    if (ws !== live.socket) return;
    const m = /** @type {Message} */ (JSON.parse(msg.data));
    if (m.type === "snapshot") { drawTournament(m.view, m.standings, m.version); $("tournament-live").textContent = t("tournaments.live"); }
    else if (m.type === "event") {
      document.body.dataset.tournamentVersion = String(m.version);
      if (m.event) $("tournament-live").textContent = t("tournaments.last_event", { what: t(`tevent.${m.event.type}`, { defaultValue: m.event.type.replace(/_/g, " ") }) });
      reread(id);
    } else if (m.type === "error") $("tournament-live").textContent = errorText(m);
  };
  ws.onclose = () => { if (ws === live.socket) { $("tournament-live").textContent = t("tournaments.ended"); live.socket = null; } };
}

/** @param {string} id */
async function reread(id) {
  try {
    const [view, standings] = /** @type {[S["TournamentOut"], S["StandingsOut"]]} */ (await Promise.all([
      call("GET", `/v1/tournaments/${id}`), call("GET", `/v1/tournaments/${id}/standings`)]));
    if (live.id === id) drawTournament(view, standings, view.version);
  } catch { /* the next event reads again */ }
}

/**
 * @param {S["TournamentOut"]} view
 * @param {S["StandingLine"][] | S["StandingsOut"]} standings the live snapshot's (its `overall`) or GET …/standings
 * @param {number} version
 */
function drawTournament(view, standings, version) {
  document.body.dataset.tournamentVersion = String(version);
  document.body.dataset.tournamentStatus = view.status;
  const entries = Object.fromEntries((view.entries || []).map((e) => [e.entry_id, e]));
  const me = state.session && state.session.player_id;
  const names = view.player_names || {};
  const holder = (/** @type {string} */ p) => (p.startsWith("bot:") ? t("seat_holder.bot", { level: t(`bot.${p.slice(4)}`, { defaultValue: p.slice(4) }) })
    : names[p] || (p === me ? t("seat_holder.you") : t("seat_holder.player")));
  const entryName = (/** @type {string | null} */ id) => {
    const e = entries[/** @type {string} */ (id)];            // null: none, as an unknown id
    if (!e) return t("tournaments.entry");
    if (e.name && e.name !== id) return e.name;
    // One player of a partnership is partnered by a bot of the tournament's level, which the entry does not list.
    const partner = !view.individual && view.format !== "robot" && e.players.length === 1 ? [`bot:${view.bots.level || "basic"}`] : [];
    return [...e.players, ...partner].map(holder).join(" & ");
  };
  $("tournament-name").textContent = view.name;
  const why = view.closed_reason && view.closed_reason !== "completed" ? t(`tclosed.${view.closed_reason}`, { defaultValue: view.closed_reason }) : null;
  $("tournament-info").textContent = [gameLine(view), t(`tformat.${view.format}`, { defaultValue: view.format }), t(`tstatus.${view.status}`), why,
    t("tournaments.entries", { count: (view.entries || []).filter((e) => !e.withdrawn).length }),
    view.schedule ? when(view.schedule) : null].filter(Boolean).join(" · ");
  const mine = (view.entries || []).some((e) => !e.withdrawn && e.players.includes(/** @type {string} */ (me)));
  const reg = $("tournament-register");
  reg.hidden = view.status !== "registering";
  reg.disabled = mine;
  reg.textContent = mine ? t("tournaments.registered") : t("tournaments.register");
  reg.onclick = async () => {
    try {
      await call("POST", `/v1/tournaments/${view.tournament_id}/entries`, /** @satisfies {S["EntryIn"]} */ ({ players: [/** @type {string} */ (me)] }));
      reread(view.tournament_id);
    }
    catch (err) { $("tournament-live").textContent = errorText(err); }
  };
  drawDuplicate(view, entryName);
  drawOrganise(view, entryName, reread);
  const myEntries = new Set((view.entries || []).filter((e) => e.players.includes(/** @type {string} */ (me))).map((e) => e.entry_id));
  const isMine = (/** @type {S["TableOut"]} */ tb) => [tb.ns, tb.ew, ...Object.values(tb.seats || {})].some((e) => e != null && myEntries.has(e));
  const current = (view.rounds || []).filter((r) => !r.closed).flatMap((r) => r.tables).find((tb) => isMine(tb) && tb.match_id && !tb.result);
  const go = /** @type {HTMLAnchorElement} */ ($("tournament-mine"));
  go.hidden = !current;
  if (current) go.href = `#/match/${current.match_id}`;
  const lines = Array.isArray(standings) ? standings : (standings && standings.overall) || [];
  grid($("tournament-standings"), [t("standings.place"), t("standings.entry"), t("standings.points"), t("standings.played"),
                                    t("standings.wins"), t("standings.diff")],
       lines.map((l) => tr([num(l.place), entries[l.entry] && entries[l.entry].withdrawn
                              ? `${entryName(l.entry)} (${t("tournaments.withdrawn")})` : entryName(l.entry), num(l.points), num(l.played), num(l.wins), num(l.diff)],
                           { dataset: { entry: l.entry } })));
  $("tournament-rounds").replaceChildren(...(view.rounds || []).map((r) => h("li", { dataset: { round: String(r.round) } },
    h("b", {}, t("tournaments.round", { round: num(r.round) })), r.closed ? ` (${t("tournaments.closed")})` : "",
    h("ul", {}, ...(r.tables || []).map((tb) => h("li", {}, `${t("tournaments.table", { table: num(tb.table) })}: ${tb.seats
      ? Object.entries(tb.seats).map(([seat, e]) => `${seatText(seat)} ${entryName(e)}`).join(", ")
      : `${entryName(tb.ns)} — ${entryName(tb.ew)}`} `,
      tb.match_id ? h("a", { href: `#/match/${tb.match_id}`, dataset: { mine: String(isMine(tb)) } },
                      isMine(tb) ? t("tournaments.my_table") : t("tournaments.watch")) : null,
      tb.result && tb.result.score ? ` ${scoreLine(tb.result.score)}` : "")),
      ...(r.byes || []).map((b) => h("li", {}, t("tournaments.bye", { entry: entryName(b) })))))));
}
