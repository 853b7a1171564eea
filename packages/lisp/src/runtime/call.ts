/**
 * Calling values. Closures and builtins are JS functions; keywords, maps and sets are callable
 * too (`(:k m)`, `(m :k)`, `(#{1 2} x)`), and `(nil x)` is nil, as in the reference. Anything else,
 * including any JS function that is not a branded PTC-Lisp function, is "not callable": a program
 * can never invoke host code except through `tool/`.
 */
import { LispError } from "../errors.js";
import { print } from "../format/print.js";
import { quotedName } from "../quoted-text.js";
import { Keyword } from "../values/keyword.js";
import { FUNCTION_INFO, type LispFunction } from "../values/lisp-function.js";
import { LispSet } from "../values/lisp-set.js";
import { isMap, lookup } from "../values/map-access.js";
import { typeAndValue, typeName } from "./describe.js";

function builtinArityError(fn: LispFunction, count: number): LispError {
  const info = fn[FUNCTION_INFO];
  const expected =
    info.maxArity === info.minArity
      ? `${info.minArity}`
      : info.maxArity === Number.POSITIVE_INFINITY
        ? `${info.minArity}+`
        : `${info.minArity} to ${info.maxArity}`;
  return new LispError(
    "arity_error",
    `${quotedName(String(info.name))} expects ${expected} argument(s), got ${count}`,
  );
}

export function notCallable(value: unknown): LispError {
  const shown = print(value, { maxChars: 60 });
  return new LispError("not_callable", `not callable: ${shown} is a ${typeName(value)}, not a function`);
}

function keywordCall(keyword: Keyword, args: readonly unknown[]): unknown {
  if (args.length === 0 || args.length > 2) {
    const name = quotedName(keyword.name);
    throw new LispError(
      "invalid_keyword_call",
      `keyword :${name} called with ${args.length} arguments; write (:${name} m) or (:${name} m default)`,
    );
  }
  const target = args[0];
  if (target === null || target === undefined || !isMap(target)) return args.length === 2 ? args[1] : null;
  const found = lookup(target, keyword);
  if (found === undefined) return args.length === 2 ? args[1] : null;
  return found;
}

function mapCall(map: object, args: readonly unknown[]): unknown {
  if (args.length === 0 || args.length > 2) {
    throw new LispError(
      "invalid_map_call",
      `a map called as a function takes a key and an optional default, got ${args.length} arguments`,
    );
  }
  const found = lookup(map as never, args[0]);
  if (found === undefined) return args.length === 2 ? args[1] : null;
  return found;
}

function setCall(set: LispSet, args: readonly unknown[]): unknown {
  if (args.length !== 1) throw new LispError("arity_error", `set expects 1 argument, got ${args.length}`);
  return set.has(args[0]) ? set.find(args[0]) : null;
}

/** Calls any callable value with an argument list. */
export function callValue(callee: unknown, args: readonly unknown[]): unknown {
  if (typeof callee === "function") {
    const info = (callee as Partial<LispFunction>)[FUNCTION_INFO];
    if (info === undefined) throw notCallable(callee);
    if (info.builtin && (args.length < info.minArity || args.length > info.maxArity)) {
      throw builtinArityError(callee as LispFunction, args.length);
    }
    return (callee as LispFunction)(...args);
  }
  if (callee instanceof Keyword) return keywordCall(callee, args);
  if (callee === null || callee === undefined) return null;
  if (callee instanceof LispSet) return setCall(callee, args);
  if (isMap(callee)) return mapCall(callee, args);
  throw notCallable(callee);
}

/** Checks the argument count of a direct call to a known builtin. */
export function checkBuiltinArity(fn: LispFunction, count: number): void {
  const info = fn[FUNCTION_INFO];
  if (count < info.minArity || count > info.maxArity) throw builtinArityError(fn, count);
}

// biome-ignore lint/suspicious/noExplicitAny: Lisp functions take values of any type
export type Callable = (...args: any[]) => unknown;

/**
 * A callable as a JS function, for builtins that call back (map, filter, reduce...). Closures are
 * returned as they are (they check their own arity); everything else is wrapped once per call of
 * the higher-order builtin, not once per element.
 */
export function toCallable(value: unknown, role = "function argument"): Callable {
  if (typeof value === "function") {
    const info = (value as Partial<LispFunction>)[FUNCTION_INFO];
    if (info === undefined) throw notCallable(value);
    if (!info.builtin) return value as Callable;
    const fn = value as LispFunction;
    return (...args: unknown[]) => {
      if (args.length < info.minArity || args.length > info.maxArity)
        throw builtinArityError(fn, args.length);
      return fn(...args);
    };
  }
  if (value instanceof Keyword) return (...args: unknown[]) => keywordCall(value, args);
  if (value instanceof LispSet) return (...args: unknown[]) => setCall(value, args);
  if (value !== null && value !== undefined && isMap(value))
    return (...args: unknown[]) => mapCall(value, args);
  throw new LispError("type_error", `expected a function as ${role}, got ${typeAndValue(value)}`);
}

/**
 * Calls a callback that must answer synchronously (a sort comparator, a key function used while
 * sorting): a tool call there would make the result depend on timing, so it is refused.
 */
export function callNow(fn: Callable, who: string, ...args: unknown[]): unknown {
  const result = fn(...args);
  if (result instanceof Promise) {
    result.catch(() => undefined);
    throw new LispError(
      "type_error",
      `${who} cannot call tools from this function; fetch the data first, then ${who} it`,
    );
  }
  return result;
}
