/**
 * Which tool calls need a person's approval before they run. A tool declares it with
 * `needsApproval`: `true`, or a function of the call's arguments (and its context) that may be
 * async. The policy is kept beside the normalized tool (a `Tool` from @ptc/tool has no field for
 * it) and asked before every call that would run the tool, from any layer.
 *
 * It fails closed: anything but `false` from the function (a throw, a rejection, `undefined`)
 * means the call waits for a person, never that it runs unchecked.
 */
import type { Tool } from "@ptc/tool";
import type { ExposureLayer } from "../step/step-types.js";

/** What a `needsApproval` function learns about the call besides its arguments. */
export interface ApprovalContext {
  readonly toolName: string;
  /** Who makes the call: the model natively, or a program. */
  readonly layer: ExposureLayer;
  /** The turn the call is made in. */
  readonly turn: number;
  /** The run's context (the data under `data/`). */
  readonly context: Readonly<Record<string, unknown>>;
  readonly agentName: string | undefined;
}

/**
 * A tool's approval policy: `true` (every call), or a function deciding per call with the
 * arguments the tool would receive (after its schema or signature check).
 */
export type NeedsApproval =
  | boolean
  // biome-ignore lint/suspicious/noExplicitAny: each tool declares its own argument type, as its execute does
  | ((args: any, context: ApprovalContext) => boolean | Promise<boolean>);

const policies = new WeakMap<Tool, Exclude<NeedsApproval, false>>();

/** Keeps a tool's policy (createAgent calls it for every tool that declares one). */
export function registerApprovalPolicy(tool: Tool, policy: NeedsApproval): void {
  if (policy !== false) policies.set(tool, policy);
}

export function hasApprovalPolicy(tool: Tool): boolean {
  return policies.has(tool);
}

/** Whether this call of `tool` must wait for a person. Never rejects. */
export async function callNeedsApproval(
  tool: Tool,
  args: Readonly<Record<string, unknown>>,
  context: ApprovalContext,
): Promise<boolean> {
  const policy = policies.get(tool);
  if (policy === undefined) return false;
  if (policy === true) return true;
  try {
    return (await policy(args, context)) !== false;
  } catch {
    // A policy that cannot decide leaves the decision to a person.
    return true;
  }
}

/** Why a gated call of an agent called as a tool did not run. */
export function unpausableMessage(toolName: string): string {
  return `tool ${toolName} needs approval, and an agent called as a tool cannot pause for it: the call did not run. Give the tool to the top-level agent instead`;
}
