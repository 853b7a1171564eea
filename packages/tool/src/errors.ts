/**
 * The one error class of @ptc/tool. It is thrown only for programmer misuse (a malformed tool
 * definition, a signature that does not parse, a value no cache key can describe); outcomes a
 * caller expects to handle, such as a value failing validation, come back as result objects.
 */

/** A value that survives `JSON.stringify` unchanged, so `details` can be logged or sent anywhere. */
export type JsonValue =
  | string
  | number
  | boolean
  | null
  | readonly JsonValue[]
  | { readonly [key: string]: JsonValue };

/** Stable codes: match on these, never on message text. */
export type ToolErrorCode =
  | "PTC_TOOL_INVALID_DEFINITION"
  | "PTC_TOOL_INVALID_SIGNATURE"
  | "PTC_TOOL_INVALID_SCHEMA"
  | "PTC_TOOL_INVALID_MODE"
  | "PTC_TOOL_UNKEYABLE_VALUE";

export interface ToolErrorOptions {
  readonly details?: Readonly<Record<string, JsonValue>>;
  readonly cause?: unknown;
}

export class ToolError extends Error {
  override readonly name = "ToolError";
  readonly code: ToolErrorCode;
  readonly details: Readonly<Record<string, JsonValue>>;

  constructor(code: ToolErrorCode, message: string, options: ToolErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.details = options.details ?? {};
  }
}

export function isToolError(value: unknown): value is ToolError {
  return value instanceof ToolError;
}
