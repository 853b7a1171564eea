/**
 * One `lisp_eval` (or `lisp_session_eval`) call: check the arguments, run the program with the
 * server's limits and the client's tools, and render the outcome as `@ptc/protocol` renders it
 * for a model (`{"status": "ok", "result": "user=> ...", ...}` or `{"status": "error", ...}`).
 *
 * It never throws for anything a client sends: every problem is a rendered `args_error`.
 */
import { format, type Limits, run, type Session } from "@ptc/lisp";
import {
  buildExecutionFeedback,
  classifyErrorReason,
  renderError,
  renderSuccess,
  renderSuccessFromStep,
  validateProgram,
} from "@ptc/protocol";
import type { Tool } from "@ptc/tool";
import { prepareForPatterns } from "../linear-regexp.js";
import { compileOutputSchema } from "./output-schema.js";
import { outputSchemaOverLimits } from "./schema-limits.js";
import { schemaValue } from "./schema-value.js";
import { jsonBytes } from "./shared-cache.js";

export interface EvalLimits {
  /** Program limits (time, memory, program size...), as `@ptc/lisp`'s `run` takes them. */
  readonly program: Partial<Limits>;
  /** Largest `context`, in bytes of JSON. */
  readonly maxContextBytes: number;
  /** Largest program, in UTF-8 bytes. */
  readonly maxProgramBytes: number;
}

export interface EvalOutcome {
  readonly ok: boolean;
  /** The rendered payload: JSON text, what the client's model reads. */
  readonly text: string;
  /** The run's `def`s were kept (sessions commit only then). */
  readonly committed: boolean;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function describeType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

function argsError(message: string): EvalOutcome {
  return { ok: false, text: renderError("args_error", message), committed: false };
}

export async function evaluateProgram(
  args: Record<string, unknown>,
  tools: ReadonlyMap<string, Tool>,
  limits: EvalLimits,
  options: { readonly session?: Session; readonly signal?: AbortSignal } = {},
): Promise<EvalOutcome> {
  const checked = validateProgram(args.program);
  if (!checked.ok) return argsError(checked.message);
  const programBytes = Buffer.byteLength(checked.program);
  if (programBytes > limits.maxProgramBytes) {
    return argsError(
      `lisp_eval \`program\` is ${programBytes} bytes, over the limit of ${limits.maxProgramBytes}; send a shorter program and pass data through \`context\``,
    );
  }
  const context = args.context ?? {};
  if (!isRecord(context)) {
    return argsError(`lisp_eval \`context\` must be a JSON object, got ${describeType(context)}`);
  }
  const contextBytes = jsonBytes(context);
  // jsonBytes gives Infinity when JSON cannot write the value: for data that came as JSON, only
  // nesting deeper than the writer's stack goes (or, from a client in the same process, a cycle).
  if (contextBytes === Number.POSITIVE_INFINITY) {
    return argsError(
      "lisp_eval `context` cannot be written back as JSON: it is nested too deeply (or not plain JSON data); pass flatter data",
    );
  }
  if (contextBytes > limits.maxContextBytes) {
    return argsError(
      `lisp_eval \`context\` is ${contextBytes} bytes of JSON, over the limit of ${limits.maxContextBytes}; pass less data, or let the program fetch it with a tool`,
    );
  }
  for (const key of Object.keys(context)) {
    if (key === "" || key.includes("/")) {
      return argsError(
        `lisp_eval \`context\` keys must be non-empty and without "/" (each becomes data/<key>), got ${JSON.stringify(key)}`,
      );
    }
  }
  let check: ((value: unknown) => string | undefined) | undefined;
  if (args.output_schema !== undefined && args.output_schema !== null) {
    if (!isRecord(args.output_schema)) {
      return argsError(
        `lisp_eval \`output_schema\` must be a JSON Schema object, got ${describeType(args.output_schema)}`,
      );
    }
    const overLimits = outputSchemaOverLimits(args.output_schema);
    if (overLimits !== undefined) return argsError(`lisp_eval \`output_schema\` is too large: ${overLimits}`);
    // RE2 is loaded before a schema with a pattern is compiled (see linear-regexp.ts).
    await prepareForPatterns(args.output_schema);
    const compiled = compileOutputSchema(args.output_schema);
    if (!compiled.ok)
      return argsError(`lisp_eval \`output_schema\` is not a valid JSON Schema: ${compiled.message}`);
    check = compiled.check;
  }

  const previousMemory = options.session?.bindings();
  const result = await run(checked.program, {
    context,
    tools,
    limits: limits.program,
    ...(options.session === undefined ? {} : { session: options.session }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
  if (!result.ok) {
    if (result.error.reason === "fail") {
      const text = format(result.error.value);
      return {
        ok: false,
        text: renderError("fail", text, { result: text, feedback: text }),
        committed: false,
      };
    }
    return {
      ok: false,
      text: renderError(classifyErrorReason(result.error.reason), result.error.message),
      committed: false,
    };
  }
  const render = (validated?: { value: unknown }) => {
    const step = { value: result.value, prints: result.prints };
    const extra = validated === undefined ? {} : { validated: validated.value };
    if (options.session === undefined) return renderSuccessFromStep(step, extra);
    // In a session the model also reads what its defs changed, as an agent's multi-turn feedback.
    const withMemory = { ...step, memory: options.session.bindings() };
    const execution = buildExecutionFeedback(withMemory, { previousMemory, maxTurns: 2 });
    return renderSuccess(withMemory, { execution, includeMemory: true, ...extra });
  };
  if (check !== undefined) {
    const encoded = schemaValue(result.value);
    if (!encoded.ok) {
      return {
        ok: false,
        text: renderError("validation_error", `validated value: ${encoded.reason}`),
        committed: true,
      };
    }
    const json = encoded.json;
    const problem = check(json);
    if (problem !== undefined) {
      return {
        ok: false,
        text: renderError(
          "validation_error",
          `${problem}. The program's value does not match output_schema; change the program so that it returns that shape`,
        ),
        // The program itself succeeded: a session keeps its defs, as the model may fix the shape next.
        committed: true,
      };
    }
    return { ok: true, text: render({ value: json }), committed: true };
  }
  return { ok: true, text: render(), committed: true };
}
