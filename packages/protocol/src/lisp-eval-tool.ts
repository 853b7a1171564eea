/**
 * The `lisp_eval` tool as a provider sees it: its reserved name, one description per capability
 * profile, and its OpenAI-format schema. The description states capabilities only; workflow
 * advice (cache reuse, examples) belongs to the system prompt's reference card.
 */

export const LISP_EVAL_TOOL_NAME = "lisp_eval";

/**
 * `in_process_with_app_tools`: PTC-Lisp over the tool-call transport, where `lisp_eval` is the
 * only native tool. `in_process_text_mode`: combined mode, beside `"both"`-exposed native tools.
 * `mcp_no_tools`: a stand-alone server with no app tools inside programs.
 */
export type ToolProfile = "in_process_with_app_tools" | "in_process_text_mode" | "mcp_no_tools";

// Fixed wording: tests and transcripts pin these strings, so change them only deliberately.
const DESCRIPTIONS: Readonly<Record<ToolProfile, string>> = {
  in_process_with_app_tools:
    "Execute a PTC-Lisp program in PtcRunner's sandbox. Use this for deterministic computation and tool orchestration. Call app tools as `(tool/name ...)` from inside the program — do not attempt to call app tools as native function calls; only `lisp_eval` is available natively.",
  in_process_text_mode:
    "Execute a PTC-Lisp program in PtcRunner's sandbox. Use this for deterministic computation, filtering, aggregation, or multi-step data transformation. Call `:both`-exposed app tools as `(tool/name ...)` from inside the program. The same tools are also callable natively in this assistant turn, but not in the same turn as `lisp_eval`.",
  mcp_no_tools:
    "Execute a PTC-Lisp program in PtcRunner's sandbox. Use this for deterministic computation, filtering, aggregation, or multi-step data transformation. No app tools are available inside the program. Pass external data via the `context` argument; each invocation is independent — there is no memory of prior calls.",
};

const PROGRAM_DESCRIPTION =
  "PTC-Lisp source code. Must be non-empty. Call app tools as `(tool/name ...)` from inside the program.";

export interface LispEvalToolSchema {
  readonly type: "function";
  readonly function: {
    readonly name: typeof LISP_EVAL_TOOL_NAME;
    readonly description: string;
    readonly parameters: {
      readonly type: "object";
      readonly properties: { readonly program: { readonly type: "string"; readonly description: string } };
      readonly required: readonly ["program"];
      readonly additionalProperties: false;
    };
  };
}

export function toolDescription(profile: ToolProfile = "in_process_with_app_tools"): string {
  const description = DESCRIPTIONS[profile];
  if (description === undefined) throw new TypeError(`unknown lisp_eval profile: ${String(profile)}`);
  return description;
}

/** The OpenAI function-format schema; profiles differ only in the description. */
export function toolSchema(profile: ToolProfile = "in_process_with_app_tools"): LispEvalToolSchema {
  return {
    type: "function",
    function: {
      name: LISP_EVAL_TOOL_NAME,
      description: toolDescription(profile),
      parameters: {
        type: "object",
        properties: { program: { type: "string", description: PROGRAM_DESCRIPTION } },
        required: ["program"],
        additionalProperties: false,
      },
    },
  };
}
