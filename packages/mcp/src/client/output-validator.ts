/**
 * The validator the MCP SDK's Client checks a tool's structured content with, against the output
 * schema the server listed. The SDK's default is an Ajv with JavaScript's backtracking RegExp, so
 * a hostile server could block the host with its own schema and its own answer (`"pattern":
 * "^(a+)+$"` and 40 `a`s and a `!`). This one gives the SDK default's answers (same Ajv options,
 * the same formats from ajv-formats, the same error text, one per Client as the SDK makes it)
 * with patterns matched in linear time (see linear-regexp.ts).
 *
 * The SDK compiles every output schema each time the tools are listed, into an Ajv that keeps
 * them all; a server that re-lists after every list_changed, with new schemas each time, would
 * grow the host without end. Schemas are compiled through a BoundedSchemaCompiler instead (see
 * bounded-compiler.ts), which also means an `$id` seen before does not fetch the schema first
 * compiled under it: each listing's schema is the one that checks.
 *
 * The SDK compiles every listed output schema and does not catch what throws, so a schema it
 * cannot compile fails the whole tool list. A pattern RE2 cannot run (lookahead, backreferences)
 * compiled before; rather than take the server down for it, that tool's structured content is
 * not checked, as an input schema that does not compile leaves the checking to the server.
 *
 * The SDK compiles while it reads a page of `tools/list`, synchronously, before the connection
 * has had a chance to load RE2 (linear-regexp.ts). A schema with a pattern met then is compiled
 * at its first check instead; the connection loads RE2 once the whole list is read and hands the
 * SDK every tool again (connection.ts), so by the time any tool can be called it is loaded.
 */
import type {
  JsonSchemaType,
  JsonSchemaValidator,
  jsonSchemaValidator,
} from "@modelcontextprotocol/sdk/validation/types.js";
import { Ajv } from "ajv";
// ajv-formats is CommonJS: Node's default import is its module.exports, the plugin, and the
// plugin is also its own `default`, which is what TypeScript's types of the package name.
import ajvFormats from "ajv-formats";
import { BoundedSchemaCompiler, type SchemaCompilerStats } from "../bounded-compiler.js";
import { linearRegExp, linearRegExpLoaded, UnsupportedPatternError, usesPatterns } from "../linear-regexp.js";

export interface OutputValidator extends jsonSchemaValidator {
  /** What its compiler holds (for tests: it must stay bounded however often a server re-lists). */
  stats(): SchemaCompilerStats;
}

export function createOutputValidator(): OutputValidator {
  const compiler = new BoundedSchemaCompiler((processCode) => {
    const ajv = new Ajv({
      strict: false,
      validateFormats: true,
      validateSchema: false,
      allErrors: true,
      code: { regExp: linearRegExp, process: processCode },
    });
    ajvFormats.default(ajv);
    return ajv;
  });

  function compile<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    let compiled: ReturnType<BoundedSchemaCompiler["compile"]>;
    try {
      compiled = compiler.compile(schema as Record<string, unknown>);
    } catch (error) {
      if (!(error instanceof UnsupportedPatternError)) throw error;
      return (input: unknown) => ({ valid: true, data: input as T, errorMessage: undefined });
    }
    const { validate, ajv } = compiled;
    return (input: unknown) =>
      validate(input)
        ? { valid: true, data: input as T, errorMessage: undefined }
        : { valid: false, data: undefined, errorMessage: ajv.errorsText(validate.errors) };
  }

  return {
    stats: () => compiler.stats(),
    getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
      if (linearRegExpLoaded() || !usesPatterns(schema)) return compile<T>(schema);
      let compiled: JsonSchemaValidator<T> | undefined;
      return (input: unknown) => {
        compiled ??= compile<T>(schema);
        return compiled(input);
      };
    },
  };
}
