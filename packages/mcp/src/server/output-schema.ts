/**
 * `lisp_eval`'s `output_schema`: the JSON Schema a program's value must satisfy. The value is
 * turned into JSON first (keywords become strings, sets arrays), then checked; every mismatch is
 * reported with its path from `return` (`return.rows.0.id: expected integer, got string`).
 */
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import { BoundedSchemaCompiler, type SchemaCompilerStats } from "../bounded-compiler.js";
import { linearRegExp } from "../linear-regexp.js";

/** One compiler for every client: the same schema sent by many calls is compiled once. */
const compiler = new BoundedSchemaCompiler(
  (processCode) =>
    new Ajv({
      allErrors: true,
      strict: false,
      verbose: true,
      validateFormats: false,
      // A client's pattern is matched against a program's value on the server's one thread.
      code: { regExp: linearRegExp, process: processCode },
    }),
);

/** What the compiler holds (for tests: it must stay bounded however many schemas arrive). */
export function outputSchemaStats(): SchemaCompilerStats {
  return compiler.stats();
}

export type CompiledOutputSchema =
  | { readonly ok: true; readonly check: (value: unknown) => string | undefined }
  | { readonly ok: false; readonly message: string };

function typeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

function describeError(error: ErrorObject): string {
  const path = ["return", ...error.instancePath.split("/").slice(1)].join(".");
  const params = error.params as Record<string, unknown>;
  if (error.keyword === "type") return `${path}: expected ${String(params.type)}, got ${typeOf(error.data)}`;
  if (error.keyword === "required") return `${path}.${String(params.missingProperty)}: missing`;
  return `${path}: ${error.message ?? `does not satisfy "${error.keyword}"`}`;
}

export function compileOutputSchema(schema: Record<string, unknown>): CompiledOutputSchema {
  const { $schema: _ignored, ...rest } = schema;
  let validate: ValidateFunction;
  try {
    validate = compiler.compile(rest).validate;
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
  return {
    ok: true,
    check(value) {
      if (validate(value)) return undefined;
      return (validate.errors ?? []).map(describeError).join("; ");
    },
  };
}
