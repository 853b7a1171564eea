/**
 * Validates the arguments of a tool call before the tool runs: with the tool's Standard Schema
 * when it has one (which may also transform them), else with its signature's parameters.
 */
import { formatValidationErrors, type ValidationIssue, validateInput } from "./signature/validate.js";
import type { Tool } from "./tool-types.js";

export type ToolArgsValidation =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly issues: readonly ValidationIssue[]; readonly message: string };

export async function validateToolArgs(
  tool: Pick<Tool, "parameters" | "parsedSignature">,
  args: unknown,
): Promise<ToolArgsValidation> {
  if (tool.parameters !== undefined) {
    const result = await tool.parameters["~standard"].validate(args);
    if (result.issues === undefined) return { ok: true, value: result.value };
    const issues = result.issues.map((issue) => ({
      path: (issue.path ?? []).map((segment) => {
        const key = typeof segment === "object" ? segment.key : segment;
        return typeof key === "number" ? key : String(key);
      }),
      message: issue.message,
    }));
    return { ok: false, issues, message: formatValidationErrors(issues) };
  }
  if (tool.parsedSignature !== undefined) {
    const result = validateInput(tool.parsedSignature, args);
    if (!result.ok)
      return { ok: false, issues: result.errors, message: formatValidationErrors(result.errors) };
  }
  return { ok: true, value: args };
}
