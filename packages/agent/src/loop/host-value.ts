/**
 * Program values as the host receives them: plain JSON data (keywords become strings, maps become
 * objects with underscore keys), floats rounded to the agent's `floatPrecision`. Memory keeps its
 * functions as they are, so a chat can hand them back to the next run.
 */
import { capturedValues, toJson } from "@ptc/lisp";
import { normalizeKeys } from "@ptc/tool";

function round(value: unknown, factor: number): unknown {
  if (typeof value === "number") {
    return Number.isInteger(value) || !Number.isFinite(value) ? value : Math.round(value * factor) / factor;
  }
  if (Array.isArray(value)) return value.map((item) => round(item, factor));
  if (typeof value === "object" && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      Object.defineProperty(out, key, {
        value: round(item, factor),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  }
  return value;
}

/** The host form of a program's answer: JSON data, underscore keys, rounded floats. */
export function toHostValue(value: unknown, floatPrecision: number): unknown {
  return normalizeKeys(round(toJson(value), 10 ** floatPrecision));
}

/** The host form of program memory: data as JSON, functions kept. */
export function externalizeMemory(memory: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(memory)) {
    Object.defineProperty(out, name, {
      value: typeof value === "function" ? value : toJson(value),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

const encoder = new TextEncoder();

/**
 * Bytes of memory as JSON: what the memory limit measures. A function counts as what its closure
 * captured (`(def f (let [big ...] (fn [] big)))` keeps `big` alive as surely as `(def big ...)`),
 * and so does a function inside a def'd map or vector; a captured value that is also a def is
 * counted twice, which errs on the side of the limit.
 */
export function memoryBytes(memory: Readonly<Record<string, unknown>>): number {
  const data: Record<string, unknown> = {};
  const captured: unknown[] = [];
  for (const [name, value] of Object.entries(memory)) {
    if (typeof value !== "function") data[name] = toJson(value);
    for (const one of capturedValues(value)) captured.push(one);
  }
  const bytes = encoder.encode(JSON.stringify(data)).length;
  return captured.length === 0 ? bytes : bytes + encoder.encode(JSON.stringify(toJson(captured))).length;
}

/** True for "no answer": nil, or the var a trailing `(def x ...)` evaluates to. */
export function isNoValue(value: unknown): boolean {
  if (value === null || value === undefined) return true;
  return typeof value === "object" && (value as { typeName?: unknown }).typeName === "var";
}
