// The screens around the tables: tournaments (list, register, standings, followed live),
// the leaderboards, a player's profile (ratings, stats, finished matches) and the replay of
// a finished match, deal by deal and trick by trick. All read the public API only.

import { num, pct, t, when } from "./i18n.js";
import { $, call, errorText, state } from "./session.js";
import { socialButtons } from "./social.js";
import { cardEl, h, trickPlays } from "./table.js";
import { contractText, describeAction, gameText, resultText, scoreLine, seatText, variantText } from "./words.js";

const grid = (el, head, rows) => el.replaceChildren(
  h("thead", {}, h("tr", {}, ...head.map((x) => h("th", { scope: "col" }, x)))),
  h("tbody", {}, ...(rows.length ? rows : [h("tr", {}, h("td", { colspan: String(head.length), class: "empty" }, t("common.nothing")))])));
const tr = (cells, attrs = {}) => h("tr", attrs, ...cells.map((c) => h("td", {}, c)));
const gameLine = (x) => `${gameText(x.game)}${x.options && x.options.variant ? ` · ${variantText(x.options.variant)}` : ""}`;

// --- tournaments ---------------------------------------------------------------------------

export async function showTournaments() {
  const status = $("tournament-status").value;
  try {
    const list = await call("GET", `/v1/tournaments${status ? `?status=${status}` : ""}`);
    $("tournament-list").replaceChildren(...(list.length ? list.map((x) => h("li", { dataset: { tournament: x.tournament_id } },
      h("a", { href: `#/tournament/${x.tournament_id}` }, x.name), ` — ${gameLine(x)} · ${t(`tstatus.${x.status}`)} · `,
      t("tournaments.entries", { count: x.entries || 0 }), x.schedule ? ` · ${when(x.schedule)}` : ""))
      : [h("li", { class: "empty" }, t("tournaments.none"))]));
  } catch (err) { $("tournament-list").replaceChildren(h("li", { class: "empty" }, errorText(err))); }
}

const live = { socket: null, id: null };
export function leaveTournament() {
  if (live.socket) { live.socket.onclose = null; live.socket.close(1000); }
  live.socket = null; live.id = null;
}

// One tournament: drawn from the live stream's snapshot, then again at each of its events.
export function showTournament(id) {
  if (live.id === id && live.socket) return;
  leaveTournament();
  live.id = id;
  $("tournament-live").textContent = t("tournaments.connecting");
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${proto}://${location.host}/v1/tournaments/${id}/ws`);
  live.socket = ws;
  ws.onopen = () => ws.send(JSON.stringify({ type: "auth", token: state.session.token }));
  ws.onmessage = (msg) => {
    if (ws !== live.socket) return;
    const m = JSON.parse(msg.data);
    if (m.type === "snapshot") { drawTournament(m.view, m.standings, m.version); $("tournament-live").textContent = t("tournaments.live"); }
    else if (m.type === "event") {
      document.body.dataset.tournamentVersion = String(m.version);
      if (m.event) $("tournament-live").textContent = t("tournaments.last_event", { what: t(`tevent.${m.event.type}`, { defaultValue: m.event.type.replace(/_/g, " ") }) });
      reread(id);
    } else if (m.type === "error") $("tournament-live").textContent = errorText(m);
  };
  ws.onclose = () => { if (ws === live.socket) { $("tournament-live").textContent = t("tournaments.ended"); live.socket = null; } };
}

async function reread(id) {
  try {
    const [view, standings] = await Promise.all([call("GET", `/v1/tournaments/${id}`), call("GET", `/v1/tournaments/${id}/standings`)]);
    if (live.id === id) drawTournament(view, standings, view.version);
  } catch { /* the next event reads again */ }
}

function drawTournament(view, standings, version) {
  document.body.dataset.tournamentVersion = String(version);
  document.body.dataset.tournamentStatus = view.status;
  const entries = Object.fromEntries((view.entries || []).map((e) => [e.entry_id, e]));
  const me = state.session && state.session.player_id;
  const holder = (p) => (p.startsWith("bot:") ? t("seat_holder.bot", { level: t(`bot.${p.slice(4)}`, { defaultValue: p.slice(4) }) })
    : p === me ? t("seat_holder.you") : t("seat_holder.player"));
  const entryName = (id) => {
    const e = entries[id];
    if (!e) return t("tournaments.entry");
    return e.name && e.name !== id ? e.name : e.players.map(holder).join(" & ");
  };
  $("tournament-name").textContent = view.name;
  $("tournament-info").textContent = [gameLine(view), t(`tformat.${view.format}`, { defaultValue: view.format }), t(`tstatus.${view.status}`),
    t("tournaments.entries", { count: (view.entries || []).filter((e) => !e.withdrawn).length }),
    view.schedule ? when(view.schedule) : null].filter(Boolean).join(" · ");
  const mine = (view.entries || []).some((e) => !e.withdrawn && e.players.includes(me));
  const reg = $("tournament-register");
  reg.hidden = view.status !== "registering";
  reg.disabled = mine;
  reg.textContent = mine ? t("tournaments.registered") : t("tournaments.register");
  reg.onclick = async () => {
    try { await call("POST", `/v1/tournaments/${view.tournament_id}/entries`, { players: [me] }); reread(view.tournament_id); }
    catch (err) { $("tournament-live").textContent = errorText(err); }
  };
  const lines = Array.isArray(standings) ? standings : (standings && standings.overall) || [];
  grid($("tournament-standings"), [t("standings.place"), t("standings.entry"), t("standings.points"), t("standings.played"),
                                    t("standings.wins"), t("standings.diff")],
       lines.map((l) => tr([num(l.place), entryName(l.entry), num(l.points), num(l.played), num(l.wins), num(l.diff)],
                           { dataset: { entry: l.entry } })));
  $("tournament-rounds").replaceChildren(...(view.rounds || []).map((r) => h("li", { dataset: { round: String(r.round) } },
    h("b", {}, t("tournaments.round", { round: num(r.round) })), r.closed ? ` (${t("tournaments.closed")})` : "",
    h("ul", {}, ...(r.tables || []).map((tb) => h("li", {}, `${t("tournaments.table", { table: num(tb.table) })}: ${entryName(tb.ns)} — ${entryName(tb.ew)} `,
      tb.match_id ? h("a", { href: `#/match/${tb.match_id}` }, t("tournaments.watch")) : null,
      tb.result && tb.result.score ? ` ${scoreLine(tb.result.score)}` : "")),
      ...(r.byes || []).map((b) => h("li", {}, t("tournaments.bye", { entry: entryName(b) })))))));
}

// --- leaderboards and profiles ---------------------------------------------------------------

export async function showLeaderboard() {
  const pool = $("pool").value;
  try {
    const board = await call("GET", `/v1/leaderboards/${pool}?limit=50`);
    grid($("leaderboard"), [t("standings.place"), t("profile.player"), t("profile.rating"), t("profile.games"), t("profile.wins")],
         board.entries.map((e) => tr([num(e.rank), h("a", { href: `#/player/${e.player_id}` }, e.name || t("seat_holder.player")),
                                      `${num(Math.round(e.rating))}${e.provisional ? " ?" : ""}`, num(e.games), num(e.wins)])));
  } catch (err) { grid($("leaderboard"), [errorText(err)], []); }
}

export async function showPlayer(id) {
  socialButtons(id);
  try {
    const [player, ratings, stats] = await Promise.all([call("GET", `/v1/players/${id}`), call("GET", `/v1/players/${id}/ratings`),
                                                        call("GET", `/v1/players/${id}/stats`)]);
    $("player-name").textContent = player.name || t("seat_holder.player");
    grid($("player-ratings"), [t("leaderboards.pool"), t("profile.rating"), t("profile.games"), t("profile.wins")],
         ratings.pools.map((p) => tr([t(`pool.${p.pool}`, { defaultValue: p.pool }), `${num(Math.round(p.rating))}${p.provisional ? " ?" : ""}`,
                                      num(p.games), num(p.wins)])));
    grid($("player-stats"), [t("leaderboards.pool"), t("profile.matches"), t("profile.wins"), t("profile.deals"), t("profile.made")],
         stats.pools.map((p) => tr([t(`pool.${p.pool}`, { defaultValue: p.pool }), num(p.matches), num(p.wins), num(p.deals),
                                    p.made_percent == null ? "—" : pct(p.made_percent / 100)])));
  } catch (err) { $("player-name").textContent = errorText(err); }
  const mine = id === (state.session && state.session.player_id);
  $("player-matches").replaceChildren();
  if (!mine) return;
  try {
    const done = await call("GET", "/v1/matches/mine?status=finished");
    $("player-matches").replaceChildren(...(done.length ? done.map((m) => h("li", { dataset: { match: m.match_id } },
      h("a", { href: `#/replay/${m.match_id}` }, gameLine(m)), m.score ? ` ${scoreLine(m.score)}` : ""))
      : [h("li", { class: "empty" }, t("lobby.none_yet"))]));
  } catch { /* best effort */ }
}

// --- the replay of a finished match ------------------------------------------------------------

const replay = { id: null, record: null, played: null, deal: 0, step: 0 };

export async function showReplay(id) {
  Object.assign(replay, { id, record: null, played: null, deal: 0, step: 0 });
  $("replay-info").textContent = t("table.loading");
  try {
    const record = await call("GET", `/v1/matches/${id}/record`);
    const played = await call("POST", "/v1/records/play", record);
    Object.assign(replay, { record, played });
    drawReplay();
  } catch (err) { $("replay-info").textContent = errorText(err); }
}

export function replayControls() {
  $("replay-deal").addEventListener("change", () => { replay.deal = Number($("replay-deal").value); replay.step = 0; drawReplay(); });
  $("replay-prev").addEventListener("click", () => { replay.step = Math.max(0, replay.step - 1); drawReplay(); });
  $("replay-next").addEventListener("click", () => { replay.step += 1; drawReplay(); });
}

// Step 0 is the auction; step k the k-th trick, each card by its seat, and who took it.
export function drawReplay() {
  if (!replay.played) return;
  const { record, played } = replay;
  $("replay-info").textContent = `${gameLine(record)} · ${t("replay.deals", { count: record.deals.length })} · ${scoreLine(played.match_score)}`;
  $("replay-deal").replaceChildren(...record.deals.map((_, i) => h("option", { value: String(i) }, t("replay.deal_n", { deal: num(i + 1) }))));
  $("replay-deal").value = String(replay.deal);
  const deal = replay.played.deals[replay.deal] || {};
  const source = replay.record.deals[replay.deal] || {};
  const tricks = deal.tricks || [];
  replay.step = Math.min(replay.step, tricks.length);
  document.body.dataset.replayStep = String(replay.step);
  $("replay-contract").textContent = deal.contract ? contractText(deal.contract) : resultText(deal.result);
  $("replay-step").textContent = replay.step === 0 ? t("replay.auction") : t("replay.trick", { n: num(replay.step), count: tricks.length });
  $("replay-prev").disabled = replay.step === 0;
  $("replay-next").disabled = replay.step >= tricks.length;
  if (replay.step === 0) {
    const calls = (source.actions || []).filter((a) => a.action !== "play");
    $("replay-trick").replaceChildren(h("ol", { class: "auction" }, ...calls.map((a) => h("li", {}, h("b", {}, seatText(a.seat)), " ", describeAction(a)))));
  } else {
    const trick = tricks[replay.step - 1];
    $("replay-trick").replaceChildren(h("div", { class: "last-cards" }, ...trickPlays(trick).map(([s, c]) =>
      h("div", { class: "last-play" }, h("small", {}, seatText(s)), cardEl(c)))),
      h("p", {}, t("table.taken_by", { seat: seatText(trick.winner) })));
  }
  $("replay-score").textContent = deal.score ? `${resultText(deal.result)} · ${scoreLine(deal.score)}` : "";
}
