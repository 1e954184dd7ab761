// What the type checker (tsconfig.json) knows beyond TypeScript's own library: written by hand.

interface NumberConstructor {
  /** True for an integer, which is a number: the checker may then read the value as one. */
  isInteger(value: unknown): value is number;
}

interface Window {
  /** The player's page's live state, and a way to drop its socket: for the browser tests and the curious (app.js). */
  atout?: { state: import("./shared/session.js").State, dropSocket: () => unknown };
}
