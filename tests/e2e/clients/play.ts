// One whole deal of each game, played with openapi-fetch and nothing but the types
// openapi-typescript makes of the served document (./api.d.ts, generated beside this file).
// It must pass `tsc --strict` before it runs: every request, answer and action is typed by
// the document, every action built from a legal action of the view.
//
// Usage: node play.js BASE_URL; prints one JSON line: by game, the match, the actions sent
// and its final status.
import createClient from "openapi-fetch";
import type { Client } from "openapi-fetch";
import type { components, paths } from "./api";

declare const process: { argv: string[] };   // node's, without pulling in @types/node

type Schemas = components["schemas"];
type Seat = Schemas["Seat"];
type View = Schemas["MatchViewOut"];
type CreateMatch = Schemas["CreateMatch"];
type Command = NonNullable<paths["/v1/matches/{match_id}/actions"]["post"]["requestBody"]>["content"]["application/json"];
type Api = Client<paths>;
type Played = { match_id: string; actions: number; status: string };

const SEATS: Seat[] = ["N", "E", "S", "W"];

function ok<T>(answer: { data?: T; error?: unknown; response: Response }): T {
  if (answer.data === undefined) {
    throw new Error(`${answer.response.url}: ${answer.response.status} ${JSON.stringify(answer.error)}`);
  }
  return answer.data;
}

function random(seed: number): () => number {   // mulberry32: the same game on every run
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const next = random(20261204);

function pick<T>(items: T[]): T {
  const item = items[Math.floor(next() * items.length)];
  if (item === undefined) throw new Error("nothing to pick from");
  return item;
}

function sample(cards: string[], count: number): string[] {
  const left = [...cards];
  return Array.from({ length: count }, () => left.splice(Math.floor(next() * left.length), 1)[0] ?? "");
}

// A legal action as the command that takes it: the same fields but for a choice of cards
// (`{choose, from}`), which is sent as the cards chosen.
function choose(view: View): Command {
  const envelope = { command_id: crypto.randomUUID(), expected_version: view.version };
  const table = view.table;
  switch (table.game) {
    case "belote":
      return { ...envelope, ...pick(table.legal ?? []) };
    case "cinch": {
      const action = pick(table.legal);
      if (action.action === "rob") {
        return { ...envelope, action: "rob", keep: sample(action.keep.from, action.keep.choose) };
      }
      return action.action === "discard"
        ? { ...envelope, action: "discard", cards: sample(action.cards.from, action.cards.choose) }
        : { ...envelope, ...action };
    }
    case "five_hundred": {
      const action = pick(table.legal);
      return action.action === "discard"
        ? { ...envelope, action: "discard", cards: sample(action.cards.from, action.cards.choose) }
        : { ...envelope, ...action };
    }
  }
}

async function play(players: Record<Seat, Api>, create: CreateMatch): Promise<Played> {
  const created = ok(await players.N.POST("/v1/matches", { body: create }));
  const match_id = created.match_id;
  for (const seat of SEATS.filter((s) => s !== "N")) {
    ok(await players[seat].POST("/v1/matches/{match_id}/seats/{seat}", { params: { path: { match_id, seat } } }));
  }
  for (let actions = 0; actions < 1000; actions++) {
    const view = ok(await players.N.GET("/v1/matches/{match_id}", { params: { path: { match_id } } }));
    if (view.status !== "playing" || view.to_act.length === 0) return { match_id, actions, status: view.status };
    const seat = pick(view.to_act);
    const mine = seat === "N" ? view : ok(await players[seat].GET("/v1/matches/{match_id}", {
      params: { path: { match_id } } }));
    ok(await players[seat].POST("/v1/matches/{match_id}/actions", { params: { path: { match_id } }, body: choose(mine) }));
  }
  throw new Error(`${create.game}: not over after 1000 actions`);
}

async function main(baseUrl: string): Promise<void> {
  const anonymous = createClient<paths>({ baseUrl });
  const [n, e, s, w] = await Promise.all(SEATS.map(async (seat) => {
    const registered = ok(await anonymous.POST("/v1/players", { body: { name: `typed ${seat}` } }));
    return createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${registered.token}` } });
  }));
  if (!n || !e || !s || !w) throw new Error("four players");
  const players: Record<Seat, Api> = { N: n, E: e, S: s, W: w };
  const seats: CreateMatch["seats"] = { N: "me", E: "open", S: "open", W: "open" };
  const games: CreateMatch[] = [
    { game: "belote", options: { variant: "coinche", deals: 1 }, seats },
    { game: "cinch", options: { deals: 1 }, seats },
    { game: "five_hundred", options: { deals: 1 }, seats },
  ];
  const played: Record<string, Played> = {};
  for (const create of games) played[create.game] = await play(players, create);
  console.log(JSON.stringify(played));
}

main(process.argv[2] ?? "http://127.0.0.1:8000").catch((error: unknown) => {
  console.error(error);
  throw error;
});
