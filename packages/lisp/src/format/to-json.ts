/**
 * Program values as plain JSON-safe data for the host: keywords become their names, sets become
 * arrays (in member order), maps become objects (keys as text), floats become numbers. Values JSON
 * cannot hold say so plainly: NaN and infinities become null, integers beyond 2^53 become their
 * decimal string (a number would silently lose digits), functions become their printed form.
 */
import { CustomValue } from "../values/custom-value.js";
import { Keyword } from "../values/keyword.js";
import { LispMap } from "../values/lisp-map.js";
import { LispSet } from "../values/lisp-set.js";
import { mapEntries } from "../values/map-access.js";
import { WholeFloat } from "../values/numbers.js";
import { defineOwn, isPlainObject, type PlainObject } from "../values/plain-object.js";
import { print } from "./print.js";

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

function keyText(key: unknown): string {
  if (typeof key === "string") return key;
  if (key instanceof Keyword) return key.name;
  return print(key);
}

export function toJson(value: unknown): JsonValue {
  switch (typeof value) {
    case "undefined":
      return null;
    case "boolean":
    case "string":
      return value;
    case "number":
      return Number.isFinite(value) ? value : null;
    case "bigint":
      return value.toString();
    case "function":
      return print(value);
    default: {
      if (value === null) return null;
      if (value instanceof Keyword) return value.name;
      if (value instanceof WholeFloat) return Number.isFinite(value.value) ? value.value : null;
      if (Array.isArray(value)) return value.map(toJson);
      if (value instanceof LispSet) return value.members().map(toJson);
      if (value instanceof LispMap || isPlainObject(value)) {
        const out: PlainObject = {};
        for (const [key, item] of mapEntries(value)) defineOwn(out, keyText(key), toJson(item));
        return out as { [key: string]: JsonValue };
      }
      if (value instanceof CustomValue) return value.toJSON() as JsonValue;
      return print(value);
    }
  }
}
