/**
 * Validates the arguments of a tool call before the tool runs: with the tool's Standard Schema
 * when it has one (which may also transform them), else with its signature's parameters.
 */
import type { StandardSchemaV1 } from "@standard-schema/spec";
import { formatValidationErrors, validateInput } from "./signature/validate.js";
import type { Tool, ToolArgsValidation } from "./tool-types.js";

export type { ToolArgsValidation } from "./tool-types.js";

type Checked = Pick<Tool, "parameters" | "parsedSignature">;

export async function validateToolArgs(tool: Checked, args: unknown): Promise<ToolArgsValidation> {
  return checkToolArgs(tool, args);
}

/** `validateToolArgs`, synchronous unless the tool's Standard Schema validates asynchronously. */
export function checkToolArgs(
  tool: Checked,
  args: unknown,
): ToolArgsValidation | Promise<ToolArgsValidation> {
  if (tool.parameters !== undefined) {
    const result = tool.parameters["~standard"].validate(args);
    return result instanceof Promise ? result.then(fromStandard) : fromStandard(result);
  }
  if (tool.parsedSignature !== undefined) {
    const result = validateInput(tool.parsedSignature, args);
    if (!result.ok)
      return { ok: false, issues: result.errors, message: formatValidationErrors(result.errors) };
  }
  return { ok: true, value: args };
}

function fromStandard(result: StandardSchemaV1.Result<unknown>): ToolArgsValidation {
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

/** `Tool.validate`: one function shared by every tool, reading the tool it is called on. */
export function validateThisTool(
  this: Checked,
  args: unknown,
): ToolArgsValidation | Promise<ToolArgsValidation> {
  return checkToolArgs(this, args);
}
