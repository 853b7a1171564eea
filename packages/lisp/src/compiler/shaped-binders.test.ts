/**
 * The general evaluator's shaped binders: `{:keys [a b]}` written out per pattern size
 * (key-binders.ts) and `[a b]` unrolled (destructure.ts). They must bind exactly what the general
 * map and vector binders bind, fail the same way on values that are not maps or vectors, keep the
 * limits, and be the path that ran. The reference here is the same pattern with `:as`, which the
 * shaped binders leave to the general one, and the default engine.
 */
import { describe, expect, test } from "vitest";
import { format, type RunResult, run } from "../index.js";
import { seqBinderStats } from "./destructure.js";
import { keyBinderStats } from "./key-binders.js";

function outcome(result: RunResult): unknown {
  return result.ok
    ? { value: format(result.value) }
    : { error: result.error.reason, message: result.error.message };
}

const rows = [
  { amount: 2, quantity: 3, status: "paid", order_id: 7 },
  { amount: null, quantity: false, status: "open" },
  { quantity: 4 },
  {},
];

const values = [
  "nil",
  "{:amount 5 :quantity 6}",
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

describe("shaped destructuring binders (general engine)", () => {
  test("{:keys [...]} of one to four names binds what the general binder binds, over rows and other values", async () => {
    const patterns: Array<[string, string]> = [
      ["{:keys [amount]}", "[amount]"],
      ["{:keys [amount quantity]}", "[amount quantity]"],
      ["{:keys [amount quantity status]}", "[amount quantity status]"],
      ["{:keys [amount quantity status order-id]}", "[amount quantity status order-id]"],
      ["{a :amount q :quantity}", "[a q]"],
    ];
    for (const [pattern, body] of patterns) {
      const general = pattern.replace(/}$/, " :as _whole}");
      const over = (p: string, data: string) => `(map (fn [${p}] ${body}) ${data})`;
      for (const data of ["data/rows", ...values.map((value) => `[${value}]`)]) {
        const before = keyBinderStats.shaped;
        const shaped = outcome(await run(over(pattern, data), { engine: "general", context: { rows } }));
        expect(keyBinderStats.shaped - before, `${pattern} over ${data}`).toBe(1);
        const plain = outcome(await run(over(general, data), { engine: "general", context: { rows } }));
        expect(keyBinderStats.shaped - before).toBe(1);
        const fast = outcome(await run(over(pattern, data), { context: { rows } }));
        expect(shaped).toEqual(plain);
        expect(shaped).toEqual(fast);
      }
    }
  });

  test("the row values bound are the rows' own, absent keys found under their twin or nil", async () => {
    const result = await run(
      "(map (fn [{:keys [amount quantity status order-id]}] [amount quantity status order-id]) data/rows)",
      { engine: "general", context: { rows } },
    );
    expect(result.ok && format(result.value)).toBe(
      '[[2 3 "paid" 7] [nil false "open" nil] [nil 4 nil nil] [nil nil nil nil]]',
    );
  });

  test("a string, a number, a vector under {:keys} are destructure errors", async () => {
    for (const value of ['"text"', "12", "[1 2]"]) {
      const result = await run(`(let [{:keys [a b]} ${value}] a)`, { engine: "general" });
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.error.reason).toBe("destructure_error");
    }
  });

  test("patterns the shaped binders do not cover keep the general binder", async () => {
    const before = keyBinderStats.shaped;
    for (const source of [
      "(let [{:keys [a b c d e]} {:a 1 :e 5}] [a e])",
      "(let [{:keys [a] :or {a 9}} {}] a)",
      "(let [{:keys [a] :as m} {:a 1}] [a m])",
      "(let [{[x] :a} {:a [4]}] x)",
    ]) {
      const result = await run(source, { engine: "general" });
      expect(result.ok).toBe(true);
    }
    expect(keyBinderStats.shaped - before).toBe(0);
  });

  test("[a b] binds what the general vector binder binds, over vectors, nil, maps, sets, strings", async () => {
    for (const value of [
      "[1 2]",
      "[1]",
      "[]",
      "[1 2 3]",
      "nil",
      "{:a 1}",
      "#{5}",
      '"ab"',
      "12",
      "[nil false]",
    ]) {
      const before = seqBinderStats.pairs;
      const shaped = outcome(await run(`(let [[a b] ${value}] [a b])`, { engine: "general" }));
      expect(seqBinderStats.pairs - before).toBe(1);
      const plain = outcome(await run(`(let [[a b & _] ${value}] [a b])`, { engine: "general" }));
      const fast = outcome(await run(`(let [[a b] ${value}] [a b])`, {}));
      expect(shaped).toEqual(plain);
      expect(shaped).toEqual(fast);
    }
  });

  test("loops and recursion through shaped binders are still cut off by the limits", async () => {
    const looping = await run(
      "(loop [acc 0 i 0] (let [{:keys [a]} {:a i} [x y] [acc a]] (recur (+ x y) (inc i))))",
      { engine: "general", limits: { maxIterations: 1000 } },
    );
    expect(looping.ok).toBe(false);
    if (!looping.ok) expect(looping.error.reason).toBe("loop_limit_exceeded");
    const deep = await run("(defn down [{:keys [n]}] (+ 1 (down {:n (dec n)})))\n(down {:n 5})", {
      engine: "general",
      limits: { maxDepth: 200 },
    });
    expect(deep.ok).toBe(false);
    if (!deep.ok) expect(deep.error.reason).toBe("recursion_limit_exceeded");
  });

  test("a let of two bindings binds in order, also when either init waits on a tool", async () => {
    const row = async () => ({ amount: 3, quantity: 4 });
    const pair = async () => [5, 6];
    for (const source of [
      "(let [{:keys [amount quantity]} (tool/row) [lo hi] (tool/pair)] [amount quantity lo hi])",
      "(let [{:keys [amount quantity]} {:amount 3 :quantity 4} [lo hi] (tool/pair)] [amount quantity lo hi])",
      "(let [{:keys [amount quantity]} (tool/row) [lo hi] [5 6]] [amount quantity lo hi])",
      "(let [{:keys [amount quantity]} {:amount 3 :quantity 4} [lo hi] [5 6]] [amount quantity lo hi])",
    ]) {
      const result = await run(source, { engine: "general", tools: { row, pair } });
      expect(result.ok && format(result.value), source).toBe("[3 4 5 6]");
    }
    const later = await run("(let [a 1 b (+ a 1)] [a b])", { engine: "general" });
    expect(later.ok && format(later.value)).toBe("[1 2]");
    const failing = await run('(let [a 1 [x y] "ab"] [a x y])', { engine: "general" });
    expect(outcome(failing)).toEqual(outcome(await run('(let [a 1 [x y] "ab"] [a x y])', {})));
  });
});
