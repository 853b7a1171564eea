/**
 * An MCP tool's `inputSchema` as the `parameters` of a `@ptc/tool` tool: a Standard Schema whose
 * check is the JSON Schema itself (compiled once with Ajv), and whose JSON Schema is the server's,
 * so a native listing of the tool offers exactly what the server declared.
 *
 * Programs send keys with `_` where they wrote `-` (the PTC tool boundary turns `{:max-results 5}`
 * into `{"max_results": 5}`); for a schema that declares `max-results` and not `max_results`,
 * the key is put back as declared before the check, at every depth the schema describes.
 *
 * The check never changes the caller's object: defaults the schema declares are filled into a
 * copy, and that copy is what the tool is called with (and what a cache key is made from).
 */

import type { JsonSchema } from "@ptc/tool";
import type { StandardSchemaV1 } from "@standard-schema/spec";
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import { BoundedSchemaCompiler, type SchemaCompilerStats } from "../bounded-compiler.js";
import { linearRegExp } from "../linear-regexp.js";

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * One compiler for every server's schemas: compiling is what costs, each tool compiles its schema
 * once per listing, and a schema listed again unchanged is not compiled again.
 */
const compiler = new BoundedSchemaCompiler(
  (processCode) =>
    new Ajv({
      allErrors: true,
      strict: false,
      useDefaults: true,
      verbose: true,
      validateFormats: false,
      validateSchema: false,
      // A server's pattern is matched against arguments on the host's thread.
      code: { regExp: linearRegExp, process: processCode },
    }),
);

/** What the compiler holds (for tests: it must stay bounded however often servers re-list). */
export function inputSchemaStats(): SchemaCompilerStats {
  return compiler.stats();
}

function typeOf(value: unknown): string {
  if (value === null || value === undefined) return "nil";
  if (Array.isArray(value)) return "list";
  if (typeof value === "number") return Number.isInteger(value) ? "int" : "float";
  if (typeof value === "boolean") return "bool";
  if (typeof value === "object") return "map";
  return typeof value;
}

function pathOf(error: ErrorObject): (string | number)[] {
  const segments = error.instancePath
    .split("/")
    .slice(1)
    .map((segment) => segment.replaceAll("~1", "/").replaceAll("~0", "~"));
  return segments.map((segment) => (/^\d+$/.test(segment) ? Number(segment) : segment));
}

/** An Ajv error in the words of PTC's other argument checks (`expected string, got int`). */
function issueOf(error: ErrorObject, schema: Record<string, unknown>): StandardSchemaV1.Issue {
  const path = pathOf(error);
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case "type":
      return { path, message: `expected ${String(params.type)}, got ${typeOf(error.data)}` };
    case "required":
      return {
        path: [...path, String(params.missingProperty)],
        message: "missing (a required argument)",
      };
    case "additionalProperties": {
      const parent = isRecord(error.parentSchema) ? error.parentSchema : schema;
      const known = isRecord(parent.properties) ? Object.keys(parent.properties) : [];
      return {
        path: [...path, String(params.additionalProperty)],
        message: `not an argument of this tool${known.length > 0 ? ` (its arguments: ${known.join(", ")})` : ""}`,
      };
    }
    case "enum":
      return {
        path,
        message: `expected one of ${(params.allowedValues as unknown[]).map((item) => JSON.stringify(item)).join(", ")}, got ${JSON.stringify(error.data)}`,
      };
    default:
      return { path, message: error.message ?? `does not satisfy "${error.keyword}"` };
  }
}

/**
 * A copy of `value` with underscore keys put back to the hyphenated spelling the schema declares
 * (see the module comment), following `properties` and `items` down.
 */
function restoreDeclaredKeys(value: unknown, schema: unknown): unknown {
  if (!isRecord(schema)) return value;
  if (Array.isArray(value)) {
    return isRecord(schema.items) ? value.map((item) => restoreDeclaredKeys(item, schema.items)) : [...value];
  }
  if (!isRecord(value)) return value;
  const properties = isRecord(schema.properties) ? schema.properties : {};
  const byUnderscore = new Map<string, string>();
  for (const declared of Object.keys(properties)) {
    const underscored = declared.replaceAll("-", "_");
    if (underscored !== declared && !Object.hasOwn(properties, underscored))
      byUnderscore.set(underscored, declared);
  }
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const name = Object.hasOwn(properties, key) ? key : (byUnderscore.get(key) ?? key);
    Object.defineProperty(out, name, {
      value: restoreDeclaredKeys(item, properties[name]),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

/** The schema to check and to publish: an object schema, without `$schema` (Ajv picks the draft). */
export function normalizeInputSchema(inputSchema: unknown): JsonSchema {
  const schema: Record<string, unknown> = isRecord(inputSchema) ? { ...inputSchema } : {};
  delete schema.$schema;
  if (schema.type === undefined) schema.type = "object";
  return schema as JsonSchema;
}

/** The Standard Schema that checks a tool's arguments against its MCP `inputSchema`. */
export function schemaParameters(inputSchema: unknown): StandardSchemaV1<unknown, Record<string, unknown>> {
  const schema = normalizeInputSchema(inputSchema);
  let compiled: ValidateFunction | undefined;
  try {
    compiled = compiler.compile(schema as Record<string, unknown>).validate;
  } catch {
    // A schema Ajv cannot compile (a `$ref` to nowhere) must not take the server's other tools
    // down with it: the tool then checks only that it gets named arguments, and the server
    // judges the rest.
    compiled = undefined;
  }
  return {
    "~standard": {
      version: 1,
      vendor: "ptc-mcp-json-schema",
      validate(value: unknown): StandardSchemaV1.Result<Record<string, unknown>> {
        if (!isRecord(value)) {
          return { issues: [{ message: `expected a map of named arguments, got ${typeOf(value)}` }] };
        }
        const args = restoreDeclaredKeys(value, schema) as Record<string, unknown>;
        if (compiled === undefined || compiled(args)) return { value: args };
        return { issues: (compiled.errors ?? []).map((error) => issueOf(error, schema)) };
      },
      jsonSchema: {
        input: () => schema,
        output: () => schema,
      },
    } as StandardSchemaV1.Props<unknown, Record<string, unknown>>,
  };
}
