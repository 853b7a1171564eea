/**
 * The text of anything thrown, for step failures, tool errors the model reads, events and logs.
 * Model functions and tools may throw anything: an Error whose `message` or `name` getter throws,
 * a revoked Proxy, an array nested 5,000 deep, a null-prototype object, a cyclic array holding a
 * Symbol, a string of ten megabytes. So this never throws, and keeps at most MAX_ERROR_CHARS
 * characters (the bound @ptc/lisp puts on what a tool throws, so both layers say the same).
 */

import { headOf } from "./cut-text.js";

/** The longest text kept of what a thrown value says (the rest becomes "..."). */
export const MAX_ERROR_CHARS = 2000;

/** Said of a thrown value none of whose readings works. */
const UNREADABLE = "(a thrown value that could not be read)";

function bounded(text: string): string {
  return text.length > MAX_ERROR_CHARS ? `${headOf(text, MAX_ERROR_CHARS)}...` : text;
}

/** A text field of an Error, or undefined when it is empty, not text, or its getter throws. */
function field(error: Error, key: "message" | "name"): string | undefined {
  try {
    const value: unknown = error[key];
    return typeof value === "string" && value !== "" ? value : undefined;
  } catch {
    return undefined;
  }
}

/** An Error's message (its name when the message is empty), a string as is, other values as JSON. */
function readText(error: unknown): string {
  if (typeof error === "string") return error;
  if (error instanceof Error) {
    const message = field(error, "message");
    if (message !== undefined) return message;
    const name = field(error, "name");
    if (name !== undefined) return name;
  }
  const json: unknown = JSON.stringify(error, budgetedReplacer());
  return typeof json === "string" ? json : plainText(error);
}

/**
 * Values JSON writes of a thrown value before the rest is cut to "...": a value with shared
 * structure (`{a: v, b: v}` nested 40 times) is enormous written out, and only the first
 * MAX_ERROR_CHARS characters are kept anyway. BigInts are written as their digits.
 */
const MAX_JSON_VALUES = 4 * MAX_ERROR_CHARS;

function budgetedReplacer(): (key: string, value: unknown) => unknown {
  let written = 0;
  return (_key, value) => {
    written += 1;
    if (typeof value === "bigint") return value.toString();
    if (written > MAX_JSON_VALUES && typeof value === "object" && value !== null) return "...";
    return value;
  };
}

/**
 * `String` of a value, except an array: its text joins its items' texts, as deep and as large as
 * the whole tree (shared structure again), so it is not tried.
 */
function plainText(value: unknown): string {
  if (Array.isArray(value)) throw new TypeError("an array JSON cannot write");
  return String(value);
}

export function errorMessage(error: unknown): string {
  try {
    return bounded(readText(error));
  } catch {
    // A getter, `toJSON` or `instanceof` that throws, a cycle, nesting past the stack: try plain text.
  }
  try {
    return bounded(plainText(error));
  } catch {
    // No `toString` (a null-prototype object), an array (a cycle holding a Symbol), a revoked proxy.
  }
  return UNREADABLE;
}
