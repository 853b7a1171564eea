import { createAgent, run } from "@ptc/agent";
import { createScriptedModel } from "@ptc/agent/testing";
import { z } from "zod";

const customers = [{ id: 9, name: "Ada", email: "ada@example.com" }];
const received: unknown[] = [];

const agent = createAgent({
  prompt: "What is the name of customer 9?",
  signature: ":string",
  tools: {
    get_customer: {
      // The schema checks every call, from a program or a native call, before execute runs.
      parameters: z.object({ id: z.number().int(), with_email: z.boolean().default(false) }),
      execute: async (args) => {
        received.push(args); // the schema's output: { id: 9, with_email: false }
        const customer = customers.find((row) => row.id === args.id);
        return customer === undefined ? null : { name: customer.name };
      },
      description: "One customer by id.",
    },
  },
});

const model = createScriptedModel([
  '```clojure\n(tool/get_customer {:id "nine"})\n```',
  "```clojure\n(return (:name (tool/get_customer {:id 9})))\n```",
]);

export async function main() {
  const result = await run(agent, { llm: model.llm });
  // Turn 1 failed before the tool ran; the model read why:
  // tool/get_customer was called with arguments that do not fit:
  //   id: Invalid input: expected number, received string. Its signature: (id :int, with_email :bool?) -> :any
  console.log(result.step.turns?.[0]?.result);
  return { answer: result.step.return, received };
}
