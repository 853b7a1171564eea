import { createAgent, run } from "@ptc/agent";
import { createScriptedModel } from "@ptc/agent/testing";

// Tools are plain functions (or { execute, signature, description, ... } objects).
const orders = [
  { id: 1, customer: "ada", status: "paid", amount: 120 },
  { id: 2, customer: "bob", status: "refunded", amount: 80 },
  { id: 3, customer: "ada", status: "paid", amount: 30 },
  { id: 4, customer: "cy", status: "paid", amount: 95 },
];

const agent = createAgent({
  prompt: "Which customer spent the most on paid orders?",
  signature: "{customer :string, total :int}",
  tools: {
    list_orders: {
      execute: async ({ status }) => orders.filter((order) => order.status === status),
      signature: "(status :string) -> [{id :int, customer :string, status :string, amount :int}]",
      description: "Orders with the given status.",
    },
  },
});

// A scripted model stands in for a real one (see @ptc/agent/openai for OpenAI-compatible servers).
const model = createScriptedModel([
  '```clojure\n(def paid (tool/list_orders {:status "paid"}))\n(println (count paid) "paid orders")\n```',
  "```clojure\n(return (->> paid\n             (group-by :customer)\n             (map (fn [[c rows]] {:customer c :total (sum-by :amount rows)}))\n             (sort-by :total >)\n             first))\n```",
]);

export async function main(): Promise<unknown> {
  const result = await run(agent, { llm: model.llm });
  if (!result.ok) throw new Error(`${result.step.fail?.reason}: ${result.step.fail?.message}`);
  console.log(result.step.return); // { customer: "ada", total: 150 }
  return result.step.return;
}
