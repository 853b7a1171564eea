/**
 * A value's shape without any of its values: what a memory preview shows of a binding whose data
 * came from a tool that shows the model no values (`<vector of 1842 maps>`). Kinds and sizes only;
 * never keys, since a map a program derived can be keyed by values (`(group-by :user rows)`).
 * Never throws: a value it cannot inspect is shown as `<value>`.
 */
import { Keyword, LispMap, LispSet, WholeFloat } from "@ptc/lisp";

export function describeShape(value: unknown): string {
  try {
    return shapeOf(value);
  } catch {
    return "<value>";
  }
}

function shapeOf(value: unknown): string {
  if (value === null || value === undefined) return "nil";
  if (Array.isArray(value)) return `<vector of ${countOf(value.length, itemsKind(value))}>`;
  if (value instanceof LispSet) return `<set of ${countOf(value.size, itemsKind(value.members()))}>`;
  if (value instanceof LispMap) return `<map of ${countOf(value.size, "entry")}>`;
  const kind = kindOf(value);
  if (kind === "map") return `<map of ${countOf(Object.keys(value as object).length, "entry")}>`;
  return `<${kind}>`;
}

/** What every item is, when they are all of one kind; else "item". */
function itemsKind(items: readonly unknown[]): string {
  let common: string | undefined;
  for (const item of items) {
    const kind = kindOf(item);
    if (common === undefined) common = kind;
    else if (kind !== common) return "item";
  }
  return common ?? "item";
}

function kindOf(value: unknown): string {
  switch (typeof value) {
    case "undefined":
      return "nil";
    case "boolean":
      return "boolean";
    case "number":
      return Number.isInteger(value) ? "integer" : "float";
    case "bigint":
      return "integer";
    case "string":
      return "string";
    case "function":
      return "fn";
    default:
      if (value === null) return "nil";
      if (value instanceof Keyword) return "keyword";
      if (value instanceof WholeFloat) return "float";
      if (Array.isArray(value)) return "vector";
      if (value instanceof LispSet) return "set";
      if (value instanceof LispMap) return "map";
      if (isPlainObject(value as object)) return "map";
      return "value";
  }
}

function isPlainObject(value: object): boolean {
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

const PLURALS: Readonly<Record<string, string>> = { entry: "entries", nil: "nils" };

function countOf(count: number, noun: string): string {
  return `${count} ${count === 1 ? noun : (PLURALS[noun] ?? `${noun}s`)}`;
}
