// @ts-check
// A challenge from a player's profile (docs/social.md, "Invitations and challenges"): a private
// table of the chosen way of playing (a Belote variant, Cinch in partnership, Five Hundred; the
// game's other options its defaults) with me at S (POST /v1/matches,
// `visibility: "private"`), that player invited to W (POST …/invitations {player_id, seat}), the
// bots our partners; the profile says so, with a link to the table. He answers from his
// invitations; his accepting takes the last seat and starts the match.

import { uuid } from "../shared/api.js";
import { freshEntropy } from "../shared/fair.js";
import { t } from "../shared/i18n.js";
import { $, call, errorText } from "../shared/session.js";
import { rememberCode, rememberEntropy } from "../shared/storage.js";
import { h } from "../shared/table.js";

/** @import { components } from "../shared/api-types" */
/** @typedef {components["schemas"]} S */

const SEATS_OF_A_CHALLENGE = { N: "bot:basic", E: "bot:basic", S: "me", W: "open" };
/** @type {{ [way: string]: [S["CreateMatch"]["game"], { variant?: "classic" | "sans_atout" | "coinche" }] }} */
const WAYS = {                        // the choices' values: the leaderboards' pools
  belote_classic: ["belote", { variant: "classic" }],
  belote_sans_atout: ["belote", { variant: "sans_atout" }],
  belote_coinche: ["belote", { variant: "coinche" }],
  cinch_partnership: ["cinch", {}],
  five_hundred: ["five_hundred", {}],
};

/** @param {string} playerId */
export function challengeButton(playerId) {
  $("challenge").onclick = () => challenge(playerId, $("challenge-game").value);
}

/**
 * @param {string} playerId
 * @param {string} way
 */
async function challenge(playerId, way) {
  const [game, options] = WAYS[way] || WAYS.belote_classic;
  const entropy = freshEntropy();
  try {
    const view = /** @type {S["MatchViewOut"]} */ (await call("POST", "/v1/matches",
      /** @satisfies {S["CreateMatch"]} */ ({ game, options, seats: SEATS_OF_A_CHALLENGE, visibility: "private", entropy, command_id: uuid() })));
    rememberEntropy(view.match_id, entropy);
    rememberCode(view.match_id, view.invitation_code);
    await call("POST", `/v1/matches/${view.match_id}/invitations`,
               /** @satisfies {S["Invite"]} */ ({ player_id: playerId, seat: "W", command_id: uuid() }));
    $("profile-social-said").replaceChildren(t("challenge.sent", { name: $("player-name").textContent }), " ",
      h("a", { href: `#/match/${view.match_id}`, id: "challenge-table" }, t("challenge.table")));
  } catch (err) { $("profile-social-said").textContent = errorText(err); }
}
