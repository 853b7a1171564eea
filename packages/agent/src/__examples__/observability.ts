import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type AgentEvent, createAgent, createJsonlTranscript, previewPrompt, run } from "@ptc/agent";
import { createScriptedModel, replayTranscript } from "@ptc/agent/testing";

const orders = [
  { id: 1, customer: "ada", status: "paid", amount: 120 },
  { id: 2, customer: "bob", status: "refunded", amount: 80 },
  { id: 3, customer: "ada", status: "paid", amount: 30 },
];

const agent = createAgent({
  prompt: "How much did paid orders bring in?",
  signature: ":int",
  tools: {
    list_orders: {
      execute: async ({ status }) => orders.filter((order) => order.status === status),
      signature: "(status :string) -> [{id :int, customer :string, amount :int}]",
    },
  },
});

const script = [
  '```clojure\n(def paid (tool/list_orders {:status "paid"}))\n(println (count paid) "paid")\n```',
  "```clojure\n(return (sum-by :amount paid))\n```",
];

export async function main() {
  // 1. Before any call: exactly what the first request will carry.
  const preview = previewPrompt(agent);

  // 2. During the run: typed events, with arguments and results because we ask for them.
  const events: AgentEvent[] = [];
  const transcript = createJsonlTranscript();
  const model = createScriptedModel(script);
  const result = await run(agent, {
    llm: model.llm,
    transcript, // every request, response and event, then the step
    onEvent: (event) => events.push(event),
    eventPayloads: true,
  });

  // 3. After the run: save the transcript, read it back, and replay it without the model.
  const file = join(mkdtempSync(join(tmpdir(), "ptc-")), "run.jsonl");
  writeFileSync(file, transcript.text());
  const records = readFileSync(file, "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line));
  const replay = replayTranscript(readFileSync(file, "utf8"));
  const replayed = await run(agent, { llm: replay.llm });
  replay.assertConsumed();

  // Why did the model write its second program? Because of what turn 2's request said.
  const secondRequest = records.filter((record) => record.type === "request")[1];
  const lastMessage = secondRequest.request.messages.at(-1).content;

  return {
    answer: result.ok ? result.step.return : result.step.fail,
    replayed: replayed.ok ? replayed.step.return : replayed.step.fail,
    previewMatchesFirstRequest:
      preview.system === model.calls[0]?.system && preview.user === model.calls[0]?.messages[0]?.content,
    recordTypes: [...new Set(records.map((record) => record.type))],
    toolCalls: events
      .filter((event) => event.type === "tool-call-end")
      .map((event) => ({ tool: event.toolName, args: event.args, result: event.result })),
    lastMessage,
  };
}
