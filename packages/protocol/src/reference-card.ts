/**
 * The compact PTC-Lisp reference card that combined-mode agents append to their system prompt,
 * plus the `<ptc_tools>` inventory of tools a program may call. The card is there even when no
 * tool is program-callable: `lisp_eval` is still useful for computation, and a model that has
 * never seen the language writes it badly.
 *
 * The example at its end calls one of the app's own program-callable tools (or none, when no tool
 * is program-callable), so a model is never shown a tool it does not have: one that returns a
 * list when there is one, since the example counts rows.
 *
 * Budget: at most 300 tokens (o200k) without the inventory, and 2,200 bytes (tests hold both),
 * since every request of a combined-mode run carries it.
 */
import {
  type AgentOutput,
  effectiveExpose,
  filterByExpose,
  type PtcTransport,
  parseSignature,
  renderType,
  type SignatureType,
  type Tool,
  toLispKey,
} from "@ptc/tool";
import { ProtocolError } from "./errors.js";
import type { ToolCollection } from "./request-tools.js";

export const REFERENCE_CARD_MAX_BYTES = 2200;

// Every token here is sent with every request of a combined-mode run, so the card is terse: names
// without backticks (each backtick is a token of its own), one line per topic, one example.
const CARD_TEXT = `lisp_eval runs a PTC-Lisp \`program\` (a safe Clojure subset): the last form's value is the result; (return v) ends early, (fail v) fails.
Forms: def defn (let [x 1] ...) (fn [x] ...) #(... %) if when cond loop/recur map filter reduce group-by sort-by count get get-in; strings, regex, math, sets #{1 2}; str/join set/union json/parse-string json/generate-string Double/parseDouble LocalDate/parse. Inspect with keys, println, pr-str. Literals: nil true false. None of: let* lambda equal? length ns require import macros atoms futures try/catch, lazy seqs, files, network.
Context data is data/orders, not (data/orders) or orders. Read fields as (:status row), call tools as (tool/name {:key value}).
Cache reuse: when a native tool result says full_result_cached: true, the same call with the same arguments in a program reads the cached full result; the tool does not run again.`;

/** The example when no tool is program-callable: computation alone. */
const COMPUTATION_EXAMPLE = `(def orders [{:total 30} {:total 120.5}])
(return {:big (count (filter #(> (:total %) 100) orders)) :sum (reduce + (map :total orders))})`;

function card(example: string): string {
  return `<ptc_lisp_reference>\n${CARD_TEXT}\n\`\`\`\n${example}\n\`\`\`\n</ptc_lisp_reference>`;
}

/** The card as sent when no tool is program-callable; with tools, its example calls one of them. */
export const COMPACT_REFERENCE_CARD = card(COMPUTATION_EXAMPLE);

/** How many required parameters the example fills in (the card has a byte budget). */
const MAX_EXAMPLE_ARGUMENTS = 2;

function sampleValue(type: SignatureType): string {
  if (typeof type !== "string") return type.kind === "list" ? "[]" : type.kind === "map" ? "{}" : "nil";
  switch (type) {
    case "string":
      return '"..."';
    case "int":
      return "10";
    case "float":
      return "1.5";
    case "bool":
      return "true";
    case "keyword":
      return ":all";
    case "datetime":
      return '"2024-01-01T00:00:00Z"';
    case "map":
      return "{}";
    default:
      return "nil";
  }
}

/** `{:query "..."}` from the signature's required parameters; `{}` without a signature. */
function exampleArguments(signature: string | undefined): string {
  if (signature === undefined || signature === "") return "{}";
  const parsed = parseSignature(signature);
  if (!parsed.ok) return "{}";
  const required = parsed.signature.params.filter(
    (param) => typeof param.type === "string" || param.type.kind !== "optional",
  );
  const entries = required
    .slice(0, MAX_EXAMPLE_ARGUMENTS)
    .map((param) => `:${toLispKey(param.name)} ${sampleValue(param.type)}`);
  return `{${entries.join(" ")}}`;
}

function toolExample(tool: InventoryTool): string {
  const call = `(tool/${tool.name} ${exampleArguments(tool.signature)})`;
  if (exampleReturns(tool) === "other") {
    return [`(def result ${call})`, '(println "result:" result)', "(return result)"].join("\n");
  }
  return [`(def rows ${call})`, "(return {:total (count rows) :first (first rows)})"].join("\n");
}

/**
 * What the signature says a tool returns, for the example: counting rows is only shown for a tool
 * that returns a list (or may: one without a signature), never for one that returns a map.
 */
function exampleReturns(tool: InventoryTool): "list" | "unknown" | "other" {
  if (tool.signature === undefined || tool.signature === "") return "unknown";
  const parsed = parseSignature(tool.signature);
  if (!parsed.ok) return "unknown";
  const returns = parsed.signature.returns;
  if (typeof returns !== "string") return returns.kind === "list" ? "list" : "other";
  return returns === "any" ? "unknown" : "other";
}

const EXAMPLE_PREFERENCE = { list: 0, unknown: 1, other: 2 } as const;

/** The tool the example calls: one returning a list if there is one, then by name. */
function exampleTool(callable: readonly InventoryTool[]): InventoryTool | undefined {
  let best: InventoryTool | undefined;
  for (const tool of callable) {
    if (
      best === undefined ||
      EXAMPLE_PREFERENCE[exampleReturns(tool)] < EXAMPLE_PREFERENCE[exampleReturns(best)]
    )
      best = tool;
  }
  return best;
}

export interface ReferenceCardDefinition {
  readonly output?: AgentOutput | undefined;
  readonly ptcTransport?: PtcTransport | undefined;
  /** Only `"compact"` exists. Default `"compact"`. */
  readonly ptcReference?: "compact" | undefined;
  readonly tools?: ToolCollection | undefined;
}

type InventoryTool = Pick<Tool, "name" | "expose"> & {
  readonly signature?: string | undefined;
  readonly description?: string | undefined;
};

type InventoryTools =
  | readonly InventoryTool[]
  | Readonly<Record<string, InventoryTool>>
  | ReadonlyMap<string, InventoryTool>;

function programCallable(
  tools: InventoryTools,
  mode: { readonly output?: AgentOutput | undefined; readonly ptcTransport?: PtcTransport | undefined },
): InventoryTool[] {
  return filterByExpose(tools, mode, ["ptc_lisp", "both"]).sort((a, b) =>
    a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
  );
}

/**
 * The tools a combined-mode program may call (effective expose `"ptc_lisp"` or `"both"`), one
 * line each, sorted by name; `""` when there are none. The card above already teaches the call
 * shape, so the section has no header of its own. A program-only tool's line gives its signature
 * and description. A tool that is also native (`"both"`) gives only what its native schema in the
 * request's `tools` lacks: the return type, which a program needs to read the result. This text
 * is sent with every request.
 */
export function renderPtcToolsSection(
  tools: InventoryTools,
  mode: { readonly output?: AgentOutput | undefined; readonly ptcTransport?: PtcTransport | undefined } = {
    output: "text",
    ptcTransport: "tool_call",
  },
): string {
  const callable = programCallable(tools, mode);
  if (callable.length === 0) return "";
  const lines = callable.map((tool) => {
    const native = effectiveExpose(tool, mode) === "both";
    let line = `- tool/${tool.name}`;
    if (native) {
      const returns = returnsPart(tool.signature);
      return returns === undefined ? line : `${line} ${returns}`;
    }
    if (tool.signature !== undefined && tool.signature !== "") line += ` ${tool.signature}`;
    if (tool.description !== undefined && tool.description !== "") line += ` — ${tool.description}`;
    return line;
  });
  return `<ptc_tools>\n${lines.join("\n")}\n</ptc_tools>`;
}

/**
 * `-> <return type>` in the signature's own syntax; `undefined` without a signature or when it
 * says no more than `:any`. An unparsable signature is shown whole: it is all there is.
 */
function returnsPart(signature: string | undefined): string | undefined {
  if (signature === undefined || signature === "") return undefined;
  const parsed = parseSignature(signature);
  if (!parsed.ok) return signature;
  const { returns } = parsed.signature;
  return returns === "any" ? undefined : `-> ${renderType(returns)}`;
}

/**
 * The card plus the tool inventory for a combined-mode agent (`output: "text"` with
 * `ptcTransport: "tool_call"`); `undefined` for every other mode. The card's example calls a
 * program-callable tool (a list-returning one first, then by name), with its signature's required
 * parameters.
 */
export function combinedModeReferenceCard(definition: ReferenceCardDefinition): string | undefined {
  if (definition.output !== "text" || definition.ptcTransport !== "tool_call") return undefined;
  const reference = definition.ptcReference ?? "compact";
  if (reference !== "compact") {
    throw new ProtocolError(
      "PTC_PROTOCOL_UNSUPPORTED_REFERENCE",
      `ptcReference must be "compact", got ${JSON.stringify(reference)}`,
      {
        details: { ptcReference: String(reference) },
      },
    );
  }
  const tools = definition.tools ?? [];
  const example = exampleTool(programCallable(tools, definition));
  if (example === undefined) return COMPACT_REFERENCE_CARD;
  return `${card(toolExample(example))}\n\n${renderPtcToolsSection(tools, definition)}`;
}
