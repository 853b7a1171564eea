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
import { GROUP_TOTAL, GROUP_TOTALS, type GroupSpec } from "../analyzer/group-totals.js";
import { vectorBytes } from "../runtime/allocation.js";
import { active } from "../runtime/context.js";
import { CHECK_EVERY, CHECK_MASK } from "../runtime/interruptible.js";
import { Keyword } from "../values/keyword.js";
import { getField } from "../values/map-access.js";
import { makeFloat } from "../values/numbers.js";
import { groupBy as groupByBuiltin, groupHash, groupMap } from "./aggregation.js";
import { type BuiltinDefinition, builtin } from "./definition.js";
import { collectionOf } from "./support/hof-common.js";

/** How often each path ran, for tests: a pass that finished, and one abandoned for group-by. */
export const groupTotalsStats = { fusedRuns: 0, groupByFallbacks: 0, reads: 0 };

/**
 * The running values of every group of one pass, `width` per group, in one growing array of
 * doubles: a group holds no array of its own (ten thousand groups made ten thousand small arrays,
 * each turned from small integers to doubles by its first float, a new hidden class to V8).
 */
class TotalsStore {
  values: Float64Array;

  constructor(readonly width: number) {
    this.values = new Float64Array(Math.max(1, width) * 64);
  }

  /** The offset of a new group's values (zeros). */
  claim(groups: number): number {
    const offset = groups * this.width;
    if (offset + this.width > this.values.length) {
      const grown = new Float64Array(2 * this.values.length);
      grown.set(this.values);
      this.values = grown;
    }
    return offset;
  }
}

/** One group's size and, per spec, its running value (a sum, or the greatest or least value). */
class GroupTotals {
  count = 0;
  /** Bit s: whether the sum of spec s had a float added (it is then a float, as sum-by's Total says). */
  floats = 0;

  constructor(
    readonly key: unknown,
    readonly hash: unknown,
    readonly specs: readonly GroupSpec[],
    readonly store: TotalsStore,
    readonly offset: number,
  ) {}

  value(s: number): number {
    return this.store.values[this.offset + s] as number;
  }
}

/** The specs the rewrite made, or undefined for anything else. */
function specsOf(value: unknown): readonly GroupSpec[] | undefined {
  if (!Array.isArray(value)) return undefined;
  for (const spec of value as unknown[]) {
    const { op, field } = (spec ?? {}) as Partial<GroupSpec>;
    if ((op !== "sum" && op !== "max" && op !== "min") || !(field instanceof Keyword)) return undefined;
  }
  return value as readonly GroupSpec[];
}

/**
 * `(group-by key coll)` with each group's value its GroupTotals when every value read is a plain
 * number (or nil, for a sum); else group-by's own groups.
 */
function groupTotals(key: unknown, coll: unknown, specsArg: unknown): unknown {
  const specs = specsOf(specsArg);
  if (!(key instanceof Keyword) || specs === undefined) return groupBy(key, coll);
  const items = collectionOf(coll, "group-by", "(group-by keyfn coll)");
  const n = items.length;
  active.work(n);
  const store = new TotalsStore(specs.length);
  const slots = new Map<unknown, GroupTotals>();
  const groups: GroupTotals[] = [];
  for (let i = 0; i < n; i++) {
    const item = items[i];
    const groupKey = getField(item, key);
    const hash = groupHash(groupKey);
    let group = slots.get(hash);
    const first = group === undefined;
    if (group === undefined) {
      group = new GroupTotals(groupKey ?? null, hash, specs, store, store.claim(groups.length));
      groups.push(group);
      slots.set(hash, group);
    }
    group.count++;
    if (!addRow(group, item, specs, first)) return groupBy(key, coll);
    if ((i & CHECK_MASK) === CHECK_MASK) active.work(CHECK_EVERY);
  }
  // The map, charged as Groups.build charges group-by's.
  const map = groupMap(slots, groups, n, (group) => group);
  groupTotalsStats.fusedRuns++;
  return map;
}

/**
 * Adds one row's fields to its group's values; false for a value the pass cannot take (group-by
 * and the calls as written must run instead). Its own function, so that V8 optimizes the per-row
 * step apart from the pass's setup and its map building.
 */
function addRow(group: GroupTotals, item: unknown, specs: readonly GroupSpec[], first: boolean): boolean {
  const values = group.store.values;
  const offset = group.offset;
  for (let s = 0; s < specs.length; s++) {
    const spec = specs[s] as GroupSpec;
    const value = getField(item, spec.field);
    if (spec.op === "sum") {
      if (value === null || value === undefined) continue;
      // Total.add's plain path, step for step; anything else is group-by's and sum-by's to do.
      if (typeof value !== "number") return false;
      const next = (values[offset + s] as number) + value;
      if (!Number.isInteger(value)) group.floats |= 1 << s;
      else if ((group.floats & (1 << s)) === 0 && !(Math.abs(next) <= Number.MAX_SAFE_INTEGER)) return false;
      values[offset + s] = next;
      continue;
    }
    // max/min over plain numbers: the first NaN is the answer, else the first greatest (least).
    if (typeof value !== "number") return false;
    const best = values[offset + s] as number;
    if (first) values[offset + s] = value;
    else if (Number.isNaN(best)) continue;
    else if (Number.isNaN(value)) values[offset + s] = value;
    else if (spec.op === "max" ? value > best : value < best) values[offset + s] = value;
  }
  return true;
}

function groupBy(key: unknown, coll: unknown): unknown {
  groupTotalsStats.groupByFallbacks++;
  return groupByBuiltin(key, coll);
}

/**
 * The `index`th read of a group the pass made: its size (-1), or its spec's value, charged as the
 * call it replaces: `sum-by` walks the group; `(apply max (map :f rows))` also collects the
 * field's values in a vector. Nil for a group that group-by made: the call as written runs.
 */
function groupTotal(rows: unknown, index: unknown): unknown {
  if (!(rows instanceof GroupTotals) || typeof index !== "number") return null;
  groupTotalsStats.reads++;
  if (index < 0) return rows.count;
  const { count } = rows;
  active.work(count + CHECK_EVERY * Math.floor(count / CHECK_EVERY));
  const spec = rows.specs[index] as GroupSpec;
  if (spec.op !== "sum") active.allocate(vectorBytes(count));
  const value = rows.value(index);
  return spec.op === "sum" && (rows.floats & (1 << index)) !== 0 ? makeFloat(value) : value;
}

const CATEGORY = "Internal";

export const groupTotalsBuiltins: BuiltinDefinition[] = [
  builtin(
    GROUP_TOTALS,
    [3, 3],
    ["[key coll specs]"],
    "(group-by key coll) whose groups only feed count, sum-by and apply max/min of a field (inserted by the analyzer).",
    CATEGORY,
    groupTotals,
  ),
  builtin(
    GROUP_TOTAL,
    [2, 2],
    ["[rows index]"],
    "A read of a group made by group-by totals (inserted by the analyzer).",
    CATEGORY,
    groupTotal,
  ),
];
