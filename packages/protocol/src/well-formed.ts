/**
 * Text for a model, well-formed Unicode. A JavaScript string may hold a lone
 * surrogate, half of a pair that makes one character such as an emoji: a program's `"\ud83d"`, a
 * tool's text cut at a fixed length, a host's record. `JSON.stringify` writes it as the escape
 * `\ud83d`, and a provider whose JSON parser checks Unicode refuses the whole request (HTTP 400),
 * again on every retry and every later turn: one such character in one tool result would end the
 * run. Each lone surrogate becomes U+FFFD, the replacement character, as a UTF-8 encoder would
 * write it; text that is already well-formed (nearly all of it) is returned as it is, uncopied.
 */

/** A high surrogate not followed by a low one, or a low surrogate not preceded by a high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

interface WellFormedText {
  isWellFormed?: () => boolean;
  toWellFormed?: () => string;
}

/** `text` with each lone surrogate replaced by U+FFFD; `text` itself when it has none. */
export function wellFormedText(text: string): string {
  const native = text as unknown as WellFormedText;
  // Node 20 and current browsers have the native scan; older engines get the same result.
  if (typeof native.isWellFormed === "function" && typeof native.toWellFormed === "function") {
    return native.isWellFormed() ? text : native.toWellFormed();
  }
  LONE_SURROGATE.lastIndex = 0;
  return LONE_SURROGATE.test(text) ? text.replace(LONE_SURROGATE, "\uFFFD") : text;
}

/** Nesting past which a value is left as it is: what reaches a model is far shallower. */
const MAX_DEPTH = 1000;

/**
 * `value` with every string in it (object keys included) well-formed: the same value when nothing
 * had to change, else a copy of the arrays and plain objects on the way to what did. Other
 * objects are left as they are.
 */
export function wellFormedValue<T>(value: T): T {
  try {
    return fix(value, 0) as T;
  } catch {
    // A host's object whose getter throws (a tool's schema) is sent as it is, as before.
    return value;
  }
}

function fix(value: unknown, depth: number): unknown {
  if (typeof value === "string") return wellFormedText(value);
  if (typeof value !== "object" || value === null || depth >= MAX_DEPTH) return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let index = 0; index < value.length; index++) {
      const item: unknown = value[index];
      const fixed = fix(item, depth + 1);
      if (fixed !== item && copy === undefined) copy = value.slice(0, index);
      if (copy !== undefined) copy.push(fixed);
    }
    return copy ?? value;
  }
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return value;
  const keys = Object.keys(value);
  let copy: Record<string, unknown> | undefined;
  for (let index = 0; index < keys.length; index++) {
    const key = keys[index] as string;
    const item: unknown = (value as Record<string, unknown>)[key];
    const fixedKey = wellFormedText(key);
    const fixedItem = fix(item, depth + 1);
    if (copy === undefined && (fixedKey !== key || fixedItem !== item)) {
      copy = {};
      for (const earlier of keys.slice(0, index))
        define(copy, earlier, (value as Record<string, unknown>)[earlier]);
    }
    if (copy !== undefined) define(copy, fixedKey, fixedItem);
  }
  return copy ?? value;
}

/** An own data property, so a key such as `__proto__` stays a key. */
function define(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
