/**
 * `(fn [{:keys [a b]}] body)` on the general evaluator: the let the analyzer wraps around the body
 * reads the names in its own node (key-binders.ts, keyedParameter) instead of calling the shaped
 * binder. It must bind and fail exactly as the binder does (the reference: the same pattern with
 * `:as`, which stays with the general binder, and the default engine), on rows, program maps and
 * every other kind of value, and be the path that ran.
 */
import { describe, expect, test } from "vitest";
import { format, type RunResult, run } from "../index.js";
import { keyedParameterStats } from "./key-binders.js";

function outcome(result: RunResult): unknown {
  if (result.ok) return { value: format(result.value) };
  const { reason, message, line, column } = result.error;
  return { reason, message, line, column };
}

const rows = [
  { amount: 2.5, quantity: 3, status: "paid", order_id: 7 },
  { amount: null, quantity: false, status: "open" },
  { quantity: 4 },
  {},
];

const values = [
  "nil",
  "{:amount 5 :quantity 6 :status :x}",
  "{:amount nil}",
  "{}",
  '"text"',
  "12",
  ":k",
  "[1 2]",
  "#{1}",
  "(fn [] 1)",
  "true",
];

describe("keyed parameters (general engine)", () => {
  test("one to three names bind what the binder binds, over rows and any other value", async () => {
    const patterns: Array<[string, string]> = [
      ["{:keys [amount]}", "[amount]"],
      ["{:keys [amount quantity]}", "[amount quantity]"],
      ["{:keys [amount quantity status]}", "[amount quantity status]"],
      ["{:keys [amount order-id quantity]}", "[amount order-id quantity]"],
      ["{a :amount q :quantity}", "[a q]"],
    ];
    for (const [pattern, body] of patterns) {
      // With :as the pattern is no shaped one: the general binder, same reads, same errors.
      const reference = pattern.replace(/}$/, " :as _whole}");
      const over = (p: string, data: string) => `(mapv (fn [${p}] ${body}) ${data})`;
      for (const data of ["data/rows", ...values.map((value) => `[${value}]`)]) {
        const before = keyedParameterStats.nodes;
        const keyed = outcome(await run(over(pattern, data), { engine: "general", context: { rows } }));
        expect(keyedParameterStats.nodes - before, `${pattern} over ${data}`).toBe(1);
        const plain = outcome(await run(over(reference, data), { engine: "general", context: { rows } }));
        expect(keyedParameterStats.nodes - before).toBe(1);
        const other = outcome(await run(over(pattern, data), { context: { rows } }));
        expect(keyed, `${pattern} over ${data}`).toEqual(plain);
        expect(keyed).toEqual(other);
      }
    }
  });

  test("a let of a local, a reduce over host rows and a row whose getter throws", async () => {
    const before = keyedParameterStats.nodes;
    expect(
      outcome(await run("(let [m {:a 1 :b nil}] (let [{:keys [a b c]} m] [a b c]))", { engine: "general" })),
    ).toEqual({ value: "[1 nil nil]" });
    const reduce = "(reduce (fn [acc {:keys [amount quantity]}] (+ acc (* amount quantity))) 0 data/rows)";
    const good = [
      { amount: 2.5, quantity: 4 },
      { amount: 0.1, quantity: 3 },
    ];
    expect(outcome(await run(reduce, { engine: "general", context: { rows: good } }))).toEqual(
      outcome(await run(reduce, { context: { rows: good } })),
    );
    const hostile = {};
    Object.defineProperty(hostile, "amount", {
      enumerable: true,
      get() {
        throw new Error("no amount");
      },
    });
    const failed = outcome(await run(reduce, { engine: "general", context: { rows: [hostile] } }));
    expect(failed).toEqual(outcome(await run(reduce, { context: { rows: [hostile] } })));
    expect((failed as { reason?: string }).reason).toBeDefined();
    expect(keyedParameterStats.nodes - before).toBeGreaterThanOrEqual(3);
  });
});
