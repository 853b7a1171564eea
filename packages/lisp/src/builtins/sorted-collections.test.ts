import { describe, expect, test } from "vitest";
import { format, type RunError, run } from "../index.js";

/**
 * Runs a program on the generated-code tier (the default) and on the general evaluator, requires
 * both to print the same value, and returns it.
 */
async function onBothEngines(source: string, context?: Record<string, unknown>): Promise<string> {
  const printed: string[] = [];
  for (const engine of ["fast", "general"] as const) {
    const result = await run(source, { engine, ...(context ? { context } : {}) });
    if (!result.ok)
      throw new Error(`${engine}: ${result.error.reason}: ${result.error.message}\n  ${source}`);
    printed.push(format(result.value));
  }
  expect(printed[1], `general engine, ${source}`).toBe(printed[0]);
  return printed[0] as string;
}

/** As onBothEngines, for a program that must fail: same reason and message on both. */
async function failsOnBothEngines(source: string): Promise<RunError> {
  const errors: RunError[] = [];
  for (const engine of ["fast", "general"] as const) {
    const result = await run(source, { engine });
    if (result.ok) throw new Error(`${engine}: expected a failure, got ${format(result.value)}\n  ${source}`);
    errors.push(result.error);
  }
  const [fast, general] = errors as [RunError, RunError];
  expect([general.reason, general.message], `general engine, ${source}`).toEqual([fast.reason, fast.message]);
  return fast;
}

async function expectAll(cases: ReadonlyArray<readonly [string, string]>): Promise<void> {
  for (const [source, expected] of cases) expect(await onBothEngines(source), source).toBe(expected);
}

describe("sorted-map and sorted-set", () => {
  test("build collections whose keys and members come out in ascending order", async () => {
    await expectAll([
      ["(sorted-map :c 3 :a 1 :b 2)", "{:a 1 :b 2 :c 3}"],
      ["(keys (sorted-map 10 :x 2 :y -1 :z))", "[-1 2 10]"],
      ['(keys (sorted-map "pear" 1 "apple" 2 "fig" 3))', '["apple" "fig" "pear"]'],
      ["(vals (sorted-map :b 2 :a 1 :c 3))", "[1 2 3]"],
      ["(sorted-map)", "{}"],
      ["(sorted-map :a 1 :a 2)", "{:a 2}"],
      ["(sorted-set 3 1 2 1)", "#{1 2 3}"],
      ["(vec (sorted-set 30 10 20))", "[10 20 30]"],
      ["(sorted-set)", "#{}"],
    ]);
  });

  test("an odd number of arguments to sorted-map says what to write instead", async () => {
    for (const source of ["(sorted-map :a)", "(sorted-map {:b 1 :a 2})", "(sorted-map :a 1 :b)"]) {
      const error = await failsOnBothEngines(source);
      expect(error.reason, source).toBe("arity_error");
      expect(error.message, source).toContain("sorted-map requires an even number of arguments");
      expect(error.message, source).toContain("(sorted-map k1 v1 k2 v2 ...)");
      expect(error.message, source).toContain("(into (sorted-map) m)");
    }
    expect((await failsOnBothEngines("(sorted-map :a)")).message).toContain("got 1");
  });

  test("into a sorted map or set sorts what is poured in, host data included", async () => {
    await expectAll([
      ["(into (sorted-map) {:c 3 :a 1 :b 2})", "{:a 1 :b 2 :c 3}"],
      ["(into (sorted-map) [[:b 2] [:a 1]])", "{:a 1 :b 2}"],
      ["(keys (into (sorted-map) (frequencies [3 1 3 2 1 3])))", "[1 2 3]"],
      ["(into (sorted-set) [3 1 2 3])", "#{1 2 3}"],
      ['(vec (into (sorted-set) "cab"))', '["a" "b" "c"]'],
    ]);
    expect(
      await onBothEngines("(keys (into (sorted-map) data/scores))", { scores: { b: 2, c: 3, a: 1 } }),
    ).toBe('["a" "b" "c"]');
  });

  test("assoc, dissoc, merge, conj and disj keep the order", async () => {
    await expectAll([
      ["(assoc (sorted-map :c 3) :a 1 :b 2)", "{:a 1 :b 2 :c 3}"],
      ["(keys (dissoc (sorted-map :c 3 :a 1 :b 2) :b))", "[:a :c]"],
      ["(keys (merge (sorted-map :b 2) {:c 3} {:a 1}))", "[:a :b :c]"],
      ["(conj (sorted-map :b 2) [:a 1])", "{:a 1 :b 2}"],
      ["(vec (conj (sorted-set 5 1) 3))", "[1 3 5]"],
      ["(vec (disj (sorted-set 3 1 2) 2))", "[1 3]"],
      ["(seq (update (sorted-map :b 1 :a 2) :a inc))", "[[:a 3] [:b 1]]"],
      ["(reduce (fn [m [k v]] (assoc m k v)) (sorted-map) [[:z 1] [:m 2] [:a 3]])", "{:a 3 :m 2 :z 1}"],
    ]);
  });

  test("printing, seq and iteration follow the sorted order", async () => {
    await expectAll([
      ["(str (sorted-map :b 2 :a 1))", '"{:a 1 :b 2}"'],
      ['(pr-str (sorted-set "b" "a"))', '"#{\\"a\\" \\"b\\"}"'],
      ["(seq (sorted-map :b 2 :a 1))", "[[:a 1] [:b 2]]"],
      ["(map key (sorted-map :b 2 :a 1))", "[:a :b]"],
      ["(first (seq (sorted-set 3 1 2)))", "1"],
      ["(reduce-kv (fn [acc k _] (conj acc k)) [] (sorted-map :c 1 :a 2 :b 3))", "[:a :b :c]"],
      ["(for [x (sorted-set 3 1 2)] (* 10 x))", "[10 20 30]"],
    ]);
  });

  test("keys of mixed types are in term order, which is not Clojure's compare", async () => {
    await expectAll([
      // numbers < nil, booleans, keywords (by name) < maps and sets < vectors < strings
      ['(keys (sorted-map "s" 1 :k 2 3 3 nil 4 [1] 5 true 6))', '[3 :k nil true [1] "s"]'],
      ["(sorted-set nil :z :a)", "#{:a nil :z}"],
      // vectors compare element by element (Clojure compares their lengths first)
      ["(keys (sorted-map [2] :short [1 2 3] :long))", "[[1 2 3] [2]]"],
      // 1 and 1.0 are one key, as they are for compare
      ["(count (sorted-map 1 :a 1.0 :b))", "1"],
    ]);
  });

  test("sorted? stays false: sorted collections are ordinary maps and sets", async () => {
    await expectAll([
      ["(sorted? (sorted-map :a 1))", "false"],
      ["(sorted? (sorted-set 1 2))", "false"],
      ["(sorted? {:a 1})", "false"],
      ["(sorted? #{1 2})", "false"],
      ["(= (sorted-map :b 2 :a 1) {:a 1 :b 2})", "true"],
      ["(= (sorted-set 2 1) #{1 2})", "true"],
      ["(map? (sorted-map))", "true"],
      ["(set? (sorted-set))", "true"],
    ]);
  });

  test("positional access stays refused on maps and sets, sorted or not, with advice", async () => {
    const error = await failsOnBothEngines("(first (sorted-set 3 1 2))");
    expect(error.reason).toBe("type_error");
    expect(error.message).toContain("first does not support sets");
    expect(error.message).toContain("(vec s)");
    expect((await failsOnBothEngines("(first (sorted-map :a 1))")).message).toContain("(entries m)");
  });
});

describe("sort and sort-by over sets", () => {
  test("sort a set's members ascending or by a comparator", async () => {
    await expectAll([
      ["(sort #{3 1 2})", "[1 2 3]"],
      ['(sort #{"pear" "apple" "fig"})', '["apple" "fig" "pear"]'],
      ["(sort > #{3 1 2})", "[3 2 1]"],
      ["(sort :desc #{3 1 2})", "[3 2 1]"],
      ["(sort :asc (set [2.5 1 3]))", "[1 2.5 3]"],
      ["(sort (fn [a b] (compare b a)) #{:a :c :b})", "[:c :b :a]"],
      ["(sort #(> %1 %2) #{10 30 20})", "[30 20 10]"],
      ["(sort #{})", "[]"],
    ]);
  });

  test("items a comparator calls equal keep the set's order", async () => {
    await expectAll([
      ['(sort (fn [a b] (compare (count a) (count b))) #{"bb" "d" "cc" "a"})', '["a" "d" "bb" "cc"]'],
      ['(sort-by count #{"bb" "d" "cc" "a"})', '["a" "d" "bb" "cc"]'],
    ]);
  });

  test("a set of mixed types sorts in term order instead of failing", async () => {
    await expectAll([
      ['(sort #{"b" :a 2 nil [1] 1.5 true {:k 1}})', '[1.5 2 :a nil true {:k 1} [1] "b"]'],
      ['(sort > #{"b" :a 2})', '["b" :a 2]'],
    ]);
  });

  test("sort-by over a set, with and without a comparator", async () => {
    await expectAll([
      ["(sort-by - #{1 2 3})", "[3 2 1]"],
      ["(sort-by identity > #{1 3 2})", "[3 2 1]"],
      ["(sort-by :age #{{:age 30} {:age 20}})", "[{:age 20} {:age 30}]"],
      ["(sort-by :age :desc (set [{:age 30} {:age 20} {:age 25}]))", "[{:age 30} {:age 25} {:age 20}]"],
    ]);
  });

  test("sorting never changes the set", async () => {
    await expectAll([["(let [s #{3 1 2} v (sort > s)] [s v])", "[#{1 2 3} [3 2 1]]"]]);
  });
});
