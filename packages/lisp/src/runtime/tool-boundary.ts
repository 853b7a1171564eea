/**
 * The tool boundary (spec §10). Arguments leave a program as plain string-keyed JSON: keyword keys
 * and string keys both become strings with hyphens turned into underscores
 * (`{:user-id 1}` reaches the host as {"user_id": 1}), keyword values become their names, sets
 * become arrays, floats become numbers. Results come back untouched.
 */
import { LispError } from "../errors.js";
import { CustomValue } from "../values/custom-value.js";
import { Keyword } from "../values/keyword.js";
import { LispMap } from "../values/lisp-map.js";
import { LispSet } from "../values/lisp-set.js";
import { mapEntries } from "../values/map-access.js";
import { WholeFloat } from "../values/numbers.js";
import { defineOwn, isPlainObject, type PlainObject } from "../values/plain-object.js";
import { typeName } from "./describe.js";

function boundaryKey(key: unknown, path: string): string {
  if (key instanceof Keyword) return key.name.replaceAll("-", "_");
  if (typeof key === "string") return key.replaceAll("-", "_");
  if (typeof key === "number" || typeof key === "bigint") return String(key);
  if (key instanceof WholeFloat) return String(key.value);
  throw new LispError(
    "invalid_tool_args",
    `tool argument keys must be keywords or strings; got ${typeName(key)} at ${path}`,
  );
}

export function toToolValue(value: unknown, path = "args"): unknown {
  if (value === undefined) return null;
  if (
    value === null ||
    typeof value === "string" ||
    typeof value === "boolean" ||
    typeof value === "number" ||
    typeof value === "bigint"
  ) {
    return value;
  }
  if (value instanceof Keyword) return value.name;
  if (value instanceof WholeFloat) return value.value;
  if (Array.isArray(value)) return value.map((item, index) => toToolValue(item, `${path}[${index}]`));
  if (value instanceof LispSet)
    return value.members().map((item, index) => toToolValue(item, `${path}[${index}]`));
  if (value instanceof LispMap || isPlainObject(value)) {
    const out: PlainObject = {};
    for (const [key, item] of mapEntries(value)) {
      const name = boundaryKey(key, path);
      defineOwn(out, name, toToolValue(item, `${path}.${name}`));
    }
    return out;
  }
  if (value instanceof CustomValue) return value.toJSON();
  throw new LispError(
    "invalid_tool_args",
    `cannot pass a ${typeName(value)} to a tool (at ${path}); pass data: maps, vectors, strings, numbers`,
  );
}

export function toToolArgs(value: unknown, toolName: string): Record<string, unknown> {
  if (value === undefined || value === null) return {};
  if (!(value instanceof LispMap) && !isPlainObject(value)) {
    throw new LispError(
      "invalid_tool_args",
      `Tool calls require named arguments. Use (tool/${toolName} {:key value}), not positional args. Got ${typeName(value)}`,
    );
  }
  return toToolValue(value) as Record<string, unknown>;
}
