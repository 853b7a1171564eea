/**
 * One notion of identity for map keys, set members, `group-by`, `frequencies` and `distinct`:
 * `hashKey(a) === hashKey(b)` (as a JS Map compares keys) exactly when `(= a b)`.
 *
 * Scalars map to themselves (keywords are interned, so they compare by identity), numbers to one
 * spelling per value (1 and 1.0 collide, as `(= 1 1.0)` is true), and everything else to a
 * canonical string prefixed with NUL. A string that itself starts with NUL is escaped so it can
 * never collide with a composite.
 */

import { canonicalText } from "./canonical-text.js";
import { Keyword } from "./keyword.js";
import { WholeFloat } from "./numbers.js";

const COMPOSITE = "\u0000c";
const ESCAPED_STRING = "\u0000s";

export function hashKey(value: unknown): unknown {
  switch (typeof value) {
    case "string":
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
      return COMPOSITE + canonicalText(value);
    default:
      return COMPOSITE + canonicalText(value);
  }
}
