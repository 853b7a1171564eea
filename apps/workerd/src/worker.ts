/**
 * A Cloudflare Worker (module syntax) over the @ptc packages, bundled from their packed tarballs
 * and run in workerd, where code generation from strings is forbidden and there is no Node:
 *
 *   POST /lisp   { program, context?, tools?, limits?, codeGeneration? } -> the run's outcome
 *   POST /agent  { prompt, program }  -> one PTC-Lisp agent run whose scripted model writes `program`
 *
 * `tools` maps a tool name to the JSON its calls return. `codeGeneration: "off"` switches code
 * generation off before the run, as a host that knows its platform would; without it the package
 * finds out by itself. Every outcome says what `codeGenerationStatus()` answered after the run.
 */
import { createAgent, run as runAgent } from "@ptc/agent";
import { createScriptedModel } from "@ptc/agent/testing";
import { codeGenerationStatus, format, type RunResult, run, setCodeGeneration, toJson } from "@ptc/lisp";

interface LispRequest {
  readonly program: string;
  readonly context?: Record<string, unknown>;
  readonly tools?: Record<string, unknown>;
  readonly limits?: Record<string, number>;
  readonly codeGeneration?: "auto" | "off";
}

interface AgentRequest {
  readonly prompt: string;
  readonly program: string;
}

/** The parts of a run a caller compares: as no-eval.test.ts records them. */
function outcome(result: RunResult): Record<string, unknown> {
  const common = {
    prints: result.prints,
    toolCalls: result.toolCalls.map((call) => [call.name, call.args]),
  };
  if (!result.ok) {
    const { reason, message, line, column } = result.error;
    return { ...common, error: { reason, message, line: line ?? null, column: column ?? null } };
  }
  return { ...common, value: format(result.value), json: toJson(result.value), returned: result.returned };
}

async function runLisp(body: LispRequest): Promise<Record<string, unknown>> {
  if (body.codeGeneration !== undefined) setCodeGeneration(body.codeGeneration);
  const tools = Object.fromEntries(
    Object.entries(body.tools ?? {}).map(([name, result]) => [name, () => result]),
  );
  const result = await run(body.program, {
    tools,
    ...(body.context === undefined ? {} : { context: body.context }),
    ...(body.limits === undefined ? {} : { limits: body.limits }),
  });
  return { outcome: outcome(result), codeGeneration: codeGenerationStatus() };
}

async function runAgentTurn(body: AgentRequest): Promise<Record<string, unknown>> {
  const fence = "```";
  const model = createScriptedModel([`${fence}clojure\n${body.program}\n${fence}`]);
  const agent = createAgent({
    prompt: body.prompt,
    signature: "{total :int, top :string}",
    tools: {
      list_orders: {
        description: "Orders with their customer and amount.",
        signature: "() -> [{customer :string, amount :int}]",
        execute: () => [
          { customer: "ada", amount: 30 },
          { customer: "grace", amount: 50 },
          { customer: "ada", amount: 40 },
        ],
      },
    },
  });
  const result = await runAgent(agent, { llm: model.llm });
  return {
    ok: result.ok,
    return: result.step.return ?? null,
    fail: result.step.fail ?? null,
    modelCalls: model.calls.length,
    toolCalls: result.step.toolCalls.map((call) => call.name),
    codeGeneration: codeGenerationStatus(),
  };
}

const json = (data: unknown, status = 200): Response =>
  new Response(JSON.stringify(data), { status, headers: { "content-type": "application/json" } });

export default {
  async fetch(request: Request): Promise<Response> {
    const { pathname } = new URL(request.url);
    if (request.method !== "POST") return json({ error: "POST /lisp or /agent" }, 405);
    try {
      if (pathname === "/lisp") return json(await runLisp((await request.json()) as LispRequest));
      if (pathname === "/agent") return json(await runAgentTurn((await request.json()) as AgentRequest));
      return json({ error: `no route ${pathname}: POST /lisp or /agent` }, 404);
    } catch (error) {
      // A thrown error is a bug in the worker or a package: the test shows it whole.
      return json(
        { error: error instanceof Error ? `${error.name}: ${error.message}\n${error.stack}` : String(error) },
        500,
      );
    }
  },
};
