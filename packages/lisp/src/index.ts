/**
 * @ptc/lisp: PTC-Lisp, a safe Clojure subset for programmatic tool calling.
 *
 * `run` executes a program against host data (`data/`) and tools (`tool/`), inside limits on
 * time, iterations, memory, recursion and output; `format`/`preview`/`toJson` turn its values
 * into text for people and models, or plain data for the host.
 */

export type { CodeGeneration, CodeGenerationStatus } from "./code-generation.js";
export { codeGenerationStatus, setCodeGeneration } from "./code-generation.js";
export type { ErrorReason, LispErrorData } from "./errors.js";
export { LispError } from "./errors.js";
export type { FormatOptions, Preview, PreviewOptions } from "./format/format.js";
export { format, preview } from "./format/format.js";
export type { JsonValue, ToJsonOptions } from "./format/to-json.js";
export { toJson } from "./format/to-json.js";
export type { Form, Position } from "./reader/form.js";
export { read } from "./reader/reader.js";
export type { RunError, RunFailure, RunOptions, RunResult, RunSuccess, RunUsage } from "./run.js";
export { run } from "./run.js";
export type {
  HostTool,
  ToolArgsCheck,
  ToolCallOptions,
  ToolCallRecord,
  ToolFunction,
  ToolObject,
} from "./runtime/context.js";
export type { LedgerCall, LedgerEntry, PauseBefore } from "./runtime/ledger.js";
export type { Limits } from "./runtime/limits.js";
export { DEFAULT_LIMITS, REFERENCE_LIMITS } from "./runtime/limits.js";
export type { SessionInit } from "./session.js";
export { createSession, Session } from "./session.js";
export { capturedValues } from "./values/captured-values.js";
export { hostEquals as equals } from "./values/equality.js";
export { Keyword } from "./values/keyword.js";
export { LispMap } from "./values/lisp-map.js";
export { LispSet } from "./values/lisp-set.js";
export { WholeFloat } from "./values/numbers.js";
