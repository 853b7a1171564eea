/**
 * `(take n (sort-by key coll))` and `(take n (sort-by key comparator coll))` with a literal count:
 * the analyzer (analyzer/sorted-take.ts) writes them as one call of the internal builtin below,
 * so that the sort knows only the first n items are wanted (support/first-in-order.ts). The
 * answer, the errors and their order are take's and sort-by's: sort-by's checks and keys come
 * first, then take's, over what sort-by gives.
 */
import { TAKE_SORTED } from "../analyzer/sorted-take.js";
import { type BuiltinDefinition, builtin } from "./definition.js";
import { sortedPrefix } from "./higher-order.js";
import { take } from "./sequences-slicing.js";

function takeSortBy(n: unknown, ...sortArgs: unknown[]): unknown[] {
  // Only a plain positive count narrows the sort; any other count is take's to judge, after the sort.
  const limit = typeof n === "number" && Number.isInteger(n) && n > 0 ? n : Number.POSITIVE_INFINITY;
  return take(n, sortedPrefix(sortArgs, limit));
}

export const sortedPrefixBuiltins: BuiltinDefinition[] = [
  builtin(
    TAKE_SORTED,
    [3, 4],
    ["[n key coll]", "[n key comparator coll]"],
    "(take n (sort-by key coll)) without sorting past the first n items (inserted by the analyzer).",
    "Internal",
    takeSortBy,
  ),
];
