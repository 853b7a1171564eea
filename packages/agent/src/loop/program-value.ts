/**
 * A tool's result as a program receives it: the data the model would read from the same tool
 * natively. Values JSON has no form for are converted the way the native path renders them (Dates
 * as ISO text, Maps as objects, Sets as arrays, class instances as their own fields) instead of
 * reaching the program as opaque host objects it cannot read; cycles, functions and symbols are
 * errors that say so. BigInts stay (programs compute with them). Plain data comes back as the same
 * object, never copied, and the tool's own value is never mutated.
 */
import { errorMessage } from "../error-message.js";

export type ProgramValue =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly error: string };

class NotData extends Error {}

export function toProgramValue(value: unknown): ProgramValue {
  try {
    return { ok: true, value: convert(value, new Set()) };
  } catch (error) {
    if (error instanceof NotData) return { ok: false, error: error.message };
    if (error instanceof RangeError) {
      return { ok: false, error: "the tool returned a value nested too deeply to be data" };
    }
    // A getter that throws, a revoked proxy: the value cannot be read, so it is no data either.
    return {
      ok: false,
      error: `the tool returned a value that cannot be read (${errorMessage(error)})`,
    };
  }
}

function isPlain(value: object): boolean {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function convert(value: unknown, ancestors: Set<object>): unknown {
  if (typeof value === "function" || typeof value === "symbol") {
    throw new NotData(`the tool returned a ${typeof value}, which is not JSON data`);
  }
  if (typeof value !== "object" || value === null) return value;
  if (ancestors.has(value)) {
    throw new NotData("the tool returned a value that contains itself (a cycle), which is not JSON data");
  }
  ancestors.add(value);
  try {
    if (Array.isArray(value)) {
      let copy: unknown[] | undefined;
      for (let index = 0; index < value.length; index++) {
        const item = value[index];
        const converted = convert(item, ancestors);
        if (converted !== item && copy === undefined) copy = value.slice(0, index);
        copy?.push(converted);
      }
      return copy ?? value;
    }
    if (isPlain(value)) {
      let copy: Record<string, unknown> | undefined;
      const entries = Object.entries(value);
      for (const [index, [key, item]] of entries.entries()) {
        const converted = convert(item, ancestors);
        if (converted !== item && copy === undefined) copy = plainObject(entries.slice(0, index));
        if (copy !== undefined) define(copy, key, converted);
      }
      return copy ?? value;
    }
    if (typeof (value as { toJSON?: unknown }).toJSON === "function") {
      return convert((value as { toJSON: () => unknown }).toJSON(), ancestors);
    }
    if (value instanceof Map) {
      return convert(plainObject([...value.entries()].map(([key, item]) => [String(key), item])), ancestors);
    }
    if (value instanceof Set) return convert([...value], ancestors);
    return convert(plainObject(Object.entries(value)), ancestors);
  } finally {
    ancestors.delete(value);
  }
}

function plainObject(entries: readonly (readonly [string, unknown])[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, item] of entries) define(out, key, item);
  return out;
}

/** `__proto__` and friends stay ordinary keys. */
function define(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
