/** apply, comp, partial, complement, constantly, every-pred, some-fn, fnil, juxt through `run`. */
import { describe, expect, test } from "vitest";
import { run } from "../run.js";
import { evaluate, failure } from "../test-support.js";

const echo = { tools: { echo: async (args: Record<string, unknown>) => args } };

describe("apply", () => {
  test("spreads the last argument after the fixed ones", async () => {
    expect(await evaluate("(apply + [1 2 3])")).toBe("6");
    expect(await evaluate("(apply + 1 2 [3 4])")).toBe("10");
    expect(await evaluate("(apply (fn [x & xs] xs) 1 2 [3 4])")).toBe("[2 3 4]");
    expect(await evaluate("(apply str [])")).toBe('""');
  });

  test("keywords, sets and maps can be applied; sets and maps spread as members and entries", async () => {
    expect(await evaluate('(apply :name [{:name "Ann"}])')).toBe('"Ann"');
    expect(await evaluate("(apply #{1 2 3} [2])")).toBe("2");
    expect(await evaluate("(apply + #{1 2})")).toBe("3");
    expect(await evaluate("(apply max-key second {:a 3 :b 7})")).toBe("[:b 7]");
  });

  test("the last argument must be a collection", async () => {
    const error = await failure("(apply + 1 2 nil)");
    expect(error.reason).toBe("type_error");
    expect(error.message).toContain("apply expects a collection as its last argument, got nil");
    expect((await failure("(apply + 1 2)")).reason).toBe("type_error");
  });

  test("arity errors of the applied builtin are reported", async () => {
    expect((await failure("(apply = [])")).reason).toBe("arity_error");
    expect((await failure("(apply +)")).reason).toBe("arity_error");
  });

  test("very long argument lists fold for associative builtins", async () => {
    const xs = Array.from({ length: 120_000 }, (_, i) => i % 10);
    const total = xs.reduce((a, b) => a + b, 0);
    expect(await evaluate("(apply + data/xs)", { context: { xs } })).toBe(String(total));
    expect(await evaluate("(apply max data/xs)", { context: { xs } })).toBe("9");
    const error = await failure("(apply vector data/xs)", { context: { xs } });
    expect(error.message).toContain("too many");
  });

  test("merge-with, conj, max-key and min-key fold too, keeping their leading function", async () => {
    const rows = Array.from({ length: 120_000 }, (_, i) => ({ k: `k${i % 3}`, v: i % 7 }));
    const expected = new Map<string, number>();
    for (const row of rows) expected.set(row.k, (expected.get(row.k) ?? 0) + row.v);
    // 120,000 rows: a generous clock, so that a loaded machine cannot end them on time.
    const options = { context: { rows }, limits: { timeoutMs: 60_000 } };
    expect(await evaluate("(apply merge-with + (map (fn [r] {(:k r) (:v r)}) data/rows))", options)).toBe(
      `{"k0" ${expected.get("k0")} "k1" ${expected.get("k1")} "k2" ${expected.get("k2")}}`,
    );
    expect(await evaluate("(count (apply conj [] data/rows))", options)).toBe("120000");
    expect(await evaluate("(:v (apply max-key :v data/rows))", options)).toBe("6");
    expect(await evaluate("(:v (apply min-key :v data/rows))", options)).toBe("0");
  });

  test("applied functions may call tools", async () => {
    expect(await evaluate("(apply (fn [a b] (:v (tool/echo {:v (+ a b)}))) [1 2])", echo)).toBe("3");
  });
});

describe("comp and partial", () => {
  test("comp applies right to left; the rightmost takes every argument", async () => {
    expect(await evaluate("((comp str inc) 5)")).toBe('"6"');
    expect(await evaluate("((comp str +) 1 2 3)")).toBe('"6"');
    expect(await evaluate("((comp inc inc inc) 0)")).toBe("3");
    expect(await evaluate("((comp :b :a) {:a {:b 7}})")).toBe("7");
  });

  test("(comp) is identity and (comp f) is f", async () => {
    expect(await evaluate("((comp) 42)")).toBe("42");
    expect(await evaluate("((comp inc) 5)")).toBe("6");
    expect(await evaluate("(map (comp inc inc) [1 2])")).toBe("[3 4]");
  });

  test("comp rejects values that cannot be called", async () => {
    expect((await failure("(comp inc 5)")).reason).toBe("type_error");
  });

  test("partial prepends its arguments", async () => {
    expect(await evaluate("((partial + 10) 5)")).toBe("15");
    expect(await evaluate("((partial + 1 2))")).toBe("3");
    expect(await evaluate('((partial str "a" "b") "c" "d")')).toBe('"abcd"');
    expect(await evaluate("((partial +) 1 2)")).toBe("3");
    expect((await failure("((partial inc 1) 2)")).reason).toBe("arity_error");
  });

  test("composed parts that call tools run in order", async () => {
    const result = await run(
      "((comp #(:v (tool/echo {:v (inc %)})) #(:v (tool/echo {:v (* 2 %)}))) 5)",
      echo,
    );
    expect(result.ok && result.value).toBe(11);
    expect(result.toolCalls.map((call) => call.args.v)).toEqual([10, 11]);
    expect(await evaluate("((partial (fn [a b] (:v (tool/echo {:v (- a b)}))) 10) 3)", echo)).toBe("7");
  });
});

describe("complement, constantly, every-pred, some-fn", () => {
  test("complement negates truthiness", async () => {
    expect(
      await evaluate(
        "[((complement even?) 3) ((complement even?) 4) ((complement nil?) nil) ((complement <) 3 2)]",
      ),
    ).toBe("[true false false true]");
    expect(await evaluate("((complement #(:v (tool/echo {:v %}))) nil)", echo)).toBe("true");
  });

  test("constantly ignores its arguments", async () => {
    expect(await evaluate("[((constantly 5)) ((constantly 5) 1 2 3) ((constantly nil) :a)]")).toBe(
      "[5 5 nil]",
    );
  });

  test("every-pred checks every predicate against every argument", async () => {
    expect(
      await evaluate(
        "[((every-pred even? pos?) 4) ((every-pred even? pos?) -4) ((every-pred even? pos?) 4 6) ((every-pred even? pos?) 4 -6)]",
      ),
    ).toBe("[true false true false]");
    expect(await evaluate("((every-pred even?))")).toBe("true");
    expect(await evaluate("(filter (every-pred :a :b) [{:a 1 :b 2} {:a 1}])")).toBe("[{:a 1 :b 2}]");
  });

  test("some-fn returns the first truthy result, else the last falsy one", async () => {
    expect(await evaluate("((some-fn :a :b) {:b 2})")).toBe("2");
    expect(await evaluate("((some-fn :a :b) {:c 3})")).toBe("nil");
    expect(await evaluate("((some-fn even? pos?) -3)")).toBe("false");
    expect(await evaluate("((some-fn even?))")).toBe("nil");
    expect(await evaluate("((some-fn (constantly nil) (constantly 42)) 1)")).toBe("42");
  });

  test("predicates that call tools stop at the deciding one", async () => {
    const result = await run("((every-pred #(:v (tool/echo {:v (pos? %)}))) 1 -1 2)", echo);
    expect(result.ok && result.value).toBe(false);
    expect(result.toolCalls.length).toBe(2);
    expect(await evaluate("((some-fn #(:v (tool/echo {:v (when (even? %) %)}))) 1 4)", echo)).toBe("4");
  });

  test("a non-callable predicate is a type error", async () => {
    expect((await failure("(every-pred 5)")).reason).toBe("type_error");
    expect((await failure("(some-fn nil)")).reason).toBe("type_error");
  });
});

describe("fnil and juxt", () => {
  test("fnil replaces nil arguments by the defaults", async () => {
    expect(await evaluate("[((fnil inc 0) nil) ((fnil inc 0) 5)]")).toBe("[1 6]");
    expect(await evaluate("((fnil + 0) nil 5)")).toBe("5");
    expect(await evaluate("((fnil + 0 10) nil nil)")).toBe("10");
    expect(await evaluate("(update {:n nil} :n (fnil inc 0))")).toBe("{:n 1}");
    expect(await evaluate("(reduce (fn [m k] (update m k (fnil inc 0))) {} [:a :b :a])")).toBe("{:a 2 :b 1}");
  });

  test("juxt collects each function's result", async () => {
    expect(await evaluate('((juxt :name :age) {:name "Alice" :age 30})')).toBe('["Alice" 30]');
    expect(await evaluate("((juxt + *) 2 3)")).toBe("[5 6]");
    expect(await evaluate("((juxt) {:a 1})")).toBe("[]");
    expect(await evaluate("(into {} (map (juxt :id identity) [{:id 1} {:id 2}]))")).toBe(
      "{1 {:id 1} 2 {:id 2}}",
    );
  });

  test("juxt with tool calls keeps order", async () => {
    const result = await run("((juxt #(:v (tool/echo {:v %})) inc #(:v (tool/echo {:v (* 10 %)}))) 2)", echo);
    expect(result.ok && result.value).toEqual([2, 3, 20]);
    expect(result.toolCalls.map((call) => call.args.v)).toEqual([2, 20]);
  });

  test("results are functions", async () => {
    expect(
      await evaluate("[(fn? (juxt :a)) (fn? (fnil inc 0)) (fn? (partial +)) (fn? (comp inc dec))]"),
    ).toBe("[true true true true]");
  });
});
