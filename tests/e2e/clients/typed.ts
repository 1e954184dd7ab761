// Types, not `any`: what must compile against the generated types, and what must not.
import type { paths, components } from "./api";

type CreateMatch = paths["/v1/matches"]["post"]["requestBody"]["content"]["application/json"];
type Registered = paths["/v1/players"]["post"]["responses"]["201"]["content"]["application/json"];
type ErrorBody = components["schemas"]["ErrorOut"];

const create: CreateMatch = { game: "belote", options: { deals: 1 }, seats: { N: "me", E: "open", S: "open", W: "open" } };
const refusal: ErrorBody = { code: "stale_version", message: "the match moved on", details: { current_version: 9 } };
function token(answer: Registered): string { return answer.token; }

// @ts-expect-error: a game is a string, not a number; were the types `any`, this line would fail tsc
const wrong: CreateMatch = { game: 1, seats: {} };
// @ts-expect-error: an option is the game's, typed; an unknown one is refused as the server refuses it
const unknown: CreateMatch = { game: "cinch", options: { no_such_option: 1 }, seats: create.seats };

export { create, refusal, token, wrong, unknown };
