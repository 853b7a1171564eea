/**
 * Destructuring at run time: a compiled pattern writes the parts of a value into frame slots.
 * Bad data for a pattern is a destructure_error that names the pattern's position and the value.
 */
import type { Pattern } from "../analyzer/ast.js";
import { LispError } from "../errors.js";
import { print } from "../format/print.js";
import { typeName } from "../runtime/describe.js";
import { Keyword } from "../values/keyword.js";
import { LispMap } from "../values/lisp-map.js";
import { LispSet } from "../values/lisp-set.js";
import { lookup, mapEntries } from "../values/map-access.js";
import { isPlainObject } from "../values/plain-object.js";
import type { Code } from "./code.js";
import { shapedKeyBinder } from "./key-binders.js";

export type Binder = (frame: unknown[], value: unknown) => void;

/** How many `[a b]` patterns got the unrolled pair binder when compiled (the tests read it). */
export const seqBinderStats = { pairs: 0 };

const EMPTY: readonly unknown[] = Object.freeze([]);

function describe(value: unknown): string {
  return `${typeName(value)} ${print(value, { maxChars: 60 })}`;
}

export function sequentialItems(
  value: unknown,
  position: { line: number; column: number },
): readonly unknown[] {
  if (Array.isArray(value)) return value;
  if (value === null || value === undefined) return EMPTY;
  if (value instanceof LispMap || isPlainObject(value))
    return mapEntries(value) as unknown as readonly unknown[];
  if (value instanceof LispSet) return value.members();
  throw new LispError(
    "destructure_error",
    `cannot destructure ${describe(value)} with a vector pattern; vector patterns need a vector (or nil)`,
    position,
  );
}

export function compilePattern(
  pattern: Pattern,
  compileDefault: (node: import("../analyzer/ast.js").Node) => Code,
): Binder {
  switch (pattern.kind) {
    case "bind": {
      const slot = pattern.slot;
      return (frame, value) => {
        frame[slot] = value === undefined ? null : value;
      };
    }
    case "ignore":
      return () => undefined;
    case "seq": {
      const items = pattern.items.map((item) => compilePattern(item, compileDefault));
      const rest = pattern.rest === undefined ? undefined : compilePattern(pattern.rest, compileDefault);
      const position = pattern.position;
      const slots = pattern.items.map((item) => (item.kind === "bind" ? item.slot : -1));
      if (rest === undefined && slots.length === 2 && slots.every((slot) => slot >= 0)) {
        // `[k v]`, `[lo hi]`: the commonest vector pattern, unrolled, a vector read without a call.
        const s0 = slots[0] as number;
        const s1 = slots[1] as number;
        seqBinderStats.pairs++;
        return (frame, value) => {
          const source = Array.isArray(value) ? value : sequentialItems(value, position);
          const length = source.length;
          const v0 = length > 0 ? source[0] : null;
          frame[s0] = v0 === undefined ? null : v0;
          const v1 = length > 1 ? source[1] : null;
          frame[s1] = v1 === undefined ? null : v1;
        };
      }
      if (rest === undefined && slots.every((slot) => slot >= 0)) {
        // `[a b]` over a vector: every item straight into its slot, no binder call per item.
        return (frame, value) => {
          const source = sequentialItems(value, position);
          for (let i = 0; i < slots.length; i++) {
            const item = i < source.length ? source[i] : null;
            frame[slots[i] as number] = item === undefined ? null : item;
          }
        };
      }
      return (frame, value) => {
        const source = sequentialItems(value, position);
        for (let i = 0; i < items.length; i++)
          (items[i] as Binder)(frame, i < source.length ? source[i] : null);
        if (rest !== undefined) rest(frame, source.length > items.length ? source.slice(items.length) : []);
      };
    }
    case "map": {
      const entries = pattern.entries.map((entry) => ({
        key: entry.key,
        // A keyword Object.prototype has no property of: on a plain object `value[name]` can only
        // find an own property, so the read needs no own-property check (keyword.ts).
        name: entry.key instanceof Keyword && entry.key.direct ? entry.key.name : undefined,
        bind: compilePattern(entry.pattern, compileDefault),
        // A plain name (`:keys`): the value goes straight into its slot.
        slot: entry.pattern.kind === "bind" ? entry.pattern.slot : -1,
        fallback: entry.fallback === undefined ? undefined : compileDefault(entry.fallback),
      }));
      const count = entries.length;
      const whole = pattern.whole === undefined ? undefined : compilePattern(pattern.whole, compileDefault);
      const position = pattern.position;
      const general: Binder = (frame, value) => {
        const isNil = value === null || value === undefined;
        // Host rows (`{:keys [id amount]}` over tool results) are the common case: plain objects.
        const plain =
          !isNil &&
          (value as { constructor?: unknown }).constructor === Object &&
          getPrototypeOf(value) === ObjectPrototype;
        if (!isNil && !plain && !(value instanceof LispMap) && !isPlainObject(value)) {
          throw new LispError(
            "destructure_error",
            `cannot destructure ${describe(value)} with a map pattern; map patterns need a map (or nil)`,
            position,
          );
        }
        for (let i = 0; i < count; i++) {
          const entry = entries[i] as (typeof entries)[number];
          let found: unknown;
          if (plain && entry.name !== undefined) {
            found = (value as Record<string, unknown>)[entry.name];
            // Absent under its own name: the flexible lookup tries the name's twins (map-access.ts).
            if (found === undefined) found = lookup(value as never, entry.key);
          } else if (!isNil) {
            found = lookup(value as never, entry.key);
          }
          if (found === undefined && entry.fallback !== undefined) found = entry.fallback(frame);
          if (entry.slot >= 0) frame[entry.slot] = found === undefined ? null : found;
          else entry.bind(frame, found);
        }
        if (whole !== undefined) whole(frame, value);
      };
      // Plain names only (`{:keys [a b]}`, `{a :a}`): a binder written for the pattern's size.
      if (
        whole === undefined &&
        entries.every((entry) => entry.name !== undefined && entry.slot >= 0 && entry.fallback === undefined)
      ) {
        const reads = entries.map((entry) => ({
          name: entry.name as string,
          key: entry.key as Keyword,
          slot: entry.slot,
        }));
        return shapedKeyBinder(reads, general) ?? general;
      }
      return general;
    }
  }
}

const getPrototypeOf = Object.getPrototypeOf;
const ObjectPrototype = Object.prototype;
