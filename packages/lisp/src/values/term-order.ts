/**
 * The total order the reference uses wherever values of any kind are compared: `<` on mixed
 * operands, `sort`, `compare`, and the iteration order of maps and sets (Erlang term order:
 * numbers < nil/booleans/keywords (by name) < functions < maps and sets < vectors < strings).
 */
import { CustomValue } from "./custom-value.js";
import { Keyword } from "./keyword.js";
import { mapEntries } from "./map-entries.js";
import { WholeFloat } from "./numbers.js";
import { isPlainObject } from "./plain-object.js";
import { isLispMap, isLispSet } from "./table-kind.js";
import { chargeWalk } from "./walk-meter.js";

enum Rank {
  Number = 0,
  Atom = 1,
  Function = 2,
  Map = 4,
  Vector = 5,
  String = 6,
}

function rankOf(value: unknown): Rank {
  switch (typeof value) {
    case "number":
    case "bigint":
      return Rank.Number;
    case "string":
      return Rank.String;
    case "boolean":
    case "undefined":
      return Rank.Atom;
    case "function":
      return Rank.Function;
    default:
      if (value === null || value instanceof Keyword) return Rank.Atom;
      if (value instanceof WholeFloat) return Rank.Number;
      if (Array.isArray(value)) return Rank.Vector;
      return Rank.Map;
  }
}

function atomName(value: unknown): string {
  if (value === null || value === undefined) return "nil";
  if (value === true) return "true";
  if (value === false) return "false";
  return (value as Keyword).name;
}

function compareNumbers(a: unknown, b: unknown): number {
  const x = a instanceof WholeFloat ? a.value : (a as number | bigint);
  const y = b instanceof WholeFloat ? b.value : (b as number | bigint);
  // Mixed number/bigint comparison is exact in JS.
  return x < y ? -1 : x > y ? 1 : 0;
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function compareVectors(a: readonly unknown[], b: readonly unknown[]): number {
  const n = Math.min(a.length, b.length);
  chargeWalk(n + 1);
  for (let i = 0; i < n; i++) {
    const c = compareTerms(a[i], b[i]);
    if (c !== 0) return c;
  }
  return a.length - b.length < 0 ? -1 : a.length > b.length ? 1 : 0;
}

function entriesForOrder(value: unknown): ReadonlyArray<readonly [unknown, unknown]> {
  if (isLispSet(value)) return value.members().map((m) => [m, m] as const);
  if (isLispMap(value) || isPlainObject(value)) return mapEntries(value);
  return [];
}

function compareMaps(a: unknown, b: unknown): number {
  if (a instanceof CustomValue || b instanceof CustomValue) {
    const x = a instanceof CustomValue ? a.canonical() : "";
    const y = b instanceof CustomValue ? b.canonical() : "";
    return compareStrings(x, y);
  }
  const x = entriesForOrder(a);
  const y = entriesForOrder(b);
  // Erlang orders maps by size first, then by keys, then by values.
  if (x.length !== y.length) return x.length < y.length ? -1 : 1;
  chargeWalk(2 * x.length + 1);
  for (let i = 0; i < x.length; i++) {
    const c = compareTerms(
      (x[i] as readonly [unknown, unknown])[0],
      (y[i] as readonly [unknown, unknown])[0],
    );
    if (c !== 0) return c;
  }
  for (let i = 0; i < x.length; i++) {
    const c = compareTerms(
      (x[i] as readonly [unknown, unknown])[1],
      (y[i] as readonly [unknown, unknown])[1],
    );
    if (c !== 0) return c;
  }
  return 0;
}

/** -1, 0 or 1. NaN compares equal to everything here; callers that must say "false" check first. */
export function compareTerms(a: unknown, b: unknown): number {
  if (typeof a === "number" && typeof b === "number") return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === "string" && typeof b === "string") return compareStrings(a, b);
  const ra = rankOf(a);
  const rb = rankOf(b);
  if (ra !== rb) return ra < rb ? -1 : 1;
  switch (ra) {
    case Rank.Number:
      return compareNumbers(a, b);
    case Rank.Atom:
      return compareStrings(atomName(a), atomName(b));
    case Rank.String:
      return compareStrings(a as string, b as string);
    case Rank.Vector:
      return compareVectors(a as unknown[], b as unknown[]);
    case Rank.Function:
      return 0;
    default:
      return compareMaps(a, b);
  }
}

/**
 * compareTerms of `keys[x]` and `keys[y]`, for sort keys that are all vectors of one length whose
 * every position holds plain numbers only or strings only (`(sort-by (juxt :region :amount)
 * rows)`), or undefined when the keys are anything else. The keys are read into one array per
 * position (see columnOrder).
 */
export function tupleIndexOrder(keys: readonly unknown[]): ((x: number, y: number) => number) | undefined {
  const first = keys[0];
  if (!Array.isArray(first)) return undefined;
  const width = first.length;
  for (let i = 1; i < keys.length; i++) {
    const key = keys[i];
    if (!Array.isArray(key) || key.length !== width) return undefined;
  }
  const columns: unknown[][] = [];
  for (let j = 0; j < width; j++) {
    const column = new Array<unknown>(keys.length);
    for (let i = 0; i < keys.length; i++) column[i] = (keys[i] as readonly unknown[])[j];
    columns.push(column);
  }
  return columnOrder(columns);
}

/**
 * compareTerms of the keys [columns[0][x] columns[1][x] ...] and [columns[0][y] ...], when every
 * column holds plain numbers only or strings only (1 to 8 columns of one length), else
 * undefined. A sort compares each key some 17 times at 100,000 rows, and reading two values out
 * of a column costs far less than following each key to its own small vector. Positions compare
 * with < and >, which is what compareTerms does for two numbers or two strings (NaN included),
 * without its walk charge and dispatch per pair: the sort charges its work itself.
 */
export function columnOrder(columns: readonly unknown[][]): ((x: number, y: number) => number) | undefined {
  const width = columns.length;
  if (width === 0 || width > 8) return undefined;
  for (const column of columns) {
    const kind = typeof column[0];
    if (kind !== "number" && kind !== "string") return undefined;
    for (let i = 1; i < column.length; i++) if (typeof column[i] !== kind) return undefined;
  }
  const cells = columns as ReadonlyArray<ReadonlyArray<number | string>>;
  return (x, y) => {
    for (let j = 0; j < width; j++) {
      const column = cells[j] as ReadonlyArray<number | string>;
      const p = column[x] as number | string;
      const q = column[y] as number | string;
      // Most positions of a multi-key sort hold equal values (the same region, the same status):
      // identity answers those at once, where < and > would each compare two equal texts char by
      // char. NaN is never identical to itself, and neither < nor > holds for it: on to the next.
      if (p === q) continue;
      if (p < q) return -1;
      if (p > q) return 1;
    }
    return 0;
  };
}
