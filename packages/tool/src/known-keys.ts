/**
 * Options objects are checked for keys nobody reads: a misspelled option (`exposed: "both"`,
 * `maxTurn: 3`) would otherwise be ignored in silence and the default used instead. Each unknown
 * key is named with the known key nearest to it.
 */
import { nearestName } from "./nearest-name.js";

export interface UnknownKey {
  readonly key: string;
  /** The known key it most likely meant, if one is near. */
  readonly suggestion: string | undefined;
}

/** The own enumerable keys of `given` that are not in `known` (with `undefined` values too). */
export function findUnknownKeys(given: object, known: Iterable<string>): UnknownKey[] {
  const knownKeys = [...known];
  const accepted = new Set(knownKeys);
  return Object.keys(given)
    .filter((key) => !accepted.has(key))
    .map((key) => ({ key, suggestion: nearestName(key, knownKeys) }));
}

/** `unknown option "exposed" (did you mean "expose"?)`, one clause per key. */
export function describeUnknownKeys(unknown: readonly UnknownKey[], noun = "option"): string {
  return unknown
    .map(
      ({ key, suggestion }) =>
        `unknown ${noun} ${JSON.stringify(key)}${suggestion === undefined ? "" : ` (did you mean ${JSON.stringify(suggestion)}?)`}`,
    )
    .join("; ");
}
