/**
 * The scripted model of the demo: a realistic combined-mode conversation, replayed over the real
 * tools and the real sandbox. Only the model's moves are fixed; every figure in its answer is read
 * from what came back (the preview's cache hint, the program's value, the owner lookup), so the
 * answer is right only if the tools, the cache bridge and the program really worked.
 */
import type { ModelRequest } from "@ptc/agent";
import type { ScriptedStep } from "@ptc/agent/testing";
import type { LispData } from "../conversation/read-lisp-value.js";
import { cachedCall, lispResult, toolJson } from "../conversation/tool-results.js";

export interface TriageFigures {
  readonly total: number;
  readonly topServices: readonly { readonly service: string; readonly errors: number }[];
}

/** The program the model writes once the preview says the rows are cached. */
export function triageProgram(searchCall: string): string {
  return [
    `(let [rows (${searchCall.slice(1, -1)})`,
    "      by-service (->> rows (map :service) frequencies (sort-by val >))]",
    "  (return {:total (count rows)",
    "           :top-services (->> by-service",
    "                              (take 3)",
    "                              (mapv (fn [[service n]] {:service service :errors n})))}))",
  ].join("\n");
}

export function readTriageFigures(value: LispData): TriageFigures {
  const map = value as { total?: unknown; "top-services"?: unknown };
  const top = map["top-services"];
  if (typeof map.total !== "number" || !Array.isArray(top)) {
    throw new Error(`the program's value has no :total and :top-services: ${JSON.stringify(value)}`);
  }
  return {
    total: map.total,
    topServices: top.map((entry) => {
      const { service, errors } = entry as { service?: unknown; errors?: unknown };
      return { service: String(service), errors: Number(errors) };
    }),
  };
}

export function triageSteps(): ScriptedStep[] {
  return [
    // Turn 1: search natively; the model will see only a preview.
    {
      content: "",
      toolCalls: [{ id: "call_1", name: "search_logs", args: { query: "error code 42", since: "1h" } }],
    },
    // Turn 2: the preview says the full result is cached; count it exactly with a program.
    (request: ModelRequest) => ({
      content: "",
      toolCalls: [
        {
          id: "call_2",
          name: "lisp_eval",
          args: { program: triageProgram(cachedCall(request, "search_logs")) },
        },
      ],
    }),
    // Turn 3: find who owns the service with the most errors.
    (request: ModelRequest) => {
      const top = readTriageFigures(lispResult(request)).topServices[0];
      if (top === undefined) return "There were no errors with code 42 in the last hour.";
      return {
        content: "",
        toolCalls: [{ id: "call_3", name: "get_service_owner", args: { service: top.service } }],
      };
    },
    // Turn 4: the answer, written from the program's value and the owner lookup.
    (request: ModelRequest) => triageAnswer(request),
  ];
}

function triageAnswer(request: ModelRequest): string {
  const figures = readTriageFigures(lispResult(request));
  const owner = toolJson(request, "get_service_owner") as {
    service?: string;
    team?: string;
    oncall?: string;
    slack?: string;
  };
  const services = figures.topServices.map((entry) => `${entry.service} (${entry.errors})`);
  const listed =
    services.length > 1 ? `${services.slice(0, -1).join(", ")} and ${services.at(-1)}` : (services[0] ?? "");
  return [
    `There were ${figures.total} errors with code 42 in the last hour.`,
    `The services with the most were ${listed}.`,
    `${owner.service} is owned by ${owner.team}; ${owner.oncall} is on call (${owner.slack}).`,
  ].join(" ");
}
