import { format, run, toJson } from "@ptc/lisp";

// Host data and tools: plain values and functions (or @ptc/tool tools).
const orders = [
  { id: 1, customer: "ada", status: "paid", amount: 120 },
  { id: 2, customer: "bob", status: "refunded", amount: 80 },
  { id: 3, customer: "ada", status: "paid", amount: 30 },
  { id: 4, customer: "cy", status: "paid", amount: 95 },
];

// A program as a model would write it: call a tool, then filter and aggregate in the sandbox.
const program = `
(->> (tool/list-orders {:status "paid"})
     (group-by :customer)
     (map (fn [[customer rows]] {:customer customer :total (sum-by :amount rows)}))
     (sort-by :total >)
     first)`;

export async function main(): Promise<unknown> {
  const result = await run(program, {
    tools: { list_orders: ({ status }) => orders.filter((order) => order.status === status) },
    limits: { timeoutMs: 500 },
  });
  if (!result.ok) throw new Error(`${result.error.reason}: ${result.error.message}`);
  console.log(format(result.value)); // {:customer "ada" :total 150}
  return toJson(result.value); // { customer: "ada", total: 150 }
}
