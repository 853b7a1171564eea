/**
 * The validator the MCP SDK's Client checks a tool's structured content with, against the output
 * schema the server listed. The SDK's default is an Ajv with JavaScript's backtracking RegExp, so
 * a hostile server could block the host with its own schema and its own answer (`"pattern":
 * "^(a+)+$"` and 40 `a`s and a `!`). This one is the SDK's default (same options, the same
 * formats from ajv-formats, one per Client as the SDK makes it) with patterns matched in linear
 * time (see linear-regexp.ts).
 *
 * The SDK compiles every listed output schema and does not catch what throws, so a schema it
 * cannot compile fails the whole tool list. A pattern RE2 cannot run (lookahead, backreferences)
 * compiled before; rather than take the server down for it, that tool's structured content is
 * not checked, as an input schema that does not compile leaves the checking to the server.
 */
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import type {
  JsonSchemaType,
  JsonSchemaValidator,
  jsonSchemaValidator,
} from "@modelcontextprotocol/sdk/validation/types.js";
import { Ajv } from "ajv";
// ajv-formats is CommonJS: Node's default import is its module.exports, the plugin, and the
// plugin is also its own `default`, which is what TypeScript's types of the package name.
import ajvFormats from "ajv-formats";
import { linearRegExp, UnsupportedPatternError } from "../linear-regexp.js";

export function createOutputValidator(): jsonSchemaValidator {
  const ajv = new Ajv({
    strict: false,
    validateFormats: true,
    validateSchema: false,
    allErrors: true,
    code: { regExp: linearRegExp },
  });
  ajvFormats.default(ajv);
  const inner = new AjvJsonSchemaValidator(ajv);
  return {
    getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
      try {
        return inner.getValidator<T>(schema);
      } catch (error) {
        if (!(error instanceof UnsupportedPatternError)) throw error;
        return (input: unknown) => ({ valid: true, data: input as T, errorMessage: undefined });
      }
    },
  };
}
