/**
 * The tool boundary. Arguments leave a program as plain string-keyed JSON: keyword keys
 * and string keys both become strings with hyphens turned into underscores
 * (`{:user-id 1}` reaches the host as {"user_id": 1}), keyword values become their names, sets
 * become arrays, floats become numbers. Results come back untouched.
 *
 * Converting is charged to the run: time for every collection, and memory for every collection
 * converted a second time. Data the program holds (a tool result it passes on) is free, but a
 * value with shared structure expands into a tree (a map whose two fields are the same map,
 * nested 40 times, has 2^40 leaves), and that expansion must stop at the run's limits.
 */

import { headOf } from "../cut-text.js";
import { LispError } from "../errors.js";
import { CustomValue } from "../values/custom-value.js";
import { Keyword } from "../values/keyword.js";
import { LispMap } from "../values/lisp-map.js";
import { LispSet } from "../values/lisp-set.js";
import { mapEntries } from "../values/map-access.js";
import { WholeFloat } from "../values/numbers.js";
import { defineOwn, isPlainObject, type PlainObject } from "../values/plain-object.js";
import { active } from "./context.js";
import { typeName } from "./describe.js";
import { namedArgumentsAdvice, parameterNames } from "./tool-parameters.js";

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

/** Charges the conversion of one collection of `size` items (see the module comment). */
function chargeCollection(collection: object, size: number, seen: Set<object>, bytes: number): void {
  active.work(size + 1);
  if (seen.has(collection)) active.allocate(bytes);
  else seen.add(collection);
}

/**
 * Levels of nesting tool arguments may have. JSON data is never this deep; a host value that
 * contains itself is infinitely deep, and the walk (which recurses) must end with an error that
 * says so rather than run out of stack.
 */
const MAX_ARGUMENT_DEPTH = 1000;
/** Characters of a path shown in an error (a path 1,000 levels deep is long). */
const MAX_PATH_SHOWN = 200;

function tooDeep(path: string): LispError {
  const shown = path.length > MAX_PATH_SHOWN ? `${headOf(path, MAX_PATH_SHOWN)}...` : path;
  return new LispError(
    "invalid_tool_args",
    `tool arguments are nested more than ${MAX_ARGUMENT_DEPTH} levels deep (at ${shown}); a value that contains itself cannot be passed to a tool: pass the parts the tool needs`,
  );
}

export function toToolValue(
  value: unknown,
  path = "args",
  seen: Set<object> = new Set(),
  depth = 0,
): unknown {
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
  const inner = depth + 1;
  if (Array.isArray(value)) {
    if (inner > MAX_ARGUMENT_DEPTH) throw tooDeep(path);
    chargeCollection(value, value.length, seen, 16 + 8 * value.length);
    return value.map((item, index) => toToolValue(item, `${path}[${index}]`, seen, inner));
  }
  if (value instanceof LispSet) {
    if (inner > MAX_ARGUMENT_DEPTH) throw tooDeep(path);
    chargeCollection(value, value.size, seen, 16 + 8 * value.size);
    return value.members().map((item, index) => toToolValue(item, `${path}[${index}]`, seen, inner));
  }
  if (value instanceof LispMap || isPlainObject(value)) {
    if (inner > MAX_ARGUMENT_DEPTH) throw tooDeep(path);
    const entries = mapEntries(value);
    chargeCollection(value, entries.length, seen, 32 + 40 * entries.length);
    const out: PlainObject = {};
    for (const [key, item] of entries) {
      const name = boundaryKey(key, path);
      defineOwn(out, name, toToolValue(item, `${path}.${name}`, seen, inner));
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
    const written =
      typeof value === "number" || typeof value === "boolean"
        ? String(value)
        : typeof value === "string"
          ? JSON.stringify(value)
          : "...";
    const parameters = parameterNames(active.tools.get(toolName)?.signature);
    throw new LispError(
      "invalid_tool_args",
      `Tool calls require named arguments. Use (tool/${toolName} {:key value}), not positional args. Got ${typeName(value)} — ${namedArgumentsAdvice(toolName, parameters, [written])}`,
    );
  }
  return toToolValue(value) as Record<string, unknown>;
}
