/**
 * A program's value as the JSON that `output_schema` checks and `validated` carries. Anything a
 * program can return becomes either that JSON or a reason it cannot, never an exception: a value
 * with enormous shared structure (more nodes written out than `toJson` makes) and one nested
 * deeper than JSON encoders and the schema checker can walk (they recurse per level, so a vector
 * nested 100,000 deep overflowed the stack and the client got a bare JSON-RPC internal error).
 */
import { LispError, toJson } from "@ptc/lisp";

/** Deepest `validated` value: what JSON.stringify, Ajv and most clients' parsers read safely. */
export const MAX_VALIDATED_DEPTH = 1000;

export type SchemaValue =
  | { readonly ok: true; readonly json: unknown }
  | { readonly ok: false; readonly reason: string };

export function schemaValue(value: unknown): SchemaValue {
  let json: unknown;
  try {
    json = toJson(value);
  } catch (error) {
    if (!(error instanceof LispError)) throw error;
    return {
      ok: false,
      reason:
        "it is too large written out as JSON (over 10,000,000 nodes; a value that holds the same " +
        "collection twice counts it twice); return less data",
    };
  }
  if (nestedDeeperThan(json, MAX_VALIDATED_DEPTH)) {
    return {
      ok: false,
      reason: `it is nested more than ${MAX_VALIDATED_DEPTH.toLocaleString("en-US")} levels deep; return a flatter value`,
    };
  }
  return { ok: true, json };
}

/** Whether plain JSON data nests deeper than `limit`, walked without recursion. */
function nestedDeeperThan(json: unknown, limit: number): boolean {
  const stack: { readonly value: unknown; readonly depth: number }[] = [{ value: json, depth: 0 }];
  while (stack.length > 0) {
    const { value, depth } = stack.pop() as { value: unknown; depth: number };
    if (typeof value !== "object" || value === null) continue;
    if (depth >= limit) return true;
    const children = Array.isArray(value) ? value : Object.values(value);
    for (const child of children) {
      if (typeof child === "object" && child !== null) stack.push({ value: child, depth: depth + 1 });
    }
  }
  return false;
}
