// A combined-mode agent of your own, over the shop in ../orders.json: two tools, one question.
// The model calls list_orders natively and sees only a preview of the rows (they wait in the run's
// cache); then it calls lisp_eval with a program that reads the cached rows and sums them exactly.
//
//   node app.mjs                                   a scripted model plays the conversation
//   OPENAI_API_KEY=sk-... node app.mjs gpt-4o-mini  a live model
//   OPENAI_BASE_URL=http://localhost:11434/v1 node app.mjs llama3.1   a local server (Ollama)
import { readFileSync } from "node:fs";
import { createAgent, defineTools, run } from "@ptc/agent";
import { createOpenAIModel } from "@ptc/agent/openai";
import { createScriptedModel, lispEvalCall, programValueOf, toolCalls } from "@ptc/agent/testing";

const shop = JSON.parse(readFileSync(new URL("../orders.json", import.meta.url), "utf8"));

const tools = defineTools({
  list_orders: {
    execute: async ({ status }) => shop.orders.filter((order) => order.status === status),
    signature: "(status :string) -> [{id :string, customer_id :string, total :float}]",
    description: "Orders with the given status: completed, pending, refunded or cancelled.",
    expose: "both",
    cache: true,
  },
  get_customer: {
    execute: async ({ id }) => shop.customers.find((customer) => customer.id === id) ?? null,
    signature: "(id :string) -> {name :string, region :string}",
    description: "One customer by id.",
    expose: "both", // natively, and from programs (the default in combined mode is native only)
  },
});

const agent = createAgent({
  prompt: "Which customer brought in the most from completed orders, and how much?",
  output: "text",
  ptcTransport: "tool_call",
  tools,
});

const program = `(def rows (tool/list_orders {:status "completed"}))
(let [[id total] (->> rows (group-by :customer-id) (map (fn [[id orders]] [id (sum-by :total orders)])) (sort-by second >) first)]
  {:customer (:name (tool/get_customer {:id id})) :total total})`;

// Offline, the scripted model answers from what the program really returned.
const scripted = createScriptedModel([
  toolCalls({ name: "list_orders", args: { status: "completed" } }),
  lispEvalCall(program),
  async (request) => {
    const { customer, total } = await programValueOf(request);
    return `${customer} brought in the most: ${total} from completed orders.`;
  },
]);
const modelId = process.argv[2];
const llm = modelId === undefined ? scripted.llm : createOpenAIModel({ model: modelId });

const result = await run(agent, { llm });
if (!result.ok) throw new Error(`${result.step.fail?.reason}: ${result.step.fail?.message}`);
console.log(result.step.return);
