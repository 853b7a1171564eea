/**
 * One notion of identity for map keys, set members, `group-by`, `frequencies` and `distinct`:
 * `hashKey(a) === hashKey(b)` (as a JS Map compares keys) exactly when `(= a b)`.
 *
 * Scalars map to themselves (keywords are interned, so they compare by identity), numbers to one
 * spelling per value (1 and 1.0 collide, as `(= 1 1.0)` is true), and everything else to a
 * canonical string prefixed with NUL. A string that itself starts with NUL is escaped so it can
 * never collide with a composite.
 *
 * V8 hashes a string longer than 16,383 characters by its length alone, so long keys of the same
 * length all share one bucket of a JS Map and each lookup compares the key with every one of them:
 * a set of two thousand 20,000-character texts takes half a minute to build, in native calls the
 * clock cannot interrupt. Such a key is charged to the run's clock by its length, which reads the
 * clock at every one of them, so the run stops within one lookup of its deadline.
 */

import { canonicalText } from "./canonical-text.js";
import { Keyword } from "./keyword.js";
import { WholeFloat } from "./numbers.js";
import { chargeTextWork } from "./walk-meter.js";

const COMPOSITE = "\u0000c";
export const ESCAPED_STRING = "\u0000s";

/** Longest string V8 hashes by its characters (String::kMaxHashCalcLength). */
export const HASHED_LENGTH = 16383;

export function hashKey(value: unknown): unknown {
  switch (typeof value) {
    case "string":
      if (value.length > HASHED_LENGTH) chargeTextWork(value.length);
      return value.length > 0 && value.charCodeAt(0) === 0 ? ESCAPED_STRING + value : value;
    case "number":
      return Number.isInteger(value) && !Number.isSafeInteger(value) ? BigInt(value) : value;
    case "boolean":
    case "bigint":
      return value;
    case "undefined":
      return null;
    case "object":
      if (value === null || value instanceof Keyword) return value;
      if (value instanceof WholeFloat) return hashKey(value.value === 0 ? 0 : value.value);
      return compositeKey(value);
    default:
      return compositeKey(value);
  }
}

function compositeKey(value: unknown): string {
  const key = COMPOSITE + canonicalText(value);
  if (key.length > HASHED_LENGTH) chargeTextWork(key.length);
  return key;
}
