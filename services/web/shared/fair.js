// @ts-check
// The fair deal, verified in the browser (docs/fair-deal.md, version 1), from public data only:
// a match record's revealed seeds, contexts, entropy and chain tips. Plain JavaScript with its
// own SHA-256, because WebCrypto's exists only in secure contexts (HTTPS or localhost) and a
// table served over plain HTTP must verify too. verify.html carries this file verbatim, so the
// standalone page needs nothing else of Atout's.

// Its types name no other file either: what it reads of a record is written out here, and the
// callers' own types (the API's documents) are checked against it.
/**
 * A deal's shuffle inputs (`fair`), as the record reveals them.
 * @typedef {{ seed: string | null, commitment: string | null, context: string | null,
 *   entropy: { [seat: string]: string } | null }} ShuffleInputs
 */
/**
 * A match record as the API gives it (GET /v1/matches/{id}/record, …/export), or a file of one.
 * @typedef {{ match_id: string, game: string, deals: { deck: string[], fair?: ShuffleInputs }[], tip?: string,
 *   chain_length?: number, renewals?: { chain: number, tip: string, chain_length: number, first_deal: number }[],
 *   first_deal?: number }} MatchRecord
 */
/**
 * One deal's verdict: its kind, each check true, false or null (not made), those that failed.
 * @typedef {{ position: number, deal: number, kind: string, imported?: boolean, fair?: ShuffleInputs,
 *   checks: { [check: string]: boolean | null }, ok: boolean, failed: string[] }} DealCheck
 */
/** @typedef {{ ok: boolean, tip_checked: boolean, deals: DealCheck[] }} Verified */
/** @typedef {{ [seat: string]: string } | null | undefined} Entropy */

const K256 = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2]);

/**
 * SHA-256 (FIPS 180-4) of a Uint8Array: the 32-byte digest.
 * @param {Uint8Array} data
 */
export function sha256(data) {
  const bitLength = data.length * 8;
  const padded = new Uint8Array(((data.length + 9 + 63) >> 6) << 6);
  padded.set(data);
  padded[data.length] = 0x80;
  const view = new DataView(padded.buffer);
  view.setUint32(padded.length - 8, Math.floor(bitLength / 0x100000000));
  view.setUint32(padded.length - 4, bitLength >>> 0);
  const h = new Uint32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                             0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);
  const w = new Uint32Array(64);
  const rotr = (/** @type {number} */ x, /** @type {number} */ n) => (x >>> n) | (x << (32 - n));
  for (let off = 0; off < padded.length; off += 64) {
    for (let t = 0; t < 16; t++) w[t] = view.getUint32(off + 4 * t);
    for (let t = 16; t < 64; t++) {
      const s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ (w[t - 15] >>> 3);
      const s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ (w[t - 2] >>> 10);
      w[t] = (w[t - 16] + s0 + w[t - 7] + s1) | 0;
    }
    let [a, b, c, d, e, f, g, k] = h;
    for (let t = 0; t < 64; t++) {
      const t1 = (k + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K256[t] + w[t]) | 0;
      const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) | 0;
      k = g; g = f; f = e; e = (d + t1) | 0; d = c; c = b; b = a; a = (t1 + t2) | 0;
    }
    h[0] += a; h[1] += b; h[2] += c; h[3] += d; h[4] += e; h[5] += f; h[6] += g; h[7] += k;
  }
  const out = new Uint8Array(32);
  const outView = new DataView(out.buffer);
  for (let i = 0; i < 8; i++) outView.setUint32(4 * i, h[i]);
  return out;
}

/** @param {Uint8Array} bytes */
export function toHex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * Hex (either case) to bytes; null for anything that is not an even run of hex digits.
 * @param {unknown} text
 */
export function fromHex(text) {
  if (typeof text !== "string" || !/^([0-9a-fA-F]{2})*$/.test(text)) return null;
  const out = new Uint8Array(text.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(text.slice(2 * i, 2 * i + 2), 16);
  return out;
}

const utf8 = (/** @type {string} */ text) => new TextEncoder().encode(text);

/** @param {...Uint8Array} parts */
function concat(...parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) { out.set(p, at); at += p.length; }
  return out;
}

/** @param {number} n */
function u32be(n) { const b = new Uint8Array(4); new DataView(b.buffer).setUint32(0, n); return b; }
/** @param {number} n */
function u64be(n) {
  const b = new Uint8Array(8);
  const v = new DataView(b.buffer);
  v.setUint32(0, Math.floor(n / 0x100000000)); v.setUint32(4, n >>> 0);
  return b;
}
const field = (/** @type {Uint8Array} */ bytes) => concat(u32be(bytes.length), bytes);

export const SEATS = ["N", "E", "S", "W"];
const KEY_TAG = utf8("atout/fair-deal/v1/key");
const STREAM_TAG = utf8("atout/fair-deal/v1/stream");

/**
 * Section 3: seats N, E, S, W; 0x00 when absent, else 0x01 and the length-prefixed UTF-8.
 * @param {Entropy} entropy
 */
export function encodeEntropy(entropy) {
  const parts = [];
  for (const seat of SEATS) {
    const text = entropy ? entropy[seat] : undefined;
    parts.push(typeof text === "string" ? concat(Uint8Array.of(1), field(utf8(text))) : Uint8Array.of(0));
  }
  return concat(...parts);
}

/**
 * Section 4: the message the shuffle key hashes.
 * @param {Uint8Array} seed
 * @param {string} context
 * @param {Entropy} entropy
 */
export function keyMessage(seed, context, entropy) {
  return concat(field(KEY_TAG), field(seed), field(utf8(context)), encodeEntropy(entropy));
}

/**
 * @param {Uint8Array} seed
 * @param {string} context
 * @param {Entropy} entropy
 */
export function deriveKey(seed, context, entropy) { return sha256(keyMessage(seed, context, entropy)); }

/**
 * Section 5: SHA-256 in counter mode over the key, one byte at a time.
 * @param {Uint8Array} key
 */
export function byteStream(key) {
  let counter = 0, block = new Uint8Array(0), at = 0;
  return () => {
    if (at === block.length) { block = sha256(concat(STREAM_TAG, key, u64be(counter))); counter += 1; at = 0; }
    return block[at++];
  };
}

/**
 * Sections 6 and 7: the j drawn for i = n-1 down to 1, each by rejection sampling.
 * @param {number} n
 * @param {Uint8Array} key
 */
export function swapIndices(n, key) {
  const next = byteStream(key);
  const out = [];
  for (let i = n - 1; i >= 1; i--) {
    const m = i + 1, limit = 256 - (256 % m);
    let b = next();
    while (b >= limit) b = next();
    out.push(b % m);
  }
  return out;
}

const SUITS = ["S", "H", "D", "C"];
/** @type {{ [size: number]: string[] }} */
const RANKS = {
  32: ["7", "8", "9", "T", "J", "Q", "K", "A"],
  52: ["2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A"],
};
/**
 * Section 8: the game's deck in canonical order (Sans Atout and Coinche shuffle as belote).
 * @param {unknown} game
 */
export function canonicalDeck(game) {
  if (game === "belote") return SUITS.flatMap((s) => RANKS[32].map((r) => r + s));
  if (game === "cinch") return SUITS.flatMap((s) => RANKS[52].map((r) => r + s));
  if (game === "five_hundred") {
    const deck = SUITS.flatMap((s) => RANKS[52].slice(s === "H" || s === "D" ? 2 : 3).map((r) => r + s));
    return [...deck, "JK"];
  }
  return null;
}

/**
 * @param {unknown} game
 * @param {Uint8Array} seed
 * @param {string} context
 * @param {Entropy} entropy
 */
export function shuffle(game, seed, context, entropy) {
  const deck = /** @type {string[]} */ (canonicalDeck(game)).slice();
  const swaps = swapIndices(deck.length, deriveKey(seed, context, entropy));
  swaps.forEach((j, step) => { const i = deck.length - 1 - step; [deck[i], deck[j]] = [deck[j], deck[i]]; });
  return deck;
}

/**
 * @param {Uint8Array} bytes
 * @param {number} times
 */
export function iterate(bytes, times) {
  let value = bytes;
  for (let i = 0; i < times; i++) value = sha256(value);
  return value;
}

/** @type {(a: Uint8Array | null, b: Uint8Array | null) => boolean | null} */
const equal = (a, b) => a && b && a.length === b.length && a.every((x, i) => x === b[i]);

/**
 * The record's chains in order, each {chain, tip, chain_length, first_deal}; chain 1's tip is
 * null when the record carries none (its links are still checked).
 * @param {MatchRecord} record
 * @returns {{ chain: number, tip: Uint8Array | null, chain_length?: number, first_deal: number }[]}
 */
export function chainsOf(record) {
  const hex32 = (/** @type {unknown} */ t) => { const b = fromHex(t); return b && b.length === 32 ? b : null; };
  return [{ chain: 1, tip: hex32(record.tip), chain_length: record.chain_length, first_deal: 0 },
          ...(Array.isArray(record.renewals) ? record.renewals : []).map((r) => ({ ...r, tip: hex32(r.tip) }))];
}

/**
 * @param {ReturnType<typeof chainsOf>} chains
 * @param {number} position
 */
function chainFor(chains, position) {
  const c = chains.filter((x) => Number.isInteger(x.first_deal) && x.first_deal <= position).pop();
  if (!c || (Number.isInteger(c.chain_length) && position > c.first_deal + c.chain_length - 1)) return null;
  return c;
}

const CONTEXT = /^(match|tournament):([A-Za-z0-9._-]{1,128}):(deal|board):([1-9][0-9]{0,8})$/;

/**
 * Verify every deal of a match record as docs/fair-deal.md, "Verifying a match record", says:
 * each deal's kind (`shuffled`, `replay` of an earlier deal's board, `board` of a tournament,
 * `predefined`: imported, no shuffle) and its checks — context, entropy, commitment, deck,
 * chain_link, tip — each true, false, or null when not made. `mine` ({seat, given: [strings]})
 * adds `my_entropy`: my seat's entropy in each deal is absent or one I gave.
 * Returns {ok, tip_checked, deals: [{position, deal, kind, checks, failed, ok, fair}]}.
 * @param {MatchRecord} record
 * @param {{ seat: string, given: string[] } | null} [mine]
 * @returns {Verified}
 */
export function verifyRecord(record, mine) {
  const offset = Number.isInteger(record.first_deal) && record.first_deal >= 0 ? record.first_deal : 0;
  const chains = chainsOf(record);
  /** @type {{ [chain: number]: { position: number, seed: Uint8Array, tip: boolean | null } }} */
  const anchors = {};
  /** @type {{ [position: number]: { fair: ShuffleInputs, deck: string[] } }} */
  const shown = {};
  const deals = (record.deals || []).map((deal, d) => {
    const position = d + offset;
    if (!deal.fair) return { position, deal: position + 1, kind: "predefined", imported: true, ok: true, failed: [], checks: {} };
    /** @type {DealCheck["checks"]} */
    const checks = {};
    const fair = deal.fair;
    const found = CONTEXT.exec(typeof fair.context === "string" ? fair.context : "");
    const k = /** @type {number} */ (found ? Number(found[4]) : null);   // null only where no context was found
    let kind = "shuffled";
    if (!found || (found[1] === "match") !== (found[3] === "deal")) checks.context = false;
    else if (found[1] === "tournament") { kind = "board"; checks.context = true; }
    else if (record.match_id !== undefined && found[2] !== record.match_id) checks.context = false;
    else if (k === position + 1) checks.context = true;
    else if (k <= position) {
      kind = "replay";
      const original = shown[k - 1];
      checks.context = original ? JSON.stringify(original) === JSON.stringify({ fair, deck: deal.deck }) : k - 1 < offset;
    } else checks.context = false;
    const entropy = fair.entropy || {};
    checks.entropy = typeof entropy === "object" && !Array.isArray(entropy)
      && Object.entries(entropy).every(([seat, t]) => SEATS.includes(seat) && typeof t === "string")
      && !(kind === "board" && Object.keys(entropy).length);
    const seed = fromHex(fair.seed), commitment = fromHex(fair.commitment);
    const sized = !!seed && seed.length === 32 && !!commitment && commitment.length === 32;
    checks.commitment = sized && equal(sha256(seed), commitment);
    checks.deck = !!seed && seed.length === 32 && !!found && checks.entropy && canonicalDeck(record.game) !== null
      && JSON.stringify(shuffle(record.game, seed, /** @type {string} */ (fair.context), entropy)) === JSON.stringify(deal.deck);
    checks.chain_link = null; checks.tip = null;
    if (kind !== "board" && found && checks.context !== false && commitment && commitment.length === 32) {
      const at = kind === "shuffled" ? position : k - 1;
      const chain = chainFor(chains, at);
      const anchor = chain && kind === "shuffled" ? anchors[chain.chain] : null;
      if (!chain) checks.tip = false;
      else if (anchor) {           // through the link: what the chain's first deal here showed
        checks.chain_link = equal(iterate(commitment, at - anchor.position - 1), anchor.seed);
        checks.tip = checks.chain_link ? anchor.tip : null;
      } else if (chain.tip) checks.tip = equal(iterate(commitment, at - chain.first_deal), chain.tip);
      if (chain && kind === "shuffled" && seed && seed.length === 32) {
        anchors[chain.chain] = { position, seed, tip: checks.tip };
        shown[position] = { fair, deck: deal.deck };
      }
    }
    if (mine && mine.seat && typeof entropy[mine.seat] === "string") checks.my_entropy = mine.given.includes(entropy[mine.seat]);
    const failed = Object.keys(checks).filter((c) => checks[c] === false);
    return { position, deal: position + 1, kind, fair, checks, ok: failed.length === 0, failed };
  });
  // a board's tip is its tournament's, not in a match record
  const tipChecked = chains[0].tip !== null && !deals.some((d) => d.kind === "board");
  return { ok: deals.every((d) => d.ok), tip_checked: tipChecked, deals };
}

/** Random words for a seat's entropy: 128 bits from crypto.getRandomValues, as hex. */
export function freshEntropy() {
  return toHex(crypto.getRandomValues(new Uint8Array(16)));
}
