/**
 * The vocabulary of tools: how a user defines one, and the one normalized `Tool` every other
 * part of the system reads.
 */
import type { StandardSchemaV1 } from "@standard-schema/spec";
import type { JsonSchema } from "./signature/json-schema.js";
import type { Signature } from "./signature/types.js";
import type { ValidationIssue } from "./signature/validate.js";

/** Arguments always arrive as a string-keyed object (PTC-Lisp keywords are already strings). */
export type ToolArgs = Record<string, unknown>;

/** What a tool receives besides its arguments. */
export interface ToolExecutionOptions {
  /** Aborts when the run is cancelled or the call overruns its `timeoutMs`: stop work early. */
  readonly signal?: AbortSignal;
  /**
   * Set only when the call runs because a person approved it (`needsApproval`, then `resume`):
   * the pending call's id, the same on every resume of the same paused state. Pass it on as an
   * idempotency key (a payment API's, a database's unique column), so that a state resumed twice
   * does its irreversible work once.
   */
  readonly approvalId?: string;
}

export type ToolFunction<Args extends ToolArgs = ToolArgs, Result = unknown> = (
  args: Args,
  options: ToolExecutionOptions,
) => Result | Promise<Result>;

/** Which layer may call a tool: the provider's native tool calling, PTC-Lisp programs, or both. */
export type ExposeLayer = "native" | "ptc_lisp" | "both";

/** A custom native preview: receives only the tool's full result, returns a JSON object. */
export type NativePreviewFunction = (fullResult: unknown) => unknown;

export type NativePreview = "metadata" | "rows" | NativePreviewFunction;

/** How a cached `expose: "both"` tool's result is previewed to the model on a native call. */
export interface NativeResultOptions {
  /** Default `"metadata"`: shape and count only, no row values. */
  readonly preview?: NativePreview;
  /** Rows shown by `preview: "rows"`. Default 20. */
  readonly limit?: number;
}

export interface ResolvedNativeResult {
  readonly preview: NativePreview;
  readonly limit: number;
}

/** The object form of a tool definition. */
export interface ToolOptions<Args extends ToolArgs = ToolArgs, Result = unknown> {
  readonly execute: ToolFunction<Args, Result>;
  /** A PTC signature: `"(query :string, limit :int?) -> [{id :int}]"`. */
  readonly signature?: string;
  /** Parameters as any Standard Schema (zod, valibot, arktype...). */
  readonly parameters?: StandardSchemaV1<unknown, Args>;
  readonly description?: string;
  /** Unset means the mode's default (see `effectiveExpose`). */
  readonly expose?: ExposeLayer;
  /** Results may be reused for calls with the same canonical arguments. Default false. */
  readonly cache?: boolean;
  /** Only with `expose: "both"` and `cache: true`. */
  readonly nativeResult?: NativeResultOptions;
  /** Milliseconds a call may take; past it the call fails (and its signal aborts). */
  readonly timeoutMs?: number;
  /** With `cache: true`: results larger than this (bytes of JSON) are not kept in an agent's cache. */
  readonly maxCachedBytes?: number;
}

/** A bare function, or the object form. */
export type ToolDefinition<Args extends ToolArgs = ToolArgs, Result = unknown> =
  | ToolFunction<Args, Result>
  | ToolOptions<Args, Result>;

/** What `Tool.validate` returns: the arguments to call the tool with, or why they do not fit. */
export type ToolArgsValidation =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly issues: readonly ValidationIssue[]; readonly message: string };

/**
 * A normalized tool. Every field is present; absent settings are `undefined`.
 *
 * `Args` and `Result` keep the types of the definition it came from (`createTools` infers them
 * per tool); `Tool` alone means any tool. It is also a tool `@ptc/lisp` accepts as it is:
 * `run(source, { tools: createTools({...}) })` checks a program's arguments with `validate`.
 */
export interface Tool<Args extends ToolArgs = ToolArgs, Result = unknown> {
  readonly name: string;
  // A method, so that a tool with specific arguments is still a `Tool` (parameters are compared
  // bivariantly); a program's arguments reach it only after `validate`.
  execute(args: Args, options: ToolExecutionOptions): Result | Promise<Result>;
  /**
   * Checks arguments before a call: against `parameters` when given (the result's `value` is
   * then the schema's output, defaults and coercions applied), else against the signature's
   * parameters. Synchronous unless the schema validates asynchronously.
   */
  validate(args: unknown): ToolArgsValidation | Promise<ToolArgsValidation>;
  /** The signature text as given, or derived from `parameters` when only those were given. */
  readonly signature: string | undefined;
  readonly parsedSignature: Signature | undefined;
  readonly description: string | undefined;
  readonly parameters: StandardSchemaV1 | undefined;
  /** The JSON Schema of the arguments, for provider-native tool definitions. */
  readonly parametersJsonSchema: JsonSchema;
  /** As declared; resolve it with `effectiveExpose`. */
  readonly expose: ExposeLayer | undefined;
  readonly cache: boolean;
  readonly nativeResult: ResolvedNativeResult | undefined;
  readonly timeoutMs: number | undefined;
  readonly maxCachedBytes: number | undefined;
}
