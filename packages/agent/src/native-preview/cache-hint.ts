/**
 * The `cache_hint` of a native preview: the one sentence that tells the model how to reach the
 * full result from `lisp_eval`. The call it shows must be one a program can paste and that lands
 * on the same cache entry, so the arguments are rendered from their canonical form (keys
 * normalized like `canonicalCacheKey`, sorted) as PTC-Lisp data, and all quoting is left to
 * @ptc/lisp's printer: hand-rolled escaping here would drift from what the reader accepts.
 *
 * Never throws: a hint that cannot show the arguments still tells the model what to do.
 */
import { format, Keyword, LispMap } from "@ptc/lisp";
import { normalizeKey } from "@ptc/tool";
import { isPlainObject } from "../json/plain-object.js";

export interface TooLargeSizes {
  readonly tooLargeBytes?: number | undefined;
  readonly limitBytes?: number | undefined;
}

/**
 * `Call lisp_eval and then call (tool/<name> <ARGS>) to process the full cached result.`
 *
 * ARGS is the canonical arguments as PTC-Lisp: `{:query "error code 42"}`. Empty arguments
 * render as `{}` rather than being left out, because `{}` is what the cache key holds.
 */
export function cacheHint(toolName: string, args: unknown): string {
  return `Call lisp_eval and then call ${toolCallText(toolName, args)} to process the full cached result.`;
}

/** The hint for a result the cache refused: calling the tool from a program runs it again. */
export function tooLargeHint(toolName: string, args: unknown, sizes: TooLargeSizes): string {
  const size = isByteCount(sizes.tooLargeBytes) ? ` (${sizes.tooLargeBytes} bytes)` : "";
  const limit = isByteCount(sizes.limitBytes) ? ` (limit ${sizes.limitBytes} bytes)` : "";
  return (
    `The full result${size} was too large to keep in this run's cache${limit}; ` +
    `calling ${toolCallText(toolName, args)} inside lisp_eval runs the tool again.`
  );
}

function isByteCount(value: unknown): value is number {
  return typeof value === "number" && Number.isFinite(value) && value >= 0;
}

function toolCallText(toolName: string, args: unknown): string {
  let argsText: string;
  try {
    argsText = format(toLispValue(args, new Set()));
  } catch {
    return sameArguments(toolName);
  }
  // The model sent these arguments itself; pasting megabytes of them back helps it no more than this.
  if (argsText.length > MAX_HINT_ARGS_CHARS) return sameArguments(toolName);
  return `(tool/${toolName} ${argsText})`;
}

/** Characters of arguments the hint writes out; longer ones are referred to, not repeated. */
const MAX_HINT_ARGS_CHARS = 1000;

function sameArguments(toolName: string): string {
  return `(tool/${toolName} ...) with the same arguments`;
}

/** Names the reader accepts after `:` (letters, digits and `+-*<>=?!_`). */
const KEYWORD_NAME = /^[A-Za-z0-9+*<>=?!_-]+$/;

/**
 * Canonical arguments as values `format` prints as PTC-Lisp data. Plain objects become maps with
 * keyword keys; a key that cannot be written as a keyword (`"a b"`, `""`) stays a string key,
 * which a program may also write and which reaches the tool as the same string. (The printer
 * orders keyword keys before string keys; only such odd keys ever see that.) Arrays become
 * vectors; `undefined` becomes nil; numbers, strings, booleans, null and @ptc/lisp values print
 * as themselves. JS has no `1.0` distinct from `1`, so whole numbers already print as integers.
 */
function toLispValue(value: unknown, ancestors: Set<object>): unknown {
  if (value === undefined) return null;
  if (typeof value === "number") return value === 0 ? 0 : value;
  if (value === null || typeof value !== "object") return value;
  // Cyclic arguments cannot have a cache key at all; nil keeps the hint printable.
  if (ancestors.has(value)) return null;
  ancestors.add(value);
  try {
    if (Array.isArray(value)) return Array.from(value, (element) => toLispValue(element, ancestors));
    if (!isPlainObject(value)) return value;
    // Sorted before normalizing, as canonicalization does, so that when `a-b` and `a_b` collide
    // the same one wins whatever order they arrived in (LispMap.from keeps the later entry).
    const entries = Object.keys(value)
      .sort()
      .map((key) => [lispKey(normalizeKey(key)), toLispValue(value[key], ancestors)] as const);
    return LispMap.from(entries);
  } finally {
    ancestors.delete(value);
  }
}

function lispKey(name: string): unknown {
  return KEYWORD_NAME.test(name) ? Keyword.of(name) : name;
}
