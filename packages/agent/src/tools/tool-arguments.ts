/**
 * The check every tool call passes before anything else happens to it (the run's cache, the tool
 * itself): `tool.validate`, @ptc/tool's one check of a tool's schema or signature, the same one
 * @ptc/lisp's `run` applies to a program's calls. A native call is checked here; a program's call
 * is checked by @ptc/lisp itself (execute-program.ts hands it `tool.validate`), so that its error
 * is exactly the one `run` gives.
 *
 * A call that passes is made with what the check returns when that is an object (a Standard
 * Schema's output: defaults filled in, coercions and transforms applied), else with the arguments
 * as sent; `run` does the same. Nothing here may let a rejected call reach `execute` or the cache.
 */
import { renderType, type Signature, type Tool } from "@ptc/tool";
import { errorMessage } from "../error-message.js";
import { argsReceived } from "../json/quoted-back.js";

export type CheckedArguments =
  | { readonly ok: true; readonly args: Readonly<Record<string, unknown>> }
  /** `invalid`: the model's arguments do not fit; `error`: the check itself failed (a host bug). */
  | { readonly ok: false; readonly kind: "invalid" | "error"; readonly message: string };

export async function checkToolArguments(
  tool: Tool,
  args: Readonly<Record<string, unknown>>,
): Promise<CheckedArguments> {
  let result: Awaited<ReturnType<Tool["validate"]>>;
  try {
    result = await tool.validate(args);
  } catch (error) {
    return {
      ok: false,
      kind: "error",
      message: `checking the arguments of tool "${tool.name}" failed: ${errorMessage(error)}`,
    };
  }
  if (!result.ok) return { ok: false, kind: "invalid", message: result.message };
  return { ok: true, args: callArguments(result.value, args) };
}

/** The check's output when it is an object, else the arguments as sent (as @ptc/lisp's `run` does). */
function callArguments(
  value: unknown,
  args: Readonly<Record<string, unknown>>,
): Readonly<Record<string, unknown>> {
  return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : args;
}

/**
 * The tool message a native call with arguments that do not fit gets: what is wrong with which
 * parameter, and the parameters to send instead, in JSON terms.
 */
export function invalidArgumentsJson(tool: Tool, args: unknown, message: string): string {
  const expected = expectedArguments(tool.parsedSignature);
  return JSON.stringify({
    error: `invalid arguments for tool ${tool.name}: ${message}`,
    tool: tool.name,
    args_received: argsReceived(args),
    hint:
      expected === undefined
        ? `Call ${tool.name} again with arguments that fit its parameter schema.`
        : `Call ${tool.name} again with arguments of these types: ${expected}`,
  });
}

/** `{"id": int, "limit": int (optional)}`; undefined when the tool has no signature to show. */
function expectedArguments(signature: Signature | undefined): string | undefined {
  if (signature === undefined) return undefined;
  if (signature.params.length === 0) return "{} (no arguments)";
  const fields = signature.params.map(({ name, type }) => {
    const optional = typeof type === "object" && type.kind === "optional";
    const shown = renderType(optional ? type.type : type).replaceAll(":", "");
    return `${JSON.stringify(name)}: ${shown}${optional ? " (optional)" : ""}`;
  });
  return `{${fields.join(", ")}}`;
}
