// @ts-check
// The leaderboards (one per pool) and a player's profile (docs/ratings.md, docs/social.md): his
// ratings and stats, the social buttons (social.js), and on my own profile my finished matches,
// each a link to its replay. All read the public API only.

import { locale, num, pct, t } from "../shared/i18n.js";
import { grid, tr } from "../shared/grid.js";
import { $, call, errorText, state } from "../shared/session.js";
import { socialButtons } from "./social.js";
import { h } from "../shared/table.js";
import { gameLine, scoreLine } from "../shared/words.js";

/** @import { components } from "../shared/api-types" */
/** @typedef {components["schemas"]} S */

// A display rating as it is, to a tenth (−1.5, not −1), and "?" when it is provisional, the
// "?" explained by its title and the legend under the grid.
/** @type {(rating: number, provisional: boolean) => Node | string} */
const ratingCell = (rating, provisional) => {
  const text = new Intl.NumberFormat(locale(), { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(rating);
  return provisional ? h("span", {}, text, " ", h("abbr", { class: "provisional", title: t("leaderboards.provisional") }, "?")) : text;
};

export async function showLeaderboard() {
  const pool = $("pool").value;
  try {
    const board = /** @type {S["LeaderboardOut"]} */ (await call("GET", `/v1/leaderboards/${pool}?limit=50`));
    grid($("leaderboard"), [t("standings.place"), t("profile.player"), t("profile.rating"), t("profile.games"), t("profile.wins")],
         board.entries.map((e) => tr([num(e.rank), h("a", { href: `#/player/${e.player_id}` }, e.name || t("seat_holder.player")),
                                      ratingCell(e.rating, e.provisional), num(e.games), num(e.wins)])));
  } catch (err) { grid($("leaderboard"), [errorText(err)], []); }
}

/** @param {string} id */
export async function showPlayer(id) {
  socialButtons(id);
  try {
    const [player, ratings, stats] = /** @type {[S["PlayerOut"], S["PlayerRatingsOut"], S["PlayerStatsOut"]]} */ (await Promise.all([
      call("GET", `/v1/players/${id}`), call("GET", `/v1/players/${id}/ratings`), call("GET", `/v1/players/${id}/stats`)]));
    $("player-name").textContent = player.name || t("seat_holder.player");
    grid($("player-ratings"), [t("leaderboards.pool"), t("profile.rating"), t("profile.games"), t("profile.wins")],
         ratings.pools.map((p) => tr([t(`pool.${p.pool}`, { defaultValue: p.pool }), ratingCell(p.rating, p.provisional),
                                      num(p.games), num(p.wins)])));
    grid($("player-stats"), [t("leaderboards.pool"), t("profile.matches"), t("profile.wins"), t("profile.deals"), t("profile.made")],
         stats.pools.map((p) => tr([t(`pool.${p.pool}`, { defaultValue: p.pool }), num(p.matches), num(p.wins), num(p.deals),
                                    p.made_percent == null ? "—" : pct(p.made_percent / 100)])));
  } catch (err) { $("player-name").textContent = errorText(err); }
  const mine = id === (state.session && state.session.player_id);
  $("player-matches").replaceChildren();
  if (!mine) return;
  try {
    const done = /** @type {S["MatchSummary"][]} */ (await call("GET", "/v1/matches/mine?status=finished"));
    $("player-matches").replaceChildren(...(done.length ? done.map((m) => h("li", { dataset: { match: m.match_id } },
      h("a", { href: `#/replay/${m.match_id}` }, gameLine(m)), m.score ? ` ${scoreLine(m.score)}` : ""))
      : [h("li", { class: "empty" }, t("lobby.none_yet"))]));
  } catch { /* best effort */ }
}
