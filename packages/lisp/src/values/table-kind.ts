/**
 * Which persistent table a value is, without importing the classes: LispMap and LispSet import
 * hashing and term order, which must tell maps and sets apart in turn, so asking `instanceof`
 * there would make an import cycle. Each class answers through this symbol instead.
 *
 * Only LispMap and LispSet may carry the symbol.
 */
import type { LispMap } from "./lisp-map.js";
import type { LispSet } from "./lisp-set.js";

export const TABLE_KIND: unique symbol = Symbol("ptc.table-kind");

export function isLispMap(value: unknown): value is LispMap {
  return (
    typeof value === "object" && value !== null && (value as { [TABLE_KIND]?: unknown })[TABLE_KIND] === "map"
  );
}

export function isLispSet(value: unknown): value is LispSet {
  return (
    typeof value === "object" && value !== null && (value as { [TABLE_KIND]?: unknown })[TABLE_KIND] === "set"
  );
}
