// What the type checker (tsconfig.json) knows beyond TypeScript's own library: written by hand.

interface NumberConstructor {
  /** True for an integer, which is a number: the checker may then read the value as one. */
  isInteger(value: unknown): value is number;
}
