import { createAgent, type RunResult, resume, run } from "@ptc/agent";
import { createScriptedModel } from "@ptc/agent/testing";

const late = [
  { id: 7, amount: 70 },
  { id: 9, amount: 15 },
  { id: 12, amount: 240 },
];
const refunded: number[] = [];

const agent = createAgent({
  prompt: "Refund every late order.",
  signature: "[{refunded :int}]",
  tools: {
    late_orders: {
      execute: () => late,
      signature: "() -> [{id :int, amount :int}]",
    },
    refund: {
      execute: async ({ id }: { id: number; amount: number }) => {
        refunded.push(id);
        return { refunded: id };
      },
      signature: "(id :int, amount :int) -> {refunded :int}",
      // Small refunds go through; a person approves the others.
      needsApproval: ({ amount }: { amount: number }) => amount >= 50,
    },
  },
});

// A scripted model stands in for a real one: one program refunds every late order in parallel.
const model = createScriptedModel([
  "```clojure\n(return (pmap #(tool/refund {:id (:id %) :amount (:amount %)}) (tool/late_orders {})))\n```",
]);

// Signs the paused state; keep it out of the store the state goes to.
const stateSecret = "a random secret of 32 characters or more";
const store = new Map<string, string>();

/** A person's decision on one call (here: every refund up to 500 is approved). */
function decide(args: Readonly<Record<string, unknown>>): boolean {
  return Number(args.amount) <= 500;
}

export async function main() {
  let result: RunResult = await run(agent, { llm: model.llm, stateSecret });
  const asked: unknown[] = [];
  while (result.paused) {
    // The state is plain JSON: store it, and resume later, in this process or another.
    store.set("refund-run", JSON.stringify(result.state));
    asked.push(...result.pending.map((call) => call.args));
    const approve = result.pending.filter((call) => decide(call.args)).map((call) => call.id);
    const reject = result.pending
      .filter((call) => !decide(call.args))
      .map((call) => ({ id: call.id, message: "refunds over 500 need a manager" }));
    const state = JSON.parse(store.get("refund-run") ?? "null");
    result = await resume(agent, state, { llm: model.llm, stateSecret, approve, reject });
  }
  return { answer: result.step.return, asked, refunded };
}
