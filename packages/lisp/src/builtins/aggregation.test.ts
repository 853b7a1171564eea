/** reduce, reduce-kv, group-by, frequencies, sum/avg and the *-by helpers through `run`. */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { format } from "../format/format.js";
import { type RunResult, run } from "../run.js";
import { evaluate, failure } from "../test-support.js";
import { groupMapStats } from "../values/lisp-map.js";

const echo = { tools: { echo: async (args: Record<string, unknown>) => args } };

describe("reduce", () => {
  test("with and without an initial value", async () => {
    expect(await evaluate("(reduce + [1 2 3])")).toBe("6");
    expect(await evaluate("(reduce + 10 [1 2 3])")).toBe("16");
    expect(await evaluate("(reduce - [10 1 2])")).toBe("7");
    expect(await evaluate("(reduce + [42])")).toBe("42");
  });

  test("empty collections: nil without init (unlike Clojure), init with it", async () => {
    expect(await evaluate("(reduce + [])")).toBe("nil");
    expect(await evaluate("(reduce + nil)")).toBe("nil");
    expect(await evaluate("(reduce + 99 [])")).toBe("99");
    expect(await evaluate("(reduce + 0 nil)")).toBe("0");
  });

  test("maps reduce over entries, sets over members, strings over characters", async () => {
    expect(await evaluate("(reduce (fn [acc [k v]] (+ acc v)) 0 {:a 1 :b 2})")).toBe("3");
    expect(await evaluate("(reduce + 0 #{1 2 3})")).toBe("6");
    expect(await evaluate('(reduce str "" "abc")')).toBe('"abc"');
  });

  test("keyword and closure reducers, numbers keep their kind", async () => {
    expect(await evaluate("(reduce (fn [acc x] (conj acc (* x x))) [] [1 2])")).toBe("[1 4]");
    expect(await evaluate("(reduce + [1 2.5])")).toBe("3.5");
    expect(await evaluate("(reduce + [0.5 0.5])")).toBe("1.0");
    expect(await evaluate("(reduce * [99999999999 99999999999])")).toBe("9999999999800000000001");
  });

  test("errors: non-collection, wrong arity, non-function", async () => {
    expect((await failure("(reduce + 5)")).reason).toBe("type_error");
    expect((await failure("(reduce)")).reason).toBe("arity_error");
    expect((await failure("(reduce 5 [1 2])")).reason).toBe("type_error");
    expect((await failure("(reduce [1 2] +)")).message).toContain("swapped");
  });

  test("a reducer that calls tools folds in order", async () => {
    const result = await run(
      "(reduce (fn [acc x] (let [r (tool/echo {:v x})] (+ acc (:v r)))) 0 [1 2 3])",
      echo,
    );
    expect(result.ok && result.value).toBe(6);
    expect(result.toolCalls.map((call) => call.args.v)).toEqual([1, 2, 3]);
    expect(await evaluate("(reduce (fn [a b] (:v (tool/echo {:v (+ a b)}))) [1 2 3])", echo)).toBe("6");
  });
});

describe("reduce-kv", () => {
  test("folds a map with key and value", async () => {
    expect(await evaluate("(reduce-kv (fn [acc k v] (+ acc v)) 0 {:a 1 :b 2 :c 3})")).toBe("6");
    expect(await evaluate("(reduce-kv (fn [acc k v] (conj acc k)) [] {:y 2 :x 1})")).toBe("[:x :y]");
    expect(await evaluate("(reduce-kv (fn [acc k v] (+ acc v)) 42 nil)")).toBe("42");
  });

  test("host maps are folded too", async () => {
    expect(
      await evaluate("(reduce-kv (fn [acc k v] (+ acc v)) 0 data/m)", { context: { m: { a: 1, b: 2 } } }),
    ).toBe("3");
  });

  test("a vector is a type error with advice", async () => {
    const error = await failure("(reduce-kv (fn [acc k v] acc) 0 [1 2])");
    expect(error.reason).toBe("type_error");
    expect(error.message).toContain("reduce-kv expects a map");
  });

  test("async reducer", async () => {
    expect(
      await evaluate("(reduce-kv (fn [acc k v] (+ acc (:v (tool/echo {:v v})))) 0 {:a 1 :b 2})", echo),
    ).toBe("3");
  });
});

describe("group-by, frequencies, distinct-by", () => {
  test("many groups: group-by's map takes its pass's table, and equals the map a reduce builds", async () => {
    // Past the flat limit, with keys of every sort (NUL-led and prototype names, floats, nil).
    const odd = ["\u0000k", "__proto__", "constructor", null, 2.5, -0, "", "a-b"];
    const rows = Array.from({ length: 600 }, (_, i) => ({
      k: i % 7 === 0 ? odd[i % odd.length] : i % 2 === 0 ? `r${i % 53}` : i % 41,
      n: i,
    }));
    const grouped = "(group-by :k data/rows)";
    const reduced = "(reduce (fn [m r] (update m (:k r) (fnil conj []) r)) {} data/rows)";
    for (const engine of ["general", "fast", undefined] as const) {
      const options = engine === undefined ? { context: { rows } } : { context: { rows }, engine };
      const adopted = groupMapStats.adopted;
      const one = await run(grouped, options);
      const two = await run(reduced, options);
      if (!one.ok || !two.ok) throw new Error(`${engine}: setup failed`);
      expect(format(one.value), `${engine}`).toBe(format(two.value));
      expect(groupMapStats.adopted - adopted, `${engine}`).toBeGreaterThanOrEqual(1);
    }
  });

  test("group-by keeps the items of each group in order", async () => {
    expect(await evaluate("(group-by :t [{:t :a :n 1} {:t :b :n 2} {:t :a :n 3}])")).toBe(
      "{:a [{:n 1 :t :a} {:n 3 :t :a}] :b [{:n 2 :t :b}]}",
    );
    expect(await evaluate("(group-by odd? [1 2 3])")).toBe("{false [2] true [1 3]}");
    expect(await evaluate("(group-by :t [{:x 1}])")).toBe("{nil [{:x 1}]}");
    expect(await evaluate("(group-by :t nil)")).toBe("{}");
  });

  test("group-by keys: strings, paths, equal numbers share a group", async () => {
    expect(await evaluate('(group-by "t" [{"t" 1} {"t" 1.0}])')).toBe('{1 [{"t" 1} {"t" 1.0}]}');
    expect(await evaluate("(group-by [:a :b] [{:a {:b 1}} {:a {:b 2}}])")).toBe(
      "{1 [{:a {:b 1}}] 2 [{:a {:b 2}}]}",
    );
    expect(await evaluate("(group-by first {:a 1 :b 2})")).toBe("{:a [[:a 1]] :b [[:b 2]]}");
  });

  test("group-by reads host data with flexible keys", async () => {
    const context = {
      orders: [
        { region_name: "eu", amount: 5 },
        { region_name: "us", amount: 7 },
        { region_name: "eu", amount: 1 },
      ],
    };
    expect(await evaluate("(update-vals (group-by :region-name data/orders) count)", { context })).toBe(
      '{"eu" 2 "us" 1}',
    );
  });

  test("group-by with a key function that calls tools", async () => {
    expect(await evaluate("(group-by #(:v (tool/echo {:v (odd? %)})) [1 2 3])", echo)).toBe(
      "{false [2] true [1 3]}",
    );
  });

  test("frequencies counts equal items together", async () => {
    expect(await evaluate("(frequencies [:a :b :a])")).toBe("{:a 2 :b 1}");
    expect(await evaluate('(frequencies "abca")')).toBe('{"a" 2 "b" 1 "c" 1}');
    expect(await evaluate("(frequencies [[1 2] [1 2] nil])")).toBe("{nil 1 [1 2] 2}");
    expect(await evaluate("(frequencies [])")).toBe("{}");
    expect((await failure("(frequencies 5)")).reason).toBe("type_error");
  });

  test("distinct-by keeps the first item of each key", async () => {
    expect(await evaluate("(distinct-by :id [{:id 1 :v 1} {:id 2 :v 2} {:id 1 :v 3}])")).toBe(
      "[{:id 1 :v 1} {:id 2 :v 2}]",
    );
    expect(await evaluate("(distinct-by second {:a 1 :b 1 :c 2})")).toBe("[[:a 1] [:c 2]]");
    expect(await evaluate("(distinct-by :x nil)")).toBe("[]");
    expect(await evaluate("(distinct-by #(:v (tool/echo {:v (mod % 2)})) [1 3 2])", echo)).toBe("[1 2]");
  });
});

describe("sum, avg, sum-by, avg-by", () => {
  test("sum and avg skip nil; empty sums are 0, empty averages nil", async () => {
    expect(await evaluate("(sum [1 2 3])")).toBe("6");
    expect(await evaluate("(sum [1 nil 2.5])")).toBe("3.5");
    expect(await evaluate("(sum [])")).toBe("0");
    expect(await evaluate("(sum nil)")).toBe("0");
    expect(await evaluate("(avg [1 2 3 4 5])")).toBe("3.0");
    expect(await evaluate("(avg [1 2])")).toBe("1.5");
    expect(await evaluate("(avg [])")).toBe("nil");
    expect(await evaluate("(avg [nil])")).toBe("nil");
  });

  test("sum and avg accept any collection, and *-by keys read nil from items that are not maps", async () => {
    expect(await evaluate("(sum #{1 2})")).toBe("3");
    expect(await evaluate("(avg #{1 2})")).toBe("1.5");
    expect(await evaluate('(sum-by :a [1 {:a 2} "x"])')).toBe("2");
    expect(await evaluate("(group-by :a [1 2])")).toBe("{nil [1 2]}");
  });

  test("integers stay exact, floats stay floats", async () => {
    expect(await evaluate("(sum [9007199254740991 2])")).toBe("9007199254740993");
    expect(await evaluate("(sum [0.5 0.5])")).toBe("1.0");
  });

  test("non-numbers are an arithmetic error", async () => {
    const error = await failure('(sum [1 "2"])');
    expect(error.reason).toBe("arithmetic_error");
    expect(error.message).toContain("bad argument in arithmetic expression");
  });

  test("sum-by and avg-by read a field, a path or a function, skipping nil and missing values", async () => {
    expect(await evaluate("(sum-by :amount [{:amount 10} {:amount nil} {:other 5}])")).toBe("10");
    expect(await evaluate("(avg-by :amount [{:amount 10} {:amount nil} {:amount 20}])")).toBe("15.0");
    expect(await evaluate("(sum-by [:a :b] [{:a {:b 1}} {:a {:b 2}}])")).toBe("3");
    expect(await evaluate("(sum-by second {:a 1 :b 3})")).toBe("4");
    expect(await evaluate("(sum-by identity #{1 2 3})")).toBe("6");
    expect(await evaluate("(sum-by :a [])")).toBe("0");
    expect(await evaluate("(avg-by :a [])")).toBe("nil");
  });

  test("sum-by reads host data with flexible keys", async () => {
    expect(
      await evaluate("(sum-by :unit-price data/items)", {
        context: { items: [{ unit_price: 2 }, { unit_price: 3.5 }] },
      }),
    ).toBe("5.5");
  });

  test("sum-by and avg-by raise on non-numeric fields", async () => {
    const error = await failure('(sum-by :amount [{:amount "10"} {:amount 20}])');
    expect(error.reason).toBe("arithmetic_error");
    expect(error.message).toContain("sum-by");
    expect((await failure("(avg-by :value [{:value {:x 1}}])")).reason).toBe("arithmetic_error");
  });

  test("key functions may call tools", async () => {
    expect(await evaluate("(sum-by #(:v (tool/echo {:v %})) [1 2 3])", echo)).toBe("6");
    expect(await evaluate("(avg-by #(:v (tool/echo {:v %})) [1 2])", echo)).toBe("1.5");
  });
});

// sum and the *-by totals keep a double and a float flag while that is exact (aggregation.ts,
// Total): the answer must be folding + over the terms, whatever their kinds and order.
describe("totals are folds of +", () => {
  const outcome = (result: RunResult): unknown =>
    result.ok ? { value: format(result.value) } : { error: result.error.reason };
  const item = fc.oneof(
    fc.integer({ min: -1000, max: 1000 }).map(String),
    fc.constantFrom("9007199254740991", "-9007199254740991", "9007199254740993", "4503599627370496"),
    fc.double({ min: -1e6, max: 1e6, noNaN: true }).map((x) => String(x).replace(/^(-?\d+)$/, "$1.0")),
    fc.constantFrom("0.5", "1.5", "2.0", "-0.0", "0.1", "0.2", "##NaN", "##Inf", "##-Inf", "nil", "nil"),
    fc.constantFrom('"a"', ":k"),
  );

  test("sum, sum-by, avg and avg-by over written numbers", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(item, { minLength: 0, maxLength: 10 }), async (items) => {
        const xs = `[${items.join(" ")}]`;
        const terms = `(remove nil? ${xs})`;
        // + raises a type error on a term that is not a number; the totals an arithmetic error.
        const asTotal = (fold: unknown) =>
          (fold as { error?: string }).error === undefined ? fold : { error: "arithmetic_error" };
        const folded = asTotal(outcome(await run(`(reduce + 0 ${terms})`, { engine: "general" })));
        const mean = asTotal(
          outcome(
            await run(`(let [ys ${terms}] (when (seq ys) (/ (reduce + 0 ys) (count ys))))`, {
              engine: "general",
            }),
          ),
        );
        for (const engine of ["general", "adaptive", "fast"] as const) {
          expect(outcome(await run(`(sum ${xs})`, { engine })), `${engine} (sum ${xs})`).toEqual(folded);
          const rows = `(mapv (fn [x] {:v x}) ${xs})`;
          expect(outcome(await run(`(sum-by :v ${rows})`, { engine })), `sum-by ${xs}`).toEqual(folded);
          expect(outcome(await run(`(avg ${xs})`, { engine })), `(avg ${xs})`).toEqual(mean);
          expect(outcome(await run(`(avg-by :v ${rows})`, { engine })), `avg-by ${xs}`).toEqual(mean);
        }
      }),
      { numRuns: 150 },
    );
  });

  test("sum-by over host numbers: unsafe integers, float sums that come out whole, the safe edge", async () => {
    for (const values of [
      [1e20, 3],
      [3, 1e20, 0.5],
      [0.5, 1e20],
      [0.1, 0.2, 0.7],
      [0.5, 0.5, 7],
      [2 ** 53 - 1, 1, 1],
      [2 ** 53 - 2, 1, -5],
      [-0, -0],
      [1.5, -1.5],
    ]) {
      const context = { rows: values.map((v) => ({ v })) };
      const folded = outcome(await run("(reduce + 0 (map :v data/rows))", { context, engine: "general" }));
      for (const engine of ["general", "adaptive", "fast"] as const) {
        const total = await run("(sum-by :v data/rows)", { context, engine });
        expect(outcome(total), `${engine} ${values.join(" ")}`).toEqual(folded);
      }
    }
  });
});

describe("min-by, max-by, min-key, max-key", () => {
  test("min-by and max-by return the item, skipping nil keys", async () => {
    expect(await evaluate("(min-by :price [{:price nil} {:price 10} {:price 5}])")).toBe("{:price 5}");
    expect(await evaluate("(max-by :price [{:price 1} {:price 9} {:price nil}])")).toBe("{:price 9}");
    expect(await evaluate("(max-by :price [{:price nil}])")).toBe("nil");
    expect(await evaluate("(min-by :price [])")).toBe("nil");
    expect(await evaluate("(min-by :price nil)")).toBe("nil");
  });

  test("ties go to the first item", async () => {
    expect(await evaluate("(max-by :p [{:p 1 :n 1} {:p 1 :n 2}])")).toBe("{:n 1 :p 1}");
    expect(await evaluate("(min-by :p [{:p 1 :n 1} {:p 1 :n 2}])")).toBe("{:n 1 :p 1}");
  });

  test("maps, sets and spread items", async () => {
    expect(await evaluate("(max-by second {:a 1 :b 3 :c 2})")).toBe("[:b 3]");
    expect(await evaluate("(min-by identity #{3 1 2})")).toBe("1");
    expect(await evaluate("(apply max-by :p [{:p 1} {:p 4}])")).toBe("{:p 4}");
    expect(await evaluate('(max-by count "abc")')).toBe('"abc"');
  });

  test("min-key and max-key compare (f x) across the arguments", async () => {
    expect(await evaluate('(max-key count "a" "abc" "ab")')).toBe('"abc"');
    expect(await evaluate('(min-key count "abc" "a" "ab")')).toBe('"a"');
    expect(await evaluate("(max-key :missing {:a 10})")).toBe("{:a 10}");
    expect(await evaluate("(apply max-key second [[:a 3] [:b 7] [:c 2]])")).toBe("[:b 7]");
    expect((await failure("(max-key count)")).reason).toBe("arity_error");
  });

  test("async key functions", async () => {
    expect(await evaluate("(max-by #(:v (tool/echo {:v %})) [1 5 2])", echo)).toBe("5");
    expect(await evaluate("(min-key #(:v (tool/echo {:v %})) 4 2 8)", echo)).toBe("2");
  });
});

describe("reduce into a map it owns (values/owned-table.ts)", () => {
  const rows = Array.from({ length: 2000 }, (_, i) => ({ id: i, k: `k${i % 13}`, r: i % 3, n: i % 7 }));
  const context = { rows, init: { k0: 100 } };

  // The same reductions written so that the accumulator also flows through a let: the analysis
  // then refuses ownership, and every step derives a persistent version. The answers must agree.
  test.each([
    [
      "(reduce (fn [acc o] (merge-with + acc {(:k o) (:n o)})) {} data/rows)",
      "(reduce (fn [acc o] (let [a acc] (merge-with + a {(:k o) (:n o)}))) {} data/rows)",
    ],
    [
      "(reduce (fn [acc o] (update-in acc [(:r o) (:k o)] (fnil + 0) (:n o))) {} data/rows)",
      "(reduce (fn [acc o] (let [a acc] (update-in a [(:r o) (:k o)] (fnil + 0) (:n o)))) {} data/rows)",
    ],
    [
      "(reduce (fn [acc o] (update acc (:k o) (fnil inc 0))) data/init data/rows)",
      "(reduce (fn [acc o] (let [a acc] (update a (:k o) (fnil inc 0)))) data/init data/rows)",
    ],
    [
      "(reduce (fn [acc o] (if (odd? (:id o)) (dissoc acc (:k o)) (assoc acc (:k o) (:id o)))) {} data/rows)",
      "(reduce (fn [acc o] (let [a acc] (if (odd? (:id o)) (dissoc a (:k o)) (assoc a (:k o) (:id o))))) {} data/rows)",
    ],
  ])("%s", async (owned, persistent) => {
    for (const engine of ["adaptive", "fast", "general"] as const) {
      expect(await evaluate(owned, { context, engine })).toBe(
        await evaluate(persistent, { context, engine }),
      );
    }
  });

  test("the initial map, a map handed back instead, and the result stay values", async () => {
    const answer = await evaluate(
      `(let [m {:a 1} big (zipmap (range 20) (range 20)) base {:z 0}
             r1 (reduce (fn [acc x] (assoc acc x 1)) m [:b :c])
             r2 (reduce (fn [acc x] (assoc acc x 1)) big [:b])
             r3 (reduce (fn [acc x] (if (= x 2) base (assoc acc x 1))) {} [1 2 3])]
         [m (count big) base r1 (count r2) r3 (assoc r1 :d 4) r1 data/init])`,
      { context },
    );
    expect(answer).toBe(
      '[{:a 1} 20 {:z 0} {:a 1 :b 1 :c 1} 21 {3 1 :z 0} {:a 1 :b 1 :c 1 :d 4} {:a 1 :b 1 :c 1} {"k0" 100}]',
    );
    expect(context.init).toEqual({ k0: 100 });
  });

  test("the owned accumulator is changed in place: no version per row", async () => {
    const { LispMap } = await import("../values/lisp-map.js");
    const prototype = LispMap.prototype as unknown as { derive: (size: number) => unknown };
    const derive = prototype.derive;
    let derived = 0;
    prototype.derive = function (this: unknown, size: number) {
      derived++;
      return derive.call(this, size);
    };
    try {
      await evaluate("(reduce (fn [acc o] (assoc acc (:id o) (:n o))) {} data/rows)", { context });
      const owned = derived;
      derived = 0;
      await evaluate("(reduce (fn [acc o] (let [a acc] (assoc a (:id o) (:n o)))) {} data/rows)", {
        context,
      });
      expect(owned).toBeLessThan(5);
      expect(derived).toBeGreaterThanOrEqual(2000);
    } finally {
      prototype.derive = derive;
    }
  });
});
