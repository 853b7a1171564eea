/**
 * `=`: structural equality across both map representations, numerically loose (`(= 1 1.0)` is
 * true, as in the reference), keywords distinct from strings. Agrees with hash-key.ts: two values
 * are equal exactly when their hash keys are the same JS Map key (NaN aside: it equals nothing).
 */
import { CustomValue } from "./custom-value.js";
import { Keyword } from "./keyword.js";
import { LispMap } from "./lisp-map.js";
import { LispSet } from "./lisp-set.js";
import { type AnyMap, mapEntries, mapGetExact, mapHasExact, mapSize } from "./map-access.js";
import { WholeFloat } from "./numbers.js";
import { isPlainObject } from "./plain-object.js";
import { chargeWalk, hostWalk } from "./walk-meter.js";

function numericValue(value: unknown): number | bigint | undefined {
  if (typeof value === "number" || typeof value === "bigint") return value;
  if (value instanceof WholeFloat) return value.value;
  return undefined;
}

function mapsEqual(a: AnyMap, b: AnyMap): boolean {
  const size = mapSize(a);
  if (size !== mapSize(b)) return false;
  chargeWalk(size + 1);
  for (const [key, value] of mapEntries(a)) {
    if (!mapHasExact(b, key)) return false;
    if (!equals(value, mapGetExact(b, key))) return false;
  }
  return true;
}

export function equals(a: unknown, b: unknown): boolean {
  if (a === b) return !(typeof a === "number" && Number.isNaN(a)); // NaN is not equal to itself
  if (a === undefined) return b === null;
  if (b === undefined) return a === null;
  const ta = typeof a;
  const tb = typeof b;
  if (ta === "string" || tb === "string" || ta === "boolean" || tb === "boolean") return false;
  if (a === null || b === null || ta === "function" || tb === "function") return false;
  const x = numericValue(a);
  if (x !== undefined) {
    const y = numericValue(b);
    // Mixed number/bigint `==` compares exact values.
    // biome-ignore lint/suspicious/noDoubleEquals: deliberate cross-type numeric comparison
    return y !== undefined && x == y;
  }
  if (a instanceof Keyword || b instanceof Keyword) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    chargeWalk(a.length + 1);
    for (let i = 0; i < a.length; i++) if (!equals(a[i], b[i])) return false;
    return true;
  }
  if (a instanceof LispSet) {
    if (!(b instanceof LispSet) || a.size !== b.size) return false;
    chargeWalk(a.size + 1);
    for (const member of a.members()) if (!b.has(member)) return false;
    return true;
  }
  if (a instanceof CustomValue) return a.equals(b);
  const aIsMap = a instanceof LispMap || isPlainObject(a);
  const bIsMap = b instanceof LispMap || isPlainObject(b);
  if (aIsMap && bIsMap) return mapsEqual(a as AnyMap, b as AnyMap);
  return false;
}

/** `equals` as the package exports it: a call from the host, with a walk budget of its own. */
export function hostEquals(a: unknown, b: unknown): boolean {
  return hostWalk(() => equals(a, b), undefined, [a, b]);
}
