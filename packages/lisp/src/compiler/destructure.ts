/**
 * Destructuring at run time: a compiled pattern writes the parts of a value into frame slots.
 * Bad data for a pattern is a destructure_error that names the pattern's position and the value.
 */
import type { Pattern } from "../analyzer/ast.js";
import { LispError } from "../errors.js";
import { print } from "../format/print.js";
import { typeName } from "../runtime/describe.js";
import { LispMap } from "../values/lisp-map.js";
import { LispSet } from "../values/lisp-set.js";
import { lookup, mapEntries } from "../values/map-access.js";
import { isPlainObject } from "../values/plain-object.js";
import type { Code } from "./code.js";

export type Binder = (frame: unknown[], value: unknown) => void;

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
        bind: compilePattern(entry.pattern, compileDefault),
        fallback: entry.fallback === undefined ? undefined : compileDefault(entry.fallback),
      }));
      const whole = pattern.whole === undefined ? undefined : compilePattern(pattern.whole, compileDefault);
      const position = pattern.position;
      return (frame, value) => {
        const isNil = value === null || value === undefined;
        if (!isNil && !(value instanceof LispMap) && !isPlainObject(value)) {
          throw new LispError(
            "destructure_error",
            `cannot destructure ${describe(value)} with a map pattern; map patterns need a map (or nil)`,
            position,
          );
        }
        for (const entry of entries) {
          let found = isNil ? undefined : lookup(value as never, entry.key);
          if (found === undefined && entry.fallback !== undefined) found = entry.fallback(frame);
          entry.bind(frame, found);
        }
        if (whole !== undefined) whole(frame, value);
      };
    }
  }
}
