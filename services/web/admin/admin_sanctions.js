// @ts-check
// A player's sanctions on the admin page (docs/chat.md, "Moderation"): looked up by player id,
// or from a report's reported player, with GET /v1/admin/players/{id}/sanctions: muted until
// when and why, banned and why. A running mute or a ban is lifted here (POST …/unmute,
// …/unban) with the admin's own reason, as the server asks; its answer is the sanctions now,
// shown at once. A mute that has run out is not a mute: the server answers it as none.

import { uuid } from "../shared/api.js";
import { t, when } from "../shared/i18n.js";
import { h } from "../shared/table.js";

/** @import { components } from "../shared/api-types" */
/** @import { Failure } from "../shared/api.js" */
/** @import { AdminPage, ById } from "../shared/pages" */
/** @typedef {components["schemas"]} S */
/** @typedef {(path: string, method?: string, body?: unknown) => Promise<unknown>} Call */
/** @typedef {string | null | undefined} Name a player's name, null when erased */

/** @type {ById<AdminPage>} */
const $ = (id) => /** @type {any} */ (document.getElementById(id));
/** @type {{ token: () => string | null, call: Call, shown: { now: S["SanctionsOut"], name: Name } | null }} */
const ctx = { token: () => null, call: /** @type {any} */ (null), shown: null };     // token and call set by sanctionsControls
/** @type {(id: string, what: string) => string} */
const path = (id, what) => `/v1/admin/players/${encodeURIComponent(id)}/${what}`;
/** @type {(name: Name) => string} */
const named = (name) => name || t("reports.erased");
/** @type {(text: string) => void} */
const say = (text) => { $("sanctions-said").textContent = text; };

/**
 * @param {() => string | null} token
 * @param {Call} call
 */
export function sanctionsControls(token, call) {
  Object.assign(ctx, { token, call });
  $("sanctions-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    showSanctions($("sanctions-player").value.trim());
  });
}

/**
 * Look a player up; `name` when the caller knows it (a report names him), else his profile's.
 * @param {string} playerId
 * @param {Name} [name]
 */
export async function showSanctions(playerId, name = undefined) {
  if (!ctx.token() || !playerId) return;
  $("sanctions-player").value = playerId;
  say("");
  try {
    const now = /** @type {S["SanctionsOut"]} */ (await ctx.call(path(playerId, "sanctions")));
    if (name === undefined) {
      name = await ctx.call(`/v1/players/${encodeURIComponent(playerId)}`).then((p) => /** @type {S["PlayerOut"]} */ (p).name, () => null);
    }
    render(now, name);
    $("sanctions-panel").scrollIntoView({ block: "nearest" });
  } catch (thrown) {
    const err = /** @type {Failure} */ (thrown);
    ctx.shown = null;
    $("sanctions").replaceChildren();
    for (const key of ["player", "muted", "banned"]) delete $("sanctions").dataset[key];
    say(err.code === "unknown_player" ? t("sanctions.unknown", { id: playerId }) : `${err.code || "error"}: ${err.message}`);
  }
}

/**
 * A sanction made elsewhere on the page (the reports queue): its answer is the sanctions now.
 * @param {S["SanctionsOut"]} now
 */
export function sanctioned(now) {
  if (ctx.shown && now && ctx.shown.now.player_id === now.player_id) render(now, ctx.shown.name);
}

/** Drawn again in the admin's new language. */
export function redrawSanctions() {
  if (ctx.shown) render(ctx.shown.now, ctx.shown.name);
}

/**
 * @param {S["SanctionsOut"]} now
 * @param {Name} name
 */
function render(now, name) {
  ctx.shown = { now, name };
  const box = $("sanctions");
  Object.assign(box.dataset, { player: now.player_id, muted: String(!!now.muted_until), banned: String(!!now.banned) });
  const mute = now.muted_until ? t("sanctions.muted", { until: when(now.muted_until), reason: now.mute_reason || "" })
    : t("sanctions.not_muted");
  const ban = now.banned ? t("sanctions.banned", { reason: now.ban_reason || "" }) : t("sanctions.not_banned");
  const lines = h("ul", { class: "list" },
    h("li", { id: "sanction-mute", class: now.muted_until ? "flag" : null }, mute),
    h("li", { id: "sanction-ban", class: now.banned ? "flag" : null }, ban));
  box.replaceChildren(h("h3", {}, t("sanctions.of", { player: named(name) })),
                      h("div", {}, h("code", { id: "sanctions-id" }, now.player_id)), lines,
                      ...(now.muted_until || now.banned ? [liftForm(now)] : []));
}

/** @param {S["SanctionsOut"]} now */
function liftForm(now) {
  const reason = h("input", { id: "sanctions-reason", maxlength: "500", placeholder: t("reports.your_reason"),
                              "aria-label": t("reports.your_reason") });
  const button = (/** @type {"unmute" | "unban"} */ verb) => h("button", { type: "button", id: verb, class: "small", onclick: () => lift(now.player_id, verb, reason) },
                             t(`sanctions.${verb}`));
  const form = h("form", { class: "inline", id: "sanctions-lift" }, reason,
                 now.muted_until ? button("unmute") : null, now.banned ? button("unban") : null);
  form.addEventListener("submit", (ev) => ev.preventDefault());
  return form;
}

/**
 * @param {string} playerId
 * @param {"unmute" | "unban"} verb
 * @param {HTMLInputElement} input
 */
async function lift(playerId, verb, input) {
  const reason = input.value.trim();
  if (!reason) { say(t("reports.need_reason")); input.focus(); return; }
  const name = ctx.shown ? ctx.shown.name : null;
  try {
    const now = /** @type {S["SanctionsOut"]} */ (await ctx.call(path(playerId, verb), "POST", /** @satisfies {S["Sanction"]} */ ({ reason, command_id: uuid() })));
    render(now, name);
    say(t(verb === "unmute" ? "sanctions.unmuted" : "sanctions.unbanned", { player: named(name) }));
    document.body.dataset.sanctioned = `${playerId}:${verb}`;
  } catch (thrown) { const err = /** @type {Failure} */ (thrown); say(`${err.code || "error"}: ${err.message}`); }
}
