/**
 * Group totals: `(map (fn [[k rows]] {:total (sum-by :amount rows) :n (count rows)}) (group-by :k coll))`
 * and `(update-vals (group-by :k coll) (fn [rows] ...))`, where the groups only ever feed `sum-by`
 * with a keyword and `count` (analyzer/group-totals.ts proves that and rewrites the calls). As
 * written, group-by builds a vector per group, a slot per row (at 100,000 rows the young-generation
 * collections copy them all), and every `sum-by` walks its group again. Here one pass keeps, per
 * group, its size and one running sum per summed field; a group's value is then a GroupTotals
 * record, which only the rewritten reads below ever see.
 *
 * Exactly the builtins' results, errors and charges: the pass reads the key and the fields with
 * the builtins' own field reader, groups keys by group-by's hash, sums as `sum-by`'s Total does
 * (a double and a float flag); the first value it cannot sum that way (not a number nor nil, or
 * an integer sum past 2^53) abandons the pass, and `group-by` itself runs instead, so that the
 * reads get real vectors and call `sum-by` and `count`, which then do what the program wrote,
 * errors included. The map is charged as group-by charges it (a vector per group, a slot per
 * row), and a read charges the work its `sum-by` would have done.
 *
 * The three builtins have names a program cannot write (a space), so only the rewrite calls them.
 */
import { GROUP_COUNT, GROUP_TOTAL, GROUP_TOTALS } from "../analyzer/group-totals.js";
import { mapBytes, VECTOR_BYTES, VECTOR_SLOT_BYTES } from "../runtime/allocation.js";
import { active } from "../runtime/context.js";
import { CHECK_EVERY, CHECK_MASK } from "../runtime/interruptible.js";
import { Keyword } from "../values/keyword.js";
import { MapBuilder } from "../values/lisp-map.js";
import { getField } from "../values/map-access.js";
import { makeFloat } from "../values/numbers.js";
import { groupBy as groupByBuiltin, groupHash, sumBy } from "./aggregation.js";
import { type BuiltinDefinition, builtin } from "./definition.js";
import { count } from "./sequences-vectors.js";
import { collectionOf } from "./support/hof-common.js";

/** How often each path ran, for tests: a pass that finished, and one abandoned for group-by. */
export const groupTotalsStats = { fusedRuns: 0, groupByFallbacks: 0, reads: 0 };

/** One group's size and sums, in the order of the summed fields. */
class GroupTotals {
  count = 0;
  readonly sums: number[];
  readonly floats: boolean[];

  constructor(
    readonly key: unknown,
    fields: number,
  ) {
    this.sums = new Array<number>(fields).fill(0);
    this.floats = new Array<boolean>(fields).fill(false);
  }
}

/** The keywords of a specs vector, or undefined when it is not one (a call the rewrite did not make). */
function fieldsOf(specs: unknown): readonly Keyword[] | undefined {
  if (!Array.isArray(specs)) return undefined;
  for (const spec of specs) if (!(spec instanceof Keyword)) return undefined;
  return specs as readonly Keyword[];
}

/** `(group-by key coll)`, with each group's value its GroupTotals over `fields` when every value sums plainly. */
function groupTotals(key: unknown, coll: unknown, specs: unknown): unknown {
  const fields = fieldsOf(specs);
  if (!(key instanceof Keyword) || fields === undefined) return groupBy(key, coll);
  const items = collectionOf(coll, "group-by", "(group-by keyfn coll)");
  const n = items.length;
  const width = fields.length;
  active.work(n);
  const slots = new Map<unknown, GroupTotals>();
  for (let i = 0; i < n; i++) {
    const item = items[i];
    const groupKey = getField(item, key);
    const hash = groupHash(groupKey);
    let group = slots.get(hash);
    if (group === undefined) {
      group = new GroupTotals(groupKey ?? null, width);
      slots.set(hash, group);
    }
    group.count++;
    for (let f = 0; f < width; f++) {
      const value = getField(item, fields[f] as Keyword);
      if (value === null || value === undefined) continue;
      // Total.add's plain path, step for step; anything else is group-by's and sum-by's to do.
      if (typeof value !== "number") return groupBy(key, coll);
      const next = (group.sums[f] as number) + value;
      if (!Number.isInteger(value)) group.floats[f] = true;
      else if (!group.floats[f] && !(Math.abs(next) <= Number.MAX_SAFE_INTEGER)) return groupBy(key, coll);
      group.sums[f] = next;
    }
    if ((i & CHECK_MASK) === CHECK_MASK) active.work(CHECK_EVERY);
  }
  // The map, charged as Groups.build charges group-by's.
  const builder = new MapBuilder();
  let filled = 0;
  for (const group of slots.values()) {
    builder.set(group.key, group);
    if ((++filled & CHECK_MASK) === 0) active.work(CHECK_EVERY);
  }
  active.allocate(mapBytes(slots.size) + VECTOR_BYTES * slots.size + VECTOR_SLOT_BYTES * n);
  groupTotalsStats.fusedRuns++;
  return builder.build();
}

function groupBy(key: unknown, coll: unknown): unknown {
  groupTotalsStats.groupByFallbacks++;
  return groupByBuiltin(key, coll);
}

/** `(sum-by field rows)` where `rows` is a group: its sum of the `index`th field. */
function groupTotal(rows: unknown, field: unknown, index: unknown): unknown {
  if (rows instanceof GroupTotals && typeof index === "number") {
    const sum = rows.sums[index];
    if (sum !== undefined) {
      groupTotalsStats.reads++;
      // The walk sum-by would have made over the group's vector.
      active.work(rows.count + CHECK_EVERY * Math.floor(rows.count / CHECK_EVERY));
      return rows.floats[index] === true ? makeFloat(sum) : sum;
    }
  }
  return sumBy(field, rows);
}

/** `(count rows)` where `rows` is a group. */
function groupCount(rows: unknown): unknown {
  if (rows instanceof GroupTotals) {
    groupTotalsStats.reads++;
    return rows.count;
  }
  return count(rows);
}

const CATEGORY = "Internal";

export const groupTotalsBuiltins: BuiltinDefinition[] = [
  builtin(
    GROUP_TOTALS,
    [3, 3],
    ["[key coll fields]"],
    "(group-by key coll) whose groups only feed sum-by of `fields` and count (inserted by the analyzer).",
    CATEGORY,
    groupTotals,
  ),
  builtin(
    GROUP_TOTAL,
    [3, 3],
    ["[rows field index]"],
    "(sum-by field rows) of a group made by group-by totals (inserted by the analyzer).",
    CATEGORY,
    groupTotal,
  ),
  builtin(
    GROUP_COUNT,
    [1, 1],
    ["[rows]"],
    "(count rows) of a group made by group-by totals (inserted by the analyzer).",
    CATEGORY,
    groupCount,
  ),
];
