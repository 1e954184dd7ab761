// @ts-check
// The lobby: a new match from controls (the game's options, never JSON) or dealt from a match
// record file, the open tables (filtered by game) with a button per free seat, my matches, and
// watching a match by id.

import { uuid } from "../shared/api.js";
import { freshEntropy } from "../shared/fair.js";
import { num, t } from "../shared/i18n.js";
import { $, call, errorText, holderLabel, say } from "../shared/session.js";
import { SEATS, h } from "../shared/table.js";
import { rememberCode, rememberEntropy } from "../shared/storage.js";
import { gameLine, gameText, scoreLine, seatText, variantText } from "../shared/words.js";

/** @import { components } from "../shared/api-types" */
/** @typedef {components["schemas"]} S */
/** @typedef {S["CreateMatch"]} CreateMatch */
/**
 * A match record file as the form checks it (a game it offers, some deals): the server checks the rest.
 * @typedef {{ game: string, deals: unknown[], options?: unknown }} RecordFile
 */
/** @typedef {{ [option: string]: unknown }} Options */

const BOTS = ["random", "basic", "expert", "master"];
// Each game's default target (domain/<game>/options.py): Coinche's is 2000, not classic Belote's 1000.
/** @type {{ [game: string]: number }} */
const TARGET = { belote: 1000, coinche: 2000, cinch: 51, five_hundred: 500 };
const defaultTarget = () => {
  const game = $("create-game").value;
  return TARGET[game === "belote" && $("create-variant").value === "coinche" ? "coinche" : game];
};
const RECORD_BYTES = 1 << 20;          // the compose proxy's body limit (docs/api.md, "Limits")
/** @type {RecordFile | null} */
let record = null;                     // a match record chosen in the form, until another is

function fillSeatChoices() {
  for (const sel of /** @type {NodeListOf<HTMLSelectElement>} */ (document.querySelectorAll("#create-form select[data-seat]"))) {
    const keep = sel.value;
    sel.replaceChildren(...["me", "open", ...BOTS.map((b) => `bot:${b}`)].map((v) =>
      h("option", { value: v }, v.startsWith("bot:") ? t("seat_holder.bot", { level: t(`bot.${v.slice(4)}`) }) : t(`seat_choice.${v}`))));
    sel.value = keep || (sel.dataset.seat === "S" ? "me" : "bot:basic");
  }
  for (const el of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("[data-seat-label]"))) el.textContent = t(`seat_name.${el.dataset.seatLabel}`);
}

export function setupCreateForm() {
  fillSeatChoices();
  const game = $("create-game");
  const sync = () => {
    for (const box of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("#create-form [data-for]"))) box.hidden = box.dataset.for !== game.value;
    $("create-target").placeholder = num(defaultTarget());
  };
  game.addEventListener("change", sync); sync();
  $("create-variant").addEventListener("change", sync);
  $("lobby-game").addEventListener("change", refreshLobby);
  $("create-record").addEventListener("change", () => chooseRecord(game, sync));
  game.addEventListener("change", () => { if (record && record.game !== game.value) forgetRecord(); });
}

function forgetRecord() {            // another game chosen: the record is not for it
  record = null;
  $("create-record").value = "";
  $("create-record-said").textContent = "";
}

// A match record (docs/api.md, POST /v1/matches `record`): its deals are dealt in order, one
// match deal each, and its options fill the form (still the player's to change); the server
// checks the rest.
/**
 * @param {HTMLSelectElement} game
 * @param {() => void} sync
 */
async function chooseRecord(game, sync) {
  const file = /** @type {FileList} */ ($("create-record").files)[0];
  const said = $("create-record-said");
  record = null;
  said.textContent = "";
  delete said.dataset.kind;
  if (!file) return;
  if (file.size > RECORD_BYTES) { said.textContent = t("create.record_large"); said.dataset.kind = "error"; return; }
  try {
    const parsed = JSON.parse(await file.text());
    if (!parsed || typeof parsed.game !== "string" || ![...game.options].some((o) => o.value === parsed.game)
        || !Array.isArray(parsed.deals) || !parsed.deals.length) throw new Error("not a record");
    record = parsed;
  } catch {
    said.textContent = t("create.record_bad");
    said.dataset.kind = "error";
    return;
  }
  const chosen = /** @type {RecordFile} */ (record);      // read just above
  const options = optionsOf(chosen);
  game.value = chosen.game;
  $("create-variant").value = String(options.variant || "classic");
  $("create-rules").value = String(options.rules || "house");
  $("create-combinations").checked = options.combinations !== false;
  $("create-ta-sa").checked = options.contracts === "suits_ta_sa";
  $("create-mode").value = String(options.mode || "partnership");
  $("create-misere").checked = options.misere !== false;
  $("create-target").value = "";
  $("create-deals").value = String(chosen.deals.length);
  sync();
  said.textContent = t("create.record_loaded", { game: `${gameText(chosen.game)}${options.variant ? ` · ${variantText(options.variant)}` : ""}`,
                                                 count: chosen.deals.length });
}

// The options the form has controls for; a record's others go with it as they are.
const CONTROLLED = ["variant", "rules", "combinations", "contracts", "mode", "misere", "target", "deals"];

/** @type {(chosen: RecordFile) => Options} */
const optionsOf = (chosen) => (chosen.options && typeof chosen.options === "object" ? /** @type {Options} */ (chosen.options) : {});

/**
 * @param {RecordFile} chosen
 * @param {string} game
 */
function recordOptions(chosen, game) {
  const kept = Object.entries(optionsOf(chosen)).filter(([key]) => !CONTROLLED.includes(key));
  return { ...Object.fromEntries(kept), ...chosenOptions(game) };
}

export const relabelCreateForm = () => { fillSeatChoices(); $("create-target").placeholder = num(defaultTarget()); };

// The options the controls say, each only when it differs from the game's default.
/** @param {string} game */
function chosenOptions(game) {
  /** @type {Options} */
  const options = {};
  if (game === "belote") {
    options.variant = $("create-variant").value;
    if ($("create-rules").value !== "house") options.rules = $("create-rules").value;
    if (!$("create-combinations").checked) options.combinations = false;
    if (options.variant === "coinche" && $("create-ta-sa").checked) options.contracts = "suits_ta_sa";
  }
  if (game === "cinch" && $("create-mode").value !== "partnership") options.mode = $("create-mode").value;
  if (game === "five_hundred" && !$("create-misere").checked) options.misere = false;
  if ($("create-target").value) options.target = Number($("create-target").value);
  if ($("create-deals").value) options.deals = Number($("create-deals").value);
  return options;
}

/** @param {SubmitEvent} ev */
export async function createMatch(ev) {
  ev.preventDefault();
  const game = /** @type {CreateMatch["game"]} */ ($("create-game").value);     // the form offers the games
  /** @type {{ [seat: string]: string }} */
  const seats = {};
  for (const sel of /** @type {NodeListOf<HTMLSelectElement>} */ (document.querySelectorAll("#create-form select[data-seat]"))) {
    seats[/** @type {string} */ (sel.dataset.seat)] = sel.value;
  }
  /** @type {CreateMatch} */
  const body = { game, options: record ? recordOptions(record, game) : chosenOptions(game),
                 seats: /** @type {CreateMatch["seats"]} */ (seats), command_id: uuid() };   // a choice for each seat
  if (record) body.record = /** @type {CreateMatch["record"]} */ (record);
  const entropy = Object.values(seats).includes("me") ? freshEntropy() : null;
  if (entropy !== null) body.entropy = entropy;
  const [bid, play] = [$("create-clock-bid").value, $("create-clock-play").value];
  if (bid || play) body.clock = { bid: Number(bid || play), play: Number(play || bid) };
  if ($("create-rated").checked) body.rated = true;
  if ($("create-private").checked) body.visibility = "private";
  try {
    const view = /** @type {S["MatchViewOut"]} */ (await call("POST", "/v1/matches", body));
    if (entropy !== null) rememberEntropy(view.match_id, entropy);
    rememberCode(view.match_id, view.invitation_code);
    location.hash = `#/match/${view.match_id}`;
  } catch (err) { if (document.body.dataset.screen === "table") say(errorText(err), "error"); else lobbyError(err); }
}

/** @param {unknown} err */
function lobbyError(err) {
  const box = $("lobby-error") || h("p", { id: "lobby-error", class: "message", role: "alert", dataset: { kind: "error" } });
  box.textContent = errorText(err);
  if (!box.isConnected) $("create-form").append(box);
}


export async function refreshLobby() {
  if (document.body.dataset.screen !== "lobby") return;
  const game = $("lobby-game").value;
  try {
    const [open, mine] = /** @type {[S["LobbyRow"][], S["MatchSummary"][]]} */ (await Promise.all([
      call("GET", `/v1/matches?status=open${game ? `&game=${game}` : ""}`), call("GET", "/v1/matches/mine")]));
    $("open-list").replaceChildren(...(open.length ? open.map((m) => h("li", { dataset: { match: m.match_id } },
      h("span", {}, `${gameLine(m)} — ${SEATS.map((s) => `${seatText(s)}: ${holderLabel(m.seats[s])}`).join(", ")}`),
      ...SEATS.filter((s) => !m.seats[s]).map((s) => h("button", { type: "button", class: "small", onclick: () => join(m.match_id, s) },
                                                      t("lobby.sit", { seat: seatText(s) })))))
      : [h("li", { class: "empty" }, t("lobby.no_open"))]));
    $("mine-list").replaceChildren(...(mine.length ? mine.map((m) => h("li", {},
      h("a", { href: `#/match/${m.match_id}` }, gameLine(m)),
      ` ${m.status ? t(`mstatus.${m.status}`, { defaultValue: m.status }) : ""} ${m.score ? scoreLine(m.score) : ""}`,
      m.status === "finished" ? h("a", { class: "replay-link", href: `#/replay/${m.match_id}` }, t("replay.open")) : null))
      : [h("li", { class: "empty" }, t("lobby.none_yet"))]));
  } catch (err) { /* the lobby is best effort */ }
}

/**
 * @param {string} matchId
 * @param {string} seat
 * @param {() => void} [after]
 */
export async function join(matchId, seat, after = () => {}) {
  try {
    const entropy = freshEntropy();
    await call("POST", `/v1/matches/${matchId}/seats/${seat}`, /** @satisfies {S["TakeSeat"]} */ ({ command_id: uuid(), entropy }));
    rememberEntropy(matchId, entropy);
    if (location.hash === `#/match/${matchId}`) after();
    else location.hash = `#/match/${matchId}`;
  } catch (err) { if (document.body.dataset.screen === "table") say(errorText(err), "error"); else lobbyError(err); }
}
