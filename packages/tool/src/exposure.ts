/**
 * Which layer may call a tool. A tool's own `expose` wins; without one, the agent's mode decides:
 * `output: "ptc_lisp"` (any transport) makes tools program-callable, `output: "text"` (pure or
 * combined) makes them native. Combined mode deliberately does not promote tools to programs:
 * a tool must say `"both"` or `"ptc_lisp"` to be callable as `(tool/name ...)` there.
 *
 * Pure functions; enforcing the result is the agent's job.
 */
import { describeValue } from "./describe-value.js";
import { ToolError } from "./errors.js";
import type { ExposeLayer } from "./tool-types.js";

export type AgentOutput = "text" | "ptc_lisp";
export type PtcTransport = "content" | "tool_call";

/** The parts of an agent definition the policy reads; an agent definition itself fits. */
export interface ExposeMode {
  /** Default `"ptc_lisp"`, the agent's default output. */
  readonly output?: AgentOutput | undefined;
  readonly ptcTransport?: PtcTransport | undefined;
}

/** Anything with a name and an optional `expose`, such as a `Tool`. */
export interface Exposable {
  readonly name: string;
  readonly expose?: ExposeLayer | undefined;
}

const LAYERS: readonly ExposeLayer[] = ["native", "ptc_lisp", "both"];

/** The layer used when a tool declares none. */
export function defaultExpose(mode: ExposeMode): ExposeLayer {
  const output = mode.output ?? "ptc_lisp";
  if (output === "ptc_lisp") return "ptc_lisp";
  if (output === "text") return "native";
  throw new ToolError(
    "PTC_TOOL_INVALID_MODE",
    `output must be "ptc_lisp" or "text", got ${describeValue(output)}`,
    {
      details: { option: "output" },
    },
  );
}

export function effectiveExpose(
  tool: { readonly expose?: ExposeLayer | undefined },
  mode: ExposeMode,
): ExposeLayer {
  const expose = tool.expose;
  if (expose === undefined || expose === null) return defaultExpose(mode);
  if (LAYERS.includes(expose)) return expose;
  throw new ToolError(
    "PTC_TOOL_INVALID_DEFINITION",
    `invalid expose: ${describeValue(expose)} — accepted values are "native", "ptc_lisp", "both"`,
    { details: { option: "expose" } },
  );
}

/**
 * The tools whose effective layer is in `allowed`. An array keeps its order; a record or `Map`
 * becomes an array sorted by key, so prompts and requests built from it are deterministic.
 */
export function filterByExpose<T extends Exposable>(
  tools: readonly T[] | Readonly<Record<string, T>> | ReadonlyMap<string, T>,
  mode: ExposeMode,
  allowed: Iterable<ExposeLayer>,
): T[] {
  const allowedSet = new Set(allowed);
  return orderedTools(tools).filter((tool) => allowedSet.has(effectiveExpose(tool, mode)));
}

/** Arrays as they are; keyed collections sorted by key (code-unit order). */
export function orderedTools<T>(
  tools: readonly T[] | Readonly<Record<string, T>> | ReadonlyMap<string, T>,
): T[] {
  if (Array.isArray(tools)) return [...(tools as readonly T[])];
  const entries =
    tools instanceof Map ? [...tools.entries()] : Object.entries(tools as Readonly<Record<string, T>>);
  return entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, tool]) => tool);
}
