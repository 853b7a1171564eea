/**
 * How large an `output_schema` may be. A client's schema is compiled into a validator on the
 * server's one thread before the program runs, and the compile grows with the schema: Ajv
 * generates code per keyword, and RE2 compiles every pattern. Measured on this machine (loaded),
 * well under the 8 MiB request cap: 20,000 plain properties (529 KB) took 7 s, 5,000 patterns
 * (218 KB) 24 s, during which every client waited. Real output schemas are a few kilobytes with
 * a few patterns, so the limits below cost them nothing and bound one call's compile to a
 * fraction of a second.
 */
import { jsonBytes } from "./shared-cache.js";

/** Largest `output_schema`, in bytes of JSON. */
export const MAX_OUTPUT_SCHEMA_BYTES = 32 * 1024;

/** Most patterns (`pattern` values and `patternProperties` keys) in one `output_schema`. */
export const MAX_OUTPUT_SCHEMA_PATTERNS = 64;

/** Why `schema` is over the limits, or undefined when it is within them. */
export function outputSchemaOverLimits(schema: Record<string, unknown>): string | undefined {
  const bytes = jsonBytes(schema);
  if (bytes === Number.POSITIVE_INFINITY) {
    return "it cannot be written as JSON (nested too deeply, or not plain JSON data); send a plain JSON Schema";
  }
  if (bytes > MAX_OUTPUT_SCHEMA_BYTES) {
    return `it is ${bytes} bytes of JSON, over the limit of ${MAX_OUTPUT_SCHEMA_BYTES}; send a smaller schema (check the parts of the value that matter)`;
  }
  const patterns = countPatterns(schema);
  if (patterns > MAX_OUTPUT_SCHEMA_PATTERNS) {
    return `it has ${patterns} patterns, over the limit of ${MAX_OUTPUT_SCHEMA_PATTERNS}; check fewer strings by pattern`;
  }
  return undefined;
}

/** `pattern` strings and `patternProperties` keys anywhere in a schema, walked without recursion. */
function countPatterns(schema: unknown): number {
  let count = 0;
  const stack: unknown[] = [schema];
  while (stack.length > 0) {
    const node = stack.pop();
    if (typeof node !== "object" || node === null) continue;
    if (Array.isArray(node)) {
      stack.push(...node);
      continue;
    }
    for (const [key, value] of Object.entries(node)) {
      if (key === "pattern" && typeof value === "string") count++;
      if (
        key === "patternProperties" &&
        typeof value === "object" &&
        value !== null &&
        !Array.isArray(value)
      ) {
        count += Object.keys(value).length;
      }
      stack.push(value);
    }
  }
  return count;
}
