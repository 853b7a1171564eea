/**
 * Normalizes tool definitions into `Tool`s and rejects malformed ones up front, with the messages
 * of the reference's per-tool validation, so a bad `expose`/`nativeResult` fails at setup rather
 * than in the middle of a run.
 */
import type { StandardSchemaV1 } from "@standard-schema/spec";
import { describeValue, isPlainObject } from "./describe-value.js";
import { type JsonValue, ToolError } from "./errors.js";
import { describeUnknownKeys, findUnknownKeys } from "./known-keys.js";
import { loneSurrogateIndex } from "./lone-surrogate.js";
import { fromJsonSchema, type JsonSchema, parametersJsonSchema } from "./signature/json-schema.js";
import { parseSignature } from "./signature/parse.js";
import { renderSignature } from "./signature/render.js";
import type { Signature } from "./signature/types.js";
import type {
  ExposeLayer,
  NativeResultOptions,
  ResolvedNativeResult,
  Tool,
  ToolArgs,
  ToolDefinition,
  ToolOptions,
} from "./tool-types.js";
import { validateThisTool } from "./validate-args.js";

/** A definition whose arguments may have any type; `createTools` accepts a record of them. */
// biome-ignore lint/suspicious/noExplicitAny: each tool declares its own argument type; they are checked at runtime, not here
export type AnyToolDefinition = ToolDefinition<any, unknown>;
// biome-ignore lint/suspicious/noExplicitAny: as above, for tools already normalized
type AnyTool = Tool<any, unknown>;

const EXPOSE_LAYERS: readonly unknown[] = ["native", "ptc_lisp", "both"];

/** Every key of a tool definition's object form (`ToolOptions`); anything else is a mistake. */
export const TOOL_DEFINITION_KEYS = Object.keys({
  execute: true,
  signature: true,
  parameters: true,
  description: true,
  expose: true,
  cache: true,
  nativeResult: true,
  timeoutMs: true,
  maxCachedBytes: true,
} satisfies Record<keyof ToolOptions, true>) as readonly (keyof ToolOptions)[];

const NATIVE_RESULT_KEYS = ["preview", "limit"] as const satisfies readonly (keyof NativeResultOptions)[];
const DEFAULT_ROWS_LIMIT = 20;

/** The `Tool` a definition (or an already-normalized tool) becomes, its argument types kept. */
export type ToolFrom<Definition> =
  Definition extends Tool<infer Args, infer Result>
    ? Tool<Args, Result>
    : Definition extends { readonly parameters: StandardSchemaV1<unknown, infer Args extends ToolArgs> }
      ? Tool<Args, ResultOf<Definition>>
      : Definition extends {
            readonly execute: (args: infer Args extends ToolArgs, ...rest: never[]) => unknown;
          }
        ? Tool<Args, ResultOf<Definition>>
        : Definition extends (args: infer Args extends ToolArgs, ...rest: never[]) => unknown
          ? Tool<Args, ResultOf<Definition>>
          : Tool;

type ResultOf<Definition> = Definition extends { readonly execute: (...args: never[]) => infer Result }
  ? Awaited<Result>
  : Definition extends (...args: never[]) => infer Result
    ? Awaited<Result>
    : unknown;

/** Normalizes one definition. Throws `ToolError` (`PTC_TOOL_INVALID_*`) when it is malformed. */
export function createTool<Args extends ToolArgs, Result>(
  name: string,
  definition: ToolDefinition<Args, Result>,
): Tool<Args, Result> {
  if (typeof name !== "string" || name === "") {
    throw new ToolError(
      "PTC_TOOL_INVALID_DEFINITION",
      `tool name must be a non-empty string, got ${describeValue(name)}`,
      {
        details: { option: "name" },
      },
    );
  }
  const half = loneSurrogateIndex(name);
  if (half !== -1) {
    throw new ToolError(
      "PTC_TOOL_INVALID_DEFINITION",
      `tool name ${JSON.stringify(name)} holds half of a character (a lone UTF-16 surrogate at index ${half}): no model could call it by that name, since a request holding one is refused or altered; write the name in whole characters`,
      { details: { option: "name" } },
    );
  }
  if (typeof definition === "function") {
    return {
      name,
      execute: definition,
      validate: validateThisTool,
      signature: undefined,
      parsedSignature: undefined,
      description: undefined,
      parameters: undefined,
      parametersJsonSchema: parametersJsonSchema(undefined),
      expose: undefined,
      cache: false,
      nativeResult: undefined,
      timeoutMs: undefined,
      maxCachedBytes: undefined,
    };
  }
  if (!isPlainObject(definition)) {
    throw invalid(
      name,
      "definition",
      `tool "${name}": must be a function or an object with "execute", got ${describeValue(definition)}`,
    );
  }
  // A normalized tool (a `Tool` under another name) has more fields, all of them known.
  if (!isTool(definition)) {
    const unknown = findUnknownKeys(definition, TOOL_DEFINITION_KEYS);
    if (unknown.length > 0) {
      throw new ToolError(
        "PTC_TOOL_INVALID_DEFINITION",
        `tool "${name}": ${describeUnknownKeys(unknown)}; a tool definition takes ${TOOL_DEFINITION_KEYS.join(", ")}`,
        {
          details: {
            tool: name,
            option: (unknown[0] as { key: string }).key,
            unknownKeys: unknown.map((entry) => entry.key),
            ...(unknown[0]?.suggestion === undefined ? {} : { suggestion: unknown[0].suggestion }),
          },
        },
      );
    }
  }
  const options = definition as ToolOptions<Args, Result>;
  if (typeof options.execute !== "function") {
    throw invalid(
      name,
      "execute",
      `tool "${name}": execute must be a function, got ${describeValue(options.execute)}`,
    );
  }
  if (options.description !== undefined && typeof options.description !== "string") {
    throw invalid(
      name,
      "description",
      `tool "${name}": description must be a string, got ${describeValue(options.description)}`,
    );
  }
  if (options.cache !== undefined && typeof options.cache !== "boolean") {
    throw invalid(
      name,
      "cache",
      `tool "${name}": cache must be a boolean, got ${describeValue(options.cache)}`,
    );
  }
  const cache = options.cache ?? false;
  for (const key of ["timeoutMs", "maxCachedBytes"] as const) {
    const value = options[key];
    if (value !== undefined && (typeof value !== "number" || Number.isNaN(value) || !(value > 0))) {
      throw invalid(
        name,
        key,
        `tool "${name}": ${key} must be a positive number, got ${describeValue(value)}`,
      );
    }
  }
  validateExpose(name, options.expose);
  const nativeResult = resolveNativeResult(name, options.nativeResult, options.expose, cache);

  const parameters =
    options.parameters === undefined ? undefined : checkStandardSchema(name, options.parameters);
  const schemaFromParameters = parameters === undefined ? undefined : jsonSchemaOf(name, parameters);

  let signatureText = options.signature;
  let parsedSignature: Signature | undefined;
  if (signatureText !== undefined) {
    const parsed = parseSignature(signatureText);
    if (!parsed.ok) {
      throw new ToolError(
        "PTC_TOOL_INVALID_SIGNATURE",
        `tool "${name}": invalid signature: ${parsed.error}`,
        {
          details: { tool: name, signature: describeValue(signatureText) },
        },
      );
    }
    parsedSignature = parsed.signature;
  } else if (schemaFromParameters !== undefined) {
    parsedSignature = deriveSignature(schemaFromParameters);
    signatureText = parsedSignature === undefined ? undefined : renderSignature(parsedSignature);
  }

  return {
    name,
    execute: options.execute,
    validate: validateThisTool,
    signature: signatureText,
    parsedSignature,
    description: options.description,
    parameters: parameters as StandardSchemaV1 | undefined,
    parametersJsonSchema: schemaFromParameters ?? parametersJsonSchema(parsedSignature),
    expose: options.expose,
    cache,
    nativeResult,
    timeoutMs: options.timeoutMs,
    maxCachedBytes: options.maxCachedBytes,
  };
}

/**
 * Normalizes a record of definitions, keyed and named by the record's keys. Each tool keeps its
 * own argument and result types (`tools.search.execute` takes what the definition declared).
 */
export function createTools<const Definitions extends Readonly<Record<string, AnyToolDefinition | AnyTool>>>(
  definitions: Definitions,
): { -readonly [Name in keyof Definitions]: ToolFrom<Definitions[Name]> } {
  const tools: Record<string, Tool> = {};
  for (const [name, definition] of Object.entries(definitions)) {
    const tool =
      isTool(definition) && definition.name === name
        ? definition
        : createTool(name, definition as ToolDefinition);
    Object.defineProperty(tools, name, { value: tool, enumerable: true, writable: true, configurable: true });
  }
  return tools as { -readonly [Name in keyof Definitions]: ToolFrom<Definitions[Name]> };
}

/** True for an already-normalized `Tool` (as returned by `createTool`). */
export function isTool(value: unknown): value is Tool {
  return (
    isPlainObject(value) &&
    typeof value.name === "string" &&
    typeof value.execute === "function" &&
    typeof value.cache === "boolean" &&
    isPlainObject(value.parametersJsonSchema) &&
    "parsedSignature" in value
  );
}

function validateExpose(name: string, expose: unknown): asserts expose is ExposeLayer | undefined {
  if (expose === undefined || EXPOSE_LAYERS.includes(expose)) return;
  throw invalid(
    name,
    "expose",
    `tool "${name}": invalid expose: ${describeValue(expose)} — accepted values are "native", "ptc_lisp", "both"`,
  );
}

function resolveNativeResult(
  name: string,
  nativeResult: unknown,
  expose: ExposeLayer | undefined,
  cache: boolean,
): ResolvedNativeResult | undefined {
  if (nativeResult === undefined) return undefined;
  if (!isPlainObject(nativeResult)) {
    throw invalid(
      name,
      "nativeResult",
      `tool "${name}": nativeResult: must be an object or undefined, got ${describeValue(nativeResult)}`,
    );
  }
  if (expose !== "both" || cache !== true) {
    throw invalid(
      name,
      "nativeResult",
      `tool "${name}": nativeResult: requires expose: "both" AND cache: true (got expose: ${describeValue(expose)}, cache: ${describeValue(cache)})`,
    );
  }
  const unknown = findUnknownKeys(nativeResult, NATIVE_RESULT_KEYS);
  if (unknown.length > 0) {
    throw invalid(
      name,
      "nativeResult",
      `tool "${name}": nativeResult: ${describeUnknownKeys(unknown)}; it takes ${NATIVE_RESULT_KEYS.join(", ")}`,
    );
  }
  const preview = nativeResult.preview ?? "metadata";
  // JS arity is only a hint (defaults and rest parameters lower it), so any function that does
  // not demand more than the one argument it will get is accepted.
  const previewOk =
    preview === "metadata" || preview === "rows" || (typeof preview === "function" && preview.length <= 1);
  if (!previewOk) {
    throw invalid(
      name,
      "nativeResult.preview",
      `tool "${name}": nativeResult.preview: must be "metadata", "rows", or a one-argument function, got ${describeValue(preview)}`,
    );
  }
  const limit = nativeResult.limit ?? DEFAULT_ROWS_LIMIT;
  if (typeof limit !== "number" || !Number.isInteger(limit) || limit <= 0) {
    throw invalid(
      name,
      "nativeResult.limit",
      `tool "${name}": nativeResult.limit: must be a positive integer, got ${describeValue(limit)}`,
    );
  }
  return { preview: preview as ResolvedNativeResult["preview"], limit };
}

function checkStandardSchema(name: string, schema: unknown): StandardSchemaV1 {
  const standard = (schema as { "~standard"?: unknown } | null)?.["~standard"];
  if (
    (typeof schema !== "object" && typeof schema !== "function") ||
    schema === null ||
    typeof standard !== "object" ||
    standard === null ||
    typeof (standard as { validate?: unknown }).validate !== "function"
  ) {
    throw invalid(
      name,
      "parameters",
      `tool "${name}": parameters must be a Standard Schema (zod, valibot, arktype...), got ${describeValue(schema)}`,
    );
  }
  return schema as StandardSchemaV1;
}

/**
 * The arguments' JSON Schema from a Standard Schema: through the Standard JSON Schema interface
 * when the library implements it, else zod 4's own `toJSONSchema()` method. `$schema` is dropped
 * because provider tool definitions do not expect it.
 */
function jsonSchemaOf(name: string, schema: StandardSchemaV1): JsonSchema {
  let produced: unknown;
  try {
    const converter = (schema["~standard"] as { jsonSchema?: { input?: unknown } }).jsonSchema;
    const method = (schema as { toJSONSchema?: unknown }).toJSONSchema;
    if (typeof converter?.input === "function") {
      produced = (converter.input as (options: { target: string }) => unknown)({ target: "draft-07" });
    } else if (typeof method === "function") {
      produced = (method as (params: object) => unknown).call(schema, { io: "input" });
    }
  } catch (error) {
    throw new ToolError(
      "PTC_TOOL_INVALID_SCHEMA",
      `tool "${name}": parameters: could not produce a JSON Schema: ${String(error)}`,
      {
        details: { tool: name },
        cause: error,
      },
    );
  }
  if (produced === undefined) {
    const vendor = schema["~standard"].vendor;
    throw new ToolError(
      "PTC_TOOL_INVALID_SCHEMA",
      `tool "${name}": parameters: the "${vendor}" schema offers no JSON Schema conversion (Standard JSON Schema); use a library that does, or a "signature"`,
      { details: { tool: name, vendor } },
    );
  }
  if (!isPlainObject(produced) || produced.type !== "object") {
    throw new ToolError(
      "PTC_TOOL_INVALID_SCHEMA",
      `tool "${name}": parameters must describe an object (named arguments), got JSON Schema type ${describeValue(isPlainObject(produced) ? produced.type : produced)}`,
      { details: { tool: name } },
    );
  }
  const { $schema: _ignored, ...rest } = produced;
  return rest;
}

/** A prompt signature `(a :string, b :int?) -> :any` for tools given only a schema. */
function deriveSignature(schema: JsonSchema): Signature | undefined {
  const converted = fromJsonSchema(schema, { lenient: true });
  if (!converted.ok || typeof converted.type === "string" || converted.type.kind !== "map") return undefined;
  return { params: converted.type.fields, returns: "any" };
}

function invalid(tool: string, option: string, message: string): ToolError {
  const details: Record<string, JsonValue> = { tool, option };
  return new ToolError("PTC_TOOL_INVALID_DEFINITION", message, { details });
}
