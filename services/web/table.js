// The felt: drawing one seat's view of a table, whatever the game (docs/web-client.md).
//
// Everything drawn comes from the view the API gave (GET /v1/matches/{id} `table`, or an
// admin replay step's `view` and `hands`): a face-up card is drawn only when that view holds
// it, and only face-up cards carry a card code (`data-card`). Shared by the player's page
// (app.js) and the admin's (admin.js).

export const SEATS = ["N", "E", "S", "W"];
const SUIT = { S: "♠", H: "♥", D: "♦", C: "♣" };
const RANK = { T: "10" };

// --- tiny DOM helpers --------------------------------------------------------------------

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") el.className = v;
    else if (k === "dataset") Object.assign(el.dataset, v);
    else if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) el.append(c);
  return el;
}

export function suitText(s) {
  if (s === null || s === undefined || s === "NT") return "no trump";
  return SUIT[s] || String(s);
}

// A face-up card: the only element that carries a card code (`data-card`).
export function cardEl(code, extra = {}) {
  const joker = code === "JK";
  const rank = joker ? "★" : RANK[code[0]] || code[0];
  const suit = joker ? "Joker" : SUIT[code[1]] || code[1];
  const red = joker || code[1] === "H" || code[1] === "D";
  return h("span", { class: `card${red ? " red" : ""} ${extra.class || ""}`, dataset: { card: code },
                     title: code, role: extra.onclick ? "button" : null, onclick: extra.onclick },
           h("span", { class: "rank" }, rank), h("span", { class: "suit" }, suit));
}

export const backEl = (cls = "") => h("span", { class: `card back ${cls}`, "aria-hidden": "true" });

// --- reading a view, whatever the game -----------------------------------------------------

// The trick as [[seat, card], ...]: Belote and Cinch send `plays`, Five Hundred `cards` from the leader.
export function trickPlays(trick) {
  if (!trick) return [];
  if (Array.isArray(trick.plays)) return trick.plays;
  if (Array.isArray(trick.cards)) {
    const start = SEATS.indexOf(trick.leader);
    return trick.cards.map((card, i) => [SEATS[(start + i) % 4], card]);
  }
  return [];
}

// A compact choice (`{"choose": k, "from": [...]}`) in a legal action: [field, k, from] or null.
export function choiceOf(a) {
  for (const [k, v] of Object.entries(a)) {
    if (v && typeof v === "object" && !Array.isArray(v) && "choose" in v && Array.isArray(v.from)) return [k, v.choose, v.from];
  }
  return null;
}

export function describeAction(a) {
  const rest = Object.entries(a).filter(([k]) => k !== "action" && k !== "seat");
  const parts = rest.map(([k, v]) => (k === "suit" || k === "trump") ? suitText(v)
    : Array.isArray(v) ? v.join(" ") : typeof v === "boolean" ? `${k}: ${v ? "yes" : "no"}`
    : v && typeof v === "object" ? `${k} ${v.choose !== undefined ? v.choose : ""}`
    : String(v).replace(/_/g, " "));
  return [a.action, ...parts].join(" ");
}

export function auctionOf(table) {
  if (!table) return [];
  if (Array.isArray(table.calls)) return table.calls.map((c) => ({ seat: c.seat, text: describeAction(c) }));
  if (Array.isArray(table.bids)) return table.bids.map(([seat, v]) => ({ seat, text: v === null ? "pass" : `bid ${v}` }));
  if (Array.isArray(table.auction)) return table.auction.map((c) => ({ seat: c.seat, text: describeAction(c) }));
  return [];
}

// Where the auction stands, in words: the highest bid and who made it, and (Coinche) who
// coinched or surcoinched it. [] when nobody has bid yet.
export function auctionState(table) {
  if (!table) return [];
  const out = [];
  if (Array.isArray(table.calls)) {
    let high = -1;
    table.calls.forEach((c, i) => { if (c.action === "bid") high = i; });
    if (high < 0) return [];
    const bid = table.calls[high];
    out.push(`${bid.value} ${suitText(bid.suit)} by ${bid.seat}`);
    for (const c of table.calls.slice(high + 1)) {
      if (c.action === "coinche") out.push(`coinché by ${c.seat}`);
      if (c.action === "surcoinche") out.push(`surcoinché by ${c.seat}`);
    }
  } else if (Array.isArray(table.bids)) {
    const bids = table.bids.filter(([, v]) => v !== null);
    if (bids.length) { const [seat, v] = bids[bids.length - 1]; out.push(`bid ${v} by ${seat}`); }
  } else if (Array.isArray(table.auction)) {
    const bids = table.auction.filter((c) => c.action === "bid");
    if (bids.length) out.push(`${describeAction(bids[bids.length - 1]).replace(/^bid /, "")} by ${bids[bids.length - 1].seat}`);
  }
  return out;
}

export function contractText(c) {
  if (!c) return "";
  const bits = [`${c.seat}${c.team ? ` (${c.team})` : ""}:`];
  if (c.contract && c.contract !== "tricks") bits.push(String(c.contract).replace("_", " "));
  else bits.push(suitText(c.trump));
  if (c.value !== undefined && c.value !== null) bits.push(String(c.value));
  if (c.tricks) bits.push(`${c.tricks} tricks`);
  if (c.multiplier && c.multiplier > 1) bits.push(c.multiplier === 2 ? "coinché" : "surcoinché");
  return bits.join(" ");
}

export function scoresOf(table) {
  if (!table) return {};
  return table.match_score || table.score || {};
}

export function dealScoreOf(table) {
  if (!table) return null;
  if (table.points && Object.keys(table.points).length) return { label: "card points", values: table.points };
  if (table.tricks_won) return { label: "tricks", values: table.tricks_won };
  return null;
}

// --- what each game shows beside the hands ------------------------------------------------

const mini = (code, cls = "") => cardEl(code, { class: `mini ${cls}` });
const group = (label, cards, cls = "") => h("div", { class: `shown ${cls}` }, h("small", {}, label), ...cards);

// Under each seat: what that seat has shown the table (and, for my own seat, what only I
// know of my own cards: a Five Hundred contractor's discards).
function seatExtras(table, seat, bottom) {
  const out = [];
  if (!table) return out;
  // Belote: the combinations shown at trick 2 (§2.7.4), then kept in view for the deal
  if (Array.isArray(table.combinations_shown) && table.phase === "play") {
    for (const c of table.combinations_shown.filter((x) => x.seat === seat)) {
      out.push(group(`${c.kind} (${c.value})`, c.cards.map((x) => mini(x)), "combination"));
    }
  }
  // Cinch: face-up non-trumps (minus those given back when the stock ran out), trumps shown
  if (Array.isArray(table.discards) && table.game === "cinch") {
    const reused = new Set((table.reused || []).map(([, c]) => c));
    const faceUp = table.discards.filter(([s, c]) => s === seat && !reused.has(c)).map(([, c]) => c);
    if (faceUp.length) out.push(group("face up", faceUp.map((c) => mini(c)), "discards"));
    const back = (table.reused || []).filter(([s]) => s === seat).map(([, c]) => c);
    if (back.length) out.push(group("took back", back.map((c) => mini(c)), "reused"));
    const shown = (table.shown || []).filter(([s]) => s === seat).map(([, c]) => c);
    if (shown.length) out.push(group("trumps shown", shown.map((c) => mini(c)), "trumps-shown"));
    if (seat === table.dealer && table.buried) out.push(group(`buried ${table.buried}`,
      table.seat === seat && table.buried_cards ? table.buried_cards.map((c) => mini(c, "buried"))
        : Array.from({ length: table.buried }, () => backEl("mini")), "buried"));
  }
  // Five Hundred: the contractor's own discards (the view gives them to him alone)
  if (seat === bottom && table.game === "five_hundred" && table.discarded && table.discarded.length) {
    out.push(group("your discards", table.discarded.map((c) => mini(c)), "discarded"));
  }
  return out;
}

function seatBadges(table, seat) {
  const badges = [];
  if (!table) return badges;
  if (table.dealer === seat) badges.push(h("span", { class: "badge" }, "dealer"));
  if (table.contract && table.contract.seat === seat) badges.push(h("span", { class: "badge gold contract" }, contractText(table.contract)));
  if (table.sitting_out === seat) badges.push(h("span", { class: "badge" }, "sits out"));
  // Belote: the kind said at trick 1, and belote / rebelote
  if (table.declared && table.declared[seat] && !(table.combinations_shown || []).length && (table.tricks || []).length === 0) {
    badges.push(h("span", { class: "badge declared" }, `declares ${table.declared[seat]}`));
  }
  for (const [s, word] of table.announces || []) if (s === seat) badges.push(h("span", { class: "badge gold announce" }, word));
  // Belote coinche: who coinched or surcoinched during the auction
  if (table.phase === "auction") {
    for (const c of table.calls || []) if (c.seat === seat && (c.action === "coinche" || c.action === "surcoinche")) {
      badges.push(h("span", { class: "badge red" }, c.action === "coinche" ? "coinche!" : "surcoinche!"));
    }
  }
  return badges;
}

// In the middle of the felt, when no trick is on: the auction's state, the turn-up, the
// Five Hundred kitty, the Cinch stock (face up to the robbing dealer alone).
function centrePile(table, opts) {
  if (!table) return null;
  const items = [];
  if (table.phase === "auction") {
    const st = auctionState(table);
    if (st.length) items.push(h("div", { class: "auction-state" }, ...st.map((t) => h("div", {}, t))));
  }
  if (table.turn_up && table.phase === "auction") {
    items.push(h("div", { class: "turn-up" }, h("small", {}, "turn-up"), cardEl(table.turn_up)));
  }
  if (table.game === "five_hundred" && table.kitty_size) {
    items.push(group("kitty", Array.from({ length: table.kitty_size }, () => backEl("mini")), "kitty"));
  }
  if (table.game === "five_hundred" && table.phase === "discard" && opts.kitty && opts.kitty.size) {
    items.push(h("div", { class: "kitty-note" }, "the kitty's cards are marked in your hand"));
  }
  if (table.game === "cinch" && Array.isArray(table.stock)) {
    items.push(group("the pack", table.stock.map((code) => {
      const pick = opts.playable && opts.playable.has(code);
      return cardEl(code, { class: `${pick ? "legal" : ""} ${opts.chosen && opts.chosen.has(code) ? "chosen" : ""}`,
                            onclick: pick && opts.onCard ? () => opts.onCard(code) : null });
    }), "stock"));
  } else if (table.game === "cinch" && table.stock_size && table.phase !== "auction") {
    items.push(group(`stock ${table.stock_size}`, [backEl("mini")], "stock"));
  }
  return items.length ? h("div", { class: "pile" }, ...items) : null;
}

// --- the table ----------------------------------------------------------------------------

// Render the felt: four seats around the current trick. `opts`: `bottom` (the seat shown at
// the bottom), `hands` ({seat: cards} shown face up: my hand, or every hand for an admin),
// `playable` (Set of my cards that can be clicked: legal cards, or the cards of a choice),
// `chosen` (Set of cards picked for a choice), `kitty` (Set: my cards that came from the
// kitty), `onCard(code)`, `names` ({seat: label}), `toAct`.
export function renderTable(root, table, opts = {}) {
  root.replaceChildren();
  const bottom = opts.bottom || "S";
  const i = SEATS.indexOf(bottom);
  const places = { bottom, left: SEATS[(i + 1) % 4], top: SEATS[(i + 2) % 4], right: SEATS[(i + 3) % 4] };
  const toAct = new Set(opts.toAct || (table && table.turn ? [table.turn] : []));
  const hands = opts.hands || {};
  const plays = trickPlays(table && table.trick);
  const lastTrick = table && Array.isArray(table.tricks) && table.tricks.length ? table.tricks[table.tricks.length - 1] : null;
  const shownPlays = plays.length ? plays : trickPlays(lastTrick);
  const exposed = (table && table.exposed) || {};
  const chosen = opts.chosen || new Set();
  const kitty = opts.kitty || new Set();

  for (const [place, seat] of Object.entries(places)) {
    const faceUp = hands[seat] || exposed[seat] || null;
    const size = table && table.hand_sizes ? table.hand_sizes[seat] : undefined;
    let cards;
    if (faceUp) {
      cards = faceUp.map((code) => {
        const mine = seat === bottom && opts.playable;
        const playable = mine && opts.playable.has(code);
        const cls = [playable ? "legal" : mine ? "dim" : "", chosen.has(code) && seat === bottom ? "chosen" : "",
                     kitty.has(code) && seat === bottom ? "from-kitty" : ""].join(" ");
        return cardEl(code, { class: cls, onclick: playable && opts.onCard ? () => opts.onCard(code) : null });
      });
    } else {
      cards = Array.from({ length: size || 0 }, () => backEl());
    }
    const extras = seatExtras(table, seat, bottom);
    root.append(h("div", { class: `seat seat-${place}${toAct.has(seat) ? " to-act" : ""}`, dataset: { seat } },
      h("div", { class: "seat-name" }, h("strong", {}, seat), " ", (opts.names && opts.names[seat]) || "", ...seatBadges(table, seat)),
      h("div", { class: `hand${faceUp ? " face-up" : ""}`, dataset: { seat } }, ...cards),
      extras.length ? h("div", { class: "seat-extras", dataset: { seat } }, ...extras) : null));
  }

  const centre = h("div", { class: `trick${plays.length ? "" : " last"}`, id: "trick" });
  for (const [place, seat] of Object.entries(places)) {
    const play = shownPlays.find(([s]) => s === seat);
    centre.append(h("div", { class: `slot slot-${place}` }, play ? cardEl(play[1]) : null));
  }
  if (!plays.length && lastTrick) centre.append(h("div", { class: "trick-note" }, `last trick: ${lastTrick.winner || "?"}`));
  root.append(centre);
  const pile = centrePile(table, { ...opts, chosen });
  if (pile) root.append(pile);
}
