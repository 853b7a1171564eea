/**
 * What the higher-order families (higher-order, aggregation, combinators, walk) share: turning a
 * function argument into a JS function of a known argument count (once per call of the builtin,
 * never per element), key arguments of the `*-by` functions (keyword, string, path vector or
 * function), collection arguments with advice for swapped arguments, and a driver that runs a
 * generator synchronously until a callback returns a promise.
 *
 * Nothing here may call a JS function that is not a branded PTC-Lisp function.
 */
import { LispError } from "../../errors.js";
import { print } from "../../format/print.js";
import { type MaybePromise, settle } from "../../runtime/async.js";
import { type Callable, toCallable } from "../../runtime/call.js";
import { typeAndValue } from "../../runtime/describe.js";
import { itemsOf } from "../../runtime/sequences.js";
import { Keyword } from "../../values/keyword.js";
import { FUNCTION_INFO, type LispFunction } from "../../values/lisp-function.js";
import { LispSet } from "../../values/lisp-set.js";
import { getField, isMap, lookup } from "../../values/map-access.js";

/** Clojure truth: everything but nil and false. */
export function truthy(value: unknown): boolean {
  return value !== null && value !== false && value !== undefined;
}

/** `(:k item)`: the flexible lookup of a key in a map, nil for anything that is not a map. */
export function fieldOf(item: unknown, key: unknown): unknown {
  return getField(item, key);
}

/** The keyword as a lookup function: one per keyword, shared by every program (see Keyword.lookup). */
export function keywordLookup(keyword: Keyword): (item: unknown) => unknown {
  let lookup = keyword.lookup;
  if (lookup === undefined) {
    lookup = (item: unknown) => getField(item, keyword);
    keyword.lookup = lookup;
  }
  return lookup;
}

/** `(get-in item path)` with flexible keys: maps by key, vectors by integer index, nil otherwise. */
export function pathOf(item: unknown, path: readonly unknown[]): unknown {
  let current = item;
  for (let i = 0; i < path.length; i++) {
    const key = path[i];
    if (current === null || current === undefined) return null;
    if (Array.isArray(current)) {
      if (typeof key !== "number" || !Number.isInteger(key) || key < 0 || key >= current.length) return null;
      current = current[key];
    } else if (typeof current === "object" && isMap(current)) {
      const found = lookup(current, key);
      current = found === undefined ? null : found;
    } else {
      return null;
    }
  }
  return current === undefined ? null : current;
}

function isLispFunctionValue(value: unknown): value is LispFunction {
  return typeof value === "function" && (value as Partial<LispFunction>)[FUNCTION_INFO] !== undefined;
}

/** A value for a message: its type and a short print ("integer 42"), or just "nil". */
export function describeValue(value: unknown): string {
  return typeAndValue(value);
}

/** Advice for a vector given where a function belongs (`(filter [:a] xs)`). */
function vectorAsFunctionError(value: readonly unknown[], who: string, role: string): LispError {
  const shown = print(value, { maxChars: 40 });
  const advice =
    value.length === 1
      ? `write ${print(value[0], { maxChars: 30 })} instead of ${shown}`
      : `a vector is not callable here; write #(get-in % ${shown}) to read a nested value`;
  return new LispError("type_error", `${who} expects a ${role}, got the vector ${shown}: ${advice}`);
}

/**
 * A function argument as a JS function that will be called with `count` arguments. Closures and
 * builtins that accept `count` arguments are returned as they are (no wrapper); keywords, sets and
 * maps called with one argument get a direct lookup. Anything else goes through `toCallable`,
 * which raises a type error for values that cannot be called.
 */
export function callbackOf(value: unknown, count: number, who: string, role = "function"): Callable {
  if (isLispFunctionValue(value)) {
    const info = value[FUNCTION_INFO];
    if (!info.builtin || (count >= info.minArity && count <= info.maxArity)) return value;
    return toCallable(value);
  }
  if (count === 1) {
    if (value instanceof Keyword) return keywordLookup(value);
    if (value instanceof LispSet) return (item: unknown) => (value.has(item) ? value.find(item) : null);
    if (value !== null && value !== undefined && typeof value === "object" && isMap(value)) {
      const map = value;
      return (key: unknown) => {
        const found = lookup(map, key);
        return found === undefined ? null : found;
      };
    }
  }
  if (Array.isArray(value)) throw vectorAsFunctionError(value, who, role);
  if (
    value === null ||
    value === undefined ||
    !(value instanceof Keyword || value instanceof LispSet || isMap(value))
  ) {
    throw new LispError(
      "type_error",
      `${who} expects a ${role}, got ${describeValue(value)}; pass a function such as inc or #(...), or a keyword, set or map to look items up`,
    );
  }
  return toCallable(value);
}

/** True for the values the `*-by` functions read as a field name rather than call. */
export function isFieldKey(key: unknown): boolean {
  return key instanceof Keyword || typeof key === "string" || key === null || typeof key === "boolean";
}

/**
 * The key argument of sort-by, group-by, sum-by and friends as a one-argument JS function: a
 * keyword or string reads that field (flexible lookup), a vector reads a nested path, anything
 * else is called.
 */
export function keyFunctionOf(key: unknown, who: string): Callable {
  if (key instanceof Keyword) return keywordLookup(key);
  if (typeof key === "string") return (item: unknown) => fieldOf(item, key);
  if (Array.isArray(key)) {
    const path = key;
    return (item: unknown) => pathOf(item, path);
  }
  if (key === null || typeof key === "boolean") return (item: unknown) => fieldOf(item, key);
  return callbackOf(key, 1, who, "key (a keyword, a string, a path vector or a function)");
}

/**
 * The items of a collection argument (vectors as they are, maps as [key value] entries, sets as
 * members, strings as characters, nil as empty), or a type error naming the function. A function
 * in the collection position almost always means swapped arguments, so that gets its own advice.
 */
export function collectionOf(value: unknown, who: string, usage: string): readonly unknown[] {
  if (Array.isArray(value)) return value;
  const items = itemsOf(value);
  if (items !== undefined) return items;
  if (isLispFunctionValue(value)) {
    throw new LispError(
      "type_error",
      `${who} expects a collection last, got a function: the arguments look swapped. Collection functions take the collection last: ${usage}`,
    );
  }
  throw new LispError(
    "type_error",
    `${who} expects a collection, got ${describeValue(value)}. Usage: ${usage}`,
  );
}

/**
 * Runs a generator that yields the results of the callbacks it makes and receives them back
 * resolved. Synchronous as long as every callback answers at once; after the first promise it
 * continues asynchronously, one callback at a time, so tool calls keep their program order.
 */
export function drive<T>(generator: Generator<unknown, T, unknown>): MaybePromise<T> {
  let step = generator.next();
  while (step.done !== true) {
    const value = step.value;
    if (value instanceof Promise) return driveAsync(generator, value);
    step = generator.next(value);
  }
  return step.value;
}

async function driveAsync<T>(
  generator: Generator<unknown, T, unknown>,
  pending: Promise<unknown>,
): Promise<T> {
  let step = generator.next(await settle(pending));
  while (step.done !== true) {
    let value = step.value;
    if (value instanceof Promise) value = await settle(value);
    step = generator.next(value);
  }
  return step.value;
}

// The one definition is in runtime/allocation.ts; re-exported for the builtins that import it here.
export { vectorBytes } from "../../runtime/allocation.js";
