// A challenge from a player's profile (docs/social.md, "Invitations and challenges"): a private
// table of the chosen game with me at S (POST /v1/matches,
// `visibility: "private"`), that player invited to W (POST …/invitations {player_id, seat}), the
// bots our partners; the profile says so, with a link to the table. He answers from his
// invitations; his accepting takes the last seat and starts the match.

import { uuid } from "./api.js";
import { freshEntropy } from "./fair.js";
import { t } from "./i18n.js";
import { $, call, errorText } from "./session.js";
import { rememberCode } from "./social.js";
import { h } from "./table.js";
import { rememberEntropy } from "./verified.js";

const SEATS_OF_A_CHALLENGE = { N: "bot:basic", E: "bot:basic", S: "me", W: "open" };

export function challengeButton(playerId) {
  $("challenge").onclick = () => challenge(playerId, $("challenge-game").value);
}

async function challenge(playerId, game) {
  const entropy = freshEntropy();
  try {
    const view = await call("POST", "/v1/matches", { game, seats: SEATS_OF_A_CHALLENGE, visibility: "private", entropy, command_id: uuid() });
    rememberEntropy(view.match_id, entropy);
    rememberCode(view.match_id, view.invitation_code);
    await call("POST", `/v1/matches/${view.match_id}/invitations`, { player_id: playerId, seat: "W", command_id: uuid() });
    $("profile-social-said").replaceChildren(t("challenge.sent", { name: $("player-name").textContent }), " ",
      h("a", { href: `#/match/${view.match_id}`, id: "challenge-table" }, t("challenge.table")));
  } catch (err) { $("profile-social-said").textContent = errorText(err); }
}
