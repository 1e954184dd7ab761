// @ts-check
// Private tables, invitations, follow and block (docs/social.md): the host's invitation code
// and the invite form at an open table, my invitations (accept, decline, cancel), the tables
// of the players I follow, and following, blocking or reporting from a profile (my own lists
// whom I block: reports.js).

import { uuid } from "../shared/api.js";
import { freshEntropy } from "../shared/fair.js";
import { t, when } from "../shared/i18n.js";
import { $, call, errorText, say, state } from "../shared/session.js";
import { SEATS, h } from "../shared/table.js";
import { challengeButton } from "./challenge.js";
import { openReport, showBlocks } from "../chat/reports.js";
import { codeOf, rememberEntropy } from "../shared/storage.js";
import { gameLine, gameText, seatName, seatText } from "../shared/words.js";

/** @import { components } from "../shared/api-types" */
/** @import { Failure } from "../shared/api.js" */
/** @typedef {components["schemas"]} S */

/** @type {{ [playerId: string]: string }} */
const names = {};
/** @param {string} pid */
async function nameOf(pid) {
  if (names[pid] !== undefined) return names[pid];
  try { names[pid] = (/** @type {S["PlayerOut"]} */ (await call("GET", `/v1/players/${pid}`))).name || t("seat_holder.player"); } catch { names[pid] = t("seat_holder.player"); }
  return names[pid];
}

// At an open table where I sit: the code (to the host), a player to invite, my followed players,
// and a partnership to challenge while one side has both seats free.
/** @param {S["MatchViewOut"]} view */
export async function renderInvite(view) {
  const panel = $("invite-panel");
  const open = view.status === "open" && !!view.seat && SEATS.some((s) => !view.seats[s]);
  panel.hidden = !open;
  if (!open) return;
  $("pair-form").hidden = !SIDES.some(([a, b]) => !view.seats[a] && !view.seats[b]);
  const code = codeOf(view.match_id);
  $("invite-code").replaceChildren(...(code ? [t("invite.code", { code }), " ",
    h("a", { href: `#/join/${view.match_id}/${code}` }, t("invite.link"))] : []));
  if (panel.dataset.match === view.match_id) return;
  panel.dataset.match = view.match_id;
  try {
    const friends = /** @type {S["TiedPlayerOut"][]} */ (await call("GET", "/v1/players/me/following"));
    $("invite-friends").replaceChildren(...friends.map((f) => h("li", {}, f.name || t("seat_holder.player"),
      h("button", { type: "button", class: "small", onclick: () => invite(view.match_id, f.player_id) }, t("invite.go")))));
  } catch { $("invite-friends").replaceChildren(); }
}

/**
 * @param {string} matchId
 * @param {string} playerId
 */
async function invite(matchId, playerId) {
  try {
    await call("POST", `/v1/matches/${matchId}/invitations`, /** @satisfies {S["Invite"]} */ ({ player_id: playerId, command_id: uuid() }));
    say(t("invite.sent", { name: await nameOf(playerId) }));
  } catch (err) { say(errorText(err), "error"); }
}

/** @param {SubmitEvent} ev */
export function inviteForm(ev) {
  ev.preventDefault();
  if (state.matchId) invite(state.matchId, $("invite-player").value.trim());
}

// A challenge: two players asked to the two seats of one side, the first side with both free
// (docs/social.md); each accepts his own seat, one declining declines it for both.
const SIDES = [["N", "S"], ["E", "W"]];

/** @param {SubmitEvent} ev */
export async function pairForm(ev) {
  ev.preventDefault();
  if (!state.matchId) return;
  const players = [$("pair-first").value.trim(), $("pair-second").value.trim()];
  try {
    await call("POST", `/v1/matches/${state.matchId}/challenges`, /** @satisfies {S["Challenge"]} */ ({ players, command_id: uuid() }));
    const [a, b] = await Promise.all(players.map(nameOf));
    say(t("challenge.pair_sent", { first: a, second: b }));
  } catch (err) { say(errorText(err), "error"); }
}

// My invitations: those received (accept, decline) and those sent (cancel while pending).
export async function showInvitations() {
  /** @type {(inv: S["ListedInvitationOut"], received: boolean) => Promise<HTMLElement>} */
  const line = async (inv, received) => {
    const who = received ? await nameOf(inv.by) : (await Promise.all(Object.keys(inv.invitees).map(nameOf))).join(", ");
    const me = state.session && state.session.player_id;
    const partner = received && inv.kind === "challenge" ? Object.keys(inv.invitees).find((p) => p !== me) : null;
    const text = partner   // a challenge received: with whom, and at which seat
      ? t("invite.challenge_from", { who, game: gameText(inv.game), partner: await nameOf(partner), seat: seatName(inv.invitees[/** @type {string} */ (me)]) })
      : t(received ? "invite.from" : "invite.to", { who, game: gameText(inv.game) });
    const seats = partner ? "" : Object.values(inv.invitees).filter(Boolean).map(seatText).join(", ");
    const buttons = inv.status !== "pending" ? [] : received
      ? [h("button", { type: "button", class: "small accept", onclick: () => answer(inv, "accept") }, t("invite.accept")),
         h("button", { type: "button", class: "small decline", onclick: () => answer(inv, "decline") }, t("invite.decline"))]
      : [h("button", { type: "button", class: "small cancel", onclick: () => answer(inv, "cancel") }, t("invite.cancel"))];
    const said = t(`istatus.${inv.status}`, { defaultValue: inv.status });
    return h("li", { dataset: { invitation: inv.invitation_id, status: inv.status } },
      h("span", {}, text, seats ? ` · ${seats}` : "", ` · ${said}`,
        inv.status === "pending" && inv.expires_at ? ` · ${t("invite.until", { at: when(inv.expires_at) })}` : ""), ...buttons);
  };
  for (const [role, id] of /** @type {const} */ ([["received", "invitations-received"], ["sent", "invitations-sent"]])) {
    try {
      const list = /** @type {S["ListedInvitationOut"][]} */ (await call("GET", `/v1/invitations?role=${role}`));
      $(id).replaceChildren(...(list.length ? await Promise.all(list.map((inv) => line(inv, role === "received")))
        : [h("li", { class: "empty" }, t("common.nothing"))]));
    } catch (err) { $(id).replaceChildren(h("li", { class: "empty" }, errorText(err))); }
  }
}

/**
 * @param {S["ListedInvitationOut"]} inv
 * @param {"accept" | "decline" | "cancel"} verb
 */
async function answer(inv, verb) {
  try {
    /** @type {S["Accept"]} */                  // a decline's and a cancel's (`Answer`) have no entropy
    const body = verb === "accept" ? { entropy: freshEntropy(), command_id: uuid() } : { command_id: uuid() };
    await call("POST", `/v1/invitations/${inv.invitation_id}/${verb}`, body);
    if (verb === "accept") { rememberEntropy(inv.match_id, /** @type {string} */ (body.entropy)); location.hash = `#/match/${inv.match_id}`; return; }
    showInvitations();
  } catch (err) { $("invitations-error").textContent = errorText(err); }
}

// A private table's link with its code: sit at the first seat the code opens.
/**
 * @param {string} matchId
 * @param {string} code
 */
export async function joinWithCode(matchId, code) {
  for (const seat of SEATS) {
    const entropy = freshEntropy();
    try {
      await call("POST", `/v1/matches/${matchId}/seats/${seat}`, /** @satisfies {S["TakeSeat"]} */ ({ code, entropy, command_id: uuid() }));
      rememberEntropy(matchId, entropy);
      location.hash = `#/match/${matchId}`;
      return;
    } catch (err) { if (/** @type {Failure} */ (err).status === 404) break; }
  }
  $("invitations-error").textContent = t("invite.no_seat");
}

// The lobby's list of the open tables where the players I follow sit.
export async function followedTables() {
  try {
    const tables = /** @type {S["FollowedTableOut"][]} */ (await call("GET", "/v1/players/me/following/tables"));
    $("following-list").replaceChildren(...(tables.length ? tables.map((m) => h("li", { dataset: { match: m.match_id } },
      h("a", { href: `#/match/${m.match_id}` }, gameLine(m))))
      : [h("li", { class: "empty" }, t("lobby.none_yet"))]));
  } catch { /* best effort */ }
}

// On a profile: follow or block that player (not myself).
/** @param {string} playerId */
export function socialButtons(playerId) {
  const mine = playerId === (state.session && state.session.player_id);
  $("profile-social").hidden = mine;
  $("blocks-panel").hidden = !mine;
  if (mine) { showBlocks(); return; }
  challengeButton(playerId);
  $("report-player").onclick = () => openReport({ player_id: playerId }, t("report.title_player", { who: $("player-name").textContent }));
  /** @type {(path: string, on: boolean, del: string) => Promise<void>} */
  const set = async (path, on, del) => {
    try {
      const out = /** @type {S["TieOut"]} */ (on ? await call("POST", `/v1/players/me/${path}`, /** @satisfies {S["Tie"]} */ ({ player_id: playerId, command_id: uuid() }))
        : await call("DELETE", `/v1/players/me/${del}/${playerId}`));
      draw(out || {});
    } catch (err) { $("profile-social-said").textContent = errorText(err); }
  };
  /** @type {(ties: Partial<S["TieOut"]>) => void} */
  const draw = (ties) => {
    $("follow").textContent = ties.following ? t("social.unfollow") : t("social.follow");
    $("follow").onclick = () => set("following", !ties.following, "following");
    $("block").textContent = ties.blocked ? t("social.unblock") : t("social.block");
    $("block").onclick = () => set("blocks", !ties.blocked, "blocks");
    $("follow").dataset.on = String(!!ties.following);
    $("block").dataset.on = String(!!ties.blocked);
  };
  draw({});
}
