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

// Fixed wording: tests and transcripts pin these strings, so change them only deliberately. They
// are sent with every request, so they say only what the schema needs to; the reference card in
// the system prompt teaches the language.
const DESCRIPTIONS: Readonly<Record<ToolProfile, string>> = {
  in_process_with_app_tools:
    "Run a PTC-Lisp program. Call app tools inside it as (tool/name {...}); only lisp_eval is native.",
  // The card in the system prompt already says how programs call tools; what only the schema can
  // say is that lisp_eval goes alone (a turn mixing it with native calls is rejected).
  in_process_text_mode: "Run a PTC-Lisp program. Call no other tool in the same turn.",
  mcp_no_tools:
    "Run a PTC-Lisp program for exact computation over data. No app tools inside; pass data in `context`. Each call is independent.",
};

const PROGRAM_DESCRIPTION = "PTC-Lisp source";

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
