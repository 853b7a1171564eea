/** map, filter, keep, mapcat, some, every?, take-while, partition-by, sort-by... through `run`. */
import { describe, expect, test } from "vitest";
import { run } from "../run.js";
import { evaluate, failure } from "../test-support.js";

/** A tool that answers asynchronously with its argument map, as a host tool would. */
const echo = { tools: { echo: async (args: Record<string, unknown>) => args } };

describe("map and mapv", () => {
  test("apply the function to each item and return a vector", async () => {
    expect(await evaluate("(map inc [1 2 3])")).toBe("[2 3 4]");
    expect(await evaluate("(mapv #(* % %) [1 2 3])")).toBe("[1 4 9]");
    expect(await evaluate("(map inc nil)")).toBe("[]");
  });

  test("keywords, maps and sets work as the function", async () => {
    expect(await evaluate("(map :a [{:a 1} {:b 2} nil 5])")).toBe("[1 nil nil nil]");
    expect(await evaluate("(map {:a 1 :b 2} [:a :c])")).toBe("[1 nil]");
    expect(await evaluate("(map #{1 2} [1 3])")).toBe("[1 nil]");
  });

  test("keyword lookups on host data are flexible", async () => {
    const context = { rows: [{ user_id: 7 }, { "user-id": 8 }] };
    expect(await evaluate("(map :user-id data/rows)", { context })).toBe("[7 8]");
  });

  test("maps are walked as [key value] entries, strings as characters, sets as members", async () => {
    expect(await evaluate("(map (fn [[k v]] [v k]) {:a 1 :b 2})")).toBe("[[1 :a] [2 :b]]");
    expect(await evaluate('(map str "ab")')).toBe('["a" "b"]');
    expect(await evaluate("(map inc #{1 2})")).toBe("[2 3]");
    expect(await evaluate("(map :a {:a 1})")).toBe("[nil]");
  });

  test("several collections: one item of each, up to the shortest", async () => {
    expect(await evaluate("(map + [1 2 3] [10 20])")).toBe("[11 22]");
    expect(await evaluate('(mapv vector [1 2] [:a :b] ["x" "y"])')).toBe('[[1 :a "x"] [2 :b "y"]]');
    expect(await evaluate("(map + nil [1 2])")).toBe("[]");
    expect(await evaluate('(map vector #{1 2} "ab")')).toBe('[[1 "a"] [2 "b"]]');
  });

  test("a non-collection is a type error naming map", async () => {
    const error = await failure("(map inc 42)");
    expect(error.reason).toBe("type_error");
    expect(error.message).toContain("map expects a collection, got integer 42");
  });

  test("swapped arguments get advice", async () => {
    const error = await failure("(map [1 2] inc)");
    expect(error.reason).toBe("type_error");
    expect(error.message).toContain("arguments look swapped");
  });

  test("a non-callable function argument is a type error", async () => {
    expect((await failure("(map 5 [1 2])")).reason).toBe("type_error");
    expect((await failure("(map nil [1 2])")).message).toContain("got nil");
  });

  test("a builtin of the wrong arity fails when called", async () => {
    const error = await failure("(map + [1] [2] [3] [4])");
    expect(error.reason).toBe("arity_error");
  });

  test("callbacks that call tools run in order and return the results", async () => {
    const result = await run("(map #(:x (tool/echo {:x %})) [1 2 3])", echo);
    expect(result.ok && result.value).toEqual([1, 2, 3]);
    expect(result.toolCalls.map((call) => call.args)).toEqual([{ x: 1 }, { x: 2 }, { x: 3 }]);
    expect(await evaluate("(map #(:x (tool/echo {:x %})) [1 2] [10 20])", echo).catch(String)).toContain(
      "arity",
    );
    expect(await evaluate("(map (fn [a b] (+ a (:x (tool/echo {:x b})))) [1 2] [10 20])", echo)).toBe(
      "[11 22]",
    );
  });

  test("an error after a tool call fails the program with its own reason", async () => {
    const error = await failure("(mapv #(do (tool/echo {:n %}) (/ 1 (- % 2))) [1 2 3])", echo);
    expect(error.reason).toBe("arithmetic_error");
    const partial = await run("(mapv #(do (tool/echo {:n %}) (/ 1 (- % 2))) [1 2 3])", echo);
    expect(partial.toolCalls.length).toBe(2);
  });

  test("a tool call in the middle of a map keeps the items already computed", async () => {
    expect(await evaluate("(mapv #(if (= % 2) (:x (tool/echo {:x 20})) %) [1 2 3])", echo)).toBe("[1 20 3]");
  });
});

describe("filter, filterv and remove", () => {
  test("keep or drop the items by the predicate's truth", async () => {
    expect(await evaluate("(filter even? [1 2 3 4])")).toBe("[2 4]");
    expect(await evaluate("(filterv odd? [1 2 3])")).toBe("[1 3]");
    expect(await evaluate("(remove even? [1 2 3 4])")).toBe("[1 3]");
    expect(await evaluate('(filter identity [0 false nil "" []])')).toBe('[0 "" []]');
  });

  test("keywords and sets as predicates", async () => {
    expect(await evaluate("(filter :active [{:active true :id 1} {:active false :id 2} {:id 3}])")).toBe(
      "[{:active true :id 1}]",
    );
    expect(await evaluate("(filter #{1 2} [1 3 2 4])")).toBe("[1 2]");
    expect(await evaluate('(remove :a "abc")')).toBe('["a" "b" "c"]');
  });

  test("maps are filtered as entries", async () => {
    expect(await evaluate("(filter (fn [[k v]] (> v 1)) {:a 1 :b 2 :c 3})")).toBe("[[:b 2] [:c 3]]");
  });

  test("a non-collection is a type error", async () => {
    expect((await failure("(filter even? 42)")).reason).toBe("type_error");
    expect((await failure("(filter [1 2 3] (fn [x] true))")).message).toContain("swapped");
  });

  test("a vector given as the predicate gets advice", async () => {
    const error = await failure("(filter [:a] [{:a 1}])");
    expect(error.reason).toBe("type_error");
    expect(error.message).toContain("write :a instead of [:a]");
  });

  test("predicates that call tools keep program order", async () => {
    const result = await run("(filter #(:keep (tool/echo {:keep (odd? %) :n %})) [1 2 3 4 5])", echo);
    expect(result.ok && result.value).toEqual([1, 3, 5]);
    expect(result.toolCalls.map((call) => call.args.n)).toEqual([1, 2, 3, 4, 5]);
    expect(await evaluate("(remove #(:v (tool/echo {:v (= % 2)})) [1 2 3])", echo)).toBe("[1 3]");
  });
});

describe("keep, keep-indexed, map-indexed, mapcat", () => {
  test("keep drops nil results but keeps false", async () => {
    expect(await evaluate("(keep #(when (odd? %) (* % 10)) [1 2 3])")).toBe("[10 30]");
    expect(await evaluate("(keep odd? [0 1])")).toBe("[false true]");
    expect(await evaluate("(keep :a [{:a 1} {:b 2}])")).toBe("[1]");
  });

  test("indexed variants pass the index first", async () => {
    expect(await evaluate("(map-indexed (fn [i x] [i x]) [:a :b])")).toBe("[[0 :a] [1 :b]]");
    expect(await evaluate("(map-indexed + [10 20])")).toBe("[10 21]");
    expect(await evaluate("(keep-indexed (fn [i x] (when (odd? i) x)) [:a :b :c :d])")).toBe("[:b :d]");
  });

  test("mapcat concatenates the results; nil contributes nothing", async () => {
    expect(await evaluate("(mapcat (fn [x] [x x]) [1 2])")).toBe("[1 1 2 2]");
    expect(await evaluate("(mapcat (fn [x] (when (odd? x) [x])) [1 2 3])")).toBe("[1 3]");
    expect(await evaluate("(mapcat :tags [{:tags [:a :b]} {:tags :c} {}])")).toBe("[:a :b :c]");
    expect(await evaluate("(mapcat identity nil)")).toBe("[]");
    expect(await evaluate('(mapcat (fn [w] w) ["ab" "c"])')).toBe('["a" "b" "c"]');
  });

  test("mapcat rejects a function that returns a single value", async () => {
    const error = await failure("(mapcat inc [1 2])");
    expect(error.reason).toBe("type_error");
    expect(error.message).toContain("mapcat expects the function to return a collection");
  });

  test("async callbacks", async () => {
    expect(await evaluate("(keep #(:v (tool/echo {:v (when (odd? %) %)})) [1 2 3])", echo)).toBe("[1 3]");
    expect(await evaluate("(map-indexed (fn [i x] (:v (tool/echo {:v (+ i x)}))) [10 10])", echo)).toBe(
      "[10 11]",
    );
    expect(await evaluate("(mapcat #(:v (tool/echo {:v [% %]})) [1 2])", echo)).toBe("[1 1 2 2]");
  });
});

describe("some, every?, not-any?, not-every?", () => {
  test("some returns the first truthy result or nil", async () => {
    expect(await evaluate("(some even? [1 3 4])")).toBe("true");
    expect(await evaluate("(some even? [1 3])")).toBe("nil");
    expect(await evaluate("(some :a [{:a false} {:a 42}])")).toBe("42");
    expect(await evaluate("(some #{2 3} [1 3 2])")).toBe("3");
    expect(await evaluate("(some :a {:a 1})")).toBe("nil");
  });

  test("every? and friends return booleans", async () => {
    expect(await evaluate("[(every? pos? [1 2]) (every? pos? [1 -2]) (every? pos? [])]")).toBe(
      "[true false true]",
    );
    expect(await evaluate("[(not-any? neg? [1 2]) (not-any? neg? [1 -2])]")).toBe("[true false]");
    expect(await evaluate("[(not-every? even? [2 3]) (not-every? even? [2 4])]")).toBe("[true false]");
  });

  test("they stop at the first deciding item, even with tool calls", async () => {
    const result = await run("(some #(when (:hit (tool/echo {:hit (= % 2) :n %})) %) [1 2 3 4])", echo);
    expect(result.ok && result.value).toBe(2);
    expect(result.toolCalls.length).toBe(2);
    const every = await run("(every? #(:ok (tool/echo {:ok (< % 2)})) [1 2 3])", echo);
    expect(every.ok && every.value).toBe(false);
    expect(every.toolCalls.length).toBe(2);
  });
});

describe("take-while, drop-while, split-with, partition-by", () => {
  test("split at the first falsy item", async () => {
    expect(await evaluate("(take-while pos? [2 1 0 3])")).toBe("[2 1]");
    expect(await evaluate("(drop-while pos? [2 1 0 3])")).toBe("[0 3]");
    expect(await evaluate("(split-with pos? [2 1 0 3])")).toBe("[[2 1] [0 3]]");
    expect(await evaluate("(split-with pos? [1 2])")).toBe("[[1 2] []]");
    expect(await evaluate("(take-while :ok nil)")).toBe("[]");
  });

  test("partition-by starts a new run when the key changes", async () => {
    expect(await evaluate("(partition-by odd? [1 3 2 4 5])")).toBe("[[1 3] [2 4] [5]]");
    expect(await evaluate("(partition-by identity [1 1.0 2])")).toBe("[[1 1.0] [2]]");
    expect(await evaluate("(partition-by :k [])")).toBe("[]");
  });

  test("async predicates", async () => {
    expect(await evaluate("(take-while #(:v (tool/echo {:v (< % 3)})) [1 2 3 1])", echo)).toBe("[1 2]");
    expect(await evaluate("(partition-by #(:v (tool/echo {:v (odd? %)})) [1 3 2])", echo)).toBe(
      "[[1 3] [2]]",
    );
  });
});

describe("sort-by", () => {
  test("sorts by a keyword, string, path or function; stable", async () => {
    expect(await evaluate("(sort-by :age [{:age 30 :n 1} {:age 20 :n 2} {:age 30 :n 3}])")).toBe(
      "[{:age 20 :n 2} {:age 30 :n 1} {:age 30 :n 3}]",
    );
    expect(await evaluate('(sort-by "age" [{"age" 3} {"age" 1}])')).toBe('[{"age" 1} {"age" 3}]');
    expect(await evaluate("(sort-by [:a :b] [{:a {:b 2}} {:a {:b 1}}])")).toBe("[{:a {:b 1}} {:a {:b 2}}]");
    expect(await evaluate('(sort-by count ["ccc" "a" "bb"])')).toBe('["a" "bb" "ccc"]');
  });

  test("comparators: < > :asc :desc compare and 2-argument functions", async () => {
    expect(await evaluate("(sort-by :p > [{:p 1} {:p 3} {:p 2}])")).toBe("[{:p 3} {:p 2} {:p 1}]");
    expect(await evaluate("(sort-by :p :desc [{:p 1} {:p 3}])")).toBe("[{:p 3} {:p 1}]");
    expect(await evaluate("(sort-by :p :asc [{:p 3} {:p 1}])")).toBe("[{:p 1} {:p 3}]");
    expect(await evaluate("(sort-by identity compare [3 1 2])")).toBe("[1 2 3]");
    expect(await evaluate("(sort-by identity (fn [a b] (> a b)) [1 3 2])")).toBe("[3 2 1]");
    expect(await evaluate("(sort-by identity #(compare %2 %1) [1 3 2])")).toBe("[3 2 1]");
    expect(await evaluate("(sort-by identity #(- %1 %2) [3 1.5 2])")).toBe("[1.5 2 3]");
  });

  test("descending sorts keep equal keys in their original order", async () => {
    expect(await evaluate("(sort-by :p > [{:p 1 :n 1} {:p 2} {:p 1 :n 2}])")).toBe(
      "[{:p 2} {:n 1 :p 1} {:n 2 :p 1}]",
    );
  });

  test("mixed keys use the total order: numbers before nil", async () => {
    expect(await evaluate("(sort-by :a [{:a nil} {:a 2} {:a 1}])")).toBe("[{:a 1} {:a 2} {:a nil}]");
    expect(await evaluate("(sort-by :a [{:a 2.5} {:a 1} {:a 2}])")).toBe("[{:a 1} {:a 2} {:a 2.5}]");
  });

  test("maps sort as entries, sets as members, strings as characters", async () => {
    expect(await evaluate("(sort-by second {:a 3 :b 1})")).toBe("[[:b 1] [:a 3]]");
    expect(await evaluate("(sort-by - #{1 2 3})")).toBe("[3 2 1]");
    expect(await evaluate('(sort-by identity "cab")')).toBe('["a" "b" "c"]');
    expect(await evaluate("(sort-by :a nil)")).toBe("[]");
  });

  test("the collection before the comparator gets a hint", async () => {
    const error = await failure("(sort-by :k [1 2] >)");
    expect(error.reason).toBe("type_error");
    expect(error.message).toContain("sort-by expects (key, comparator, collection)");
    expect(error.message).toContain("Try: (sort-by :k > collection)");
  });

  test("an invalid comparator is a type error", async () => {
    expect((await failure("(sort-by :a :up [{:a 1}])")).message).toContain("invalid comparator");
    expect((await failure("(sort-by :a 5 [{:a 1}])")).reason).toBe("type_error");
  });

  test("a key function that fails names the item", async () => {
    const error = await failure('(sort-by first [{:day "b"} {:day "a"}])');
    expect(error.reason).toBe("type_error");
    expect(error.message).toContain("sort-by key function failed for item");
  });

  test("key functions and comparators cannot call tools", async () => {
    const error = await failure("(sort-by #(:v (tool/echo {:v %})) [2 1])", echo);
    expect(error.reason).toBe("type_error");
    expect(error.message).toContain("sort-by cannot call tools");
  });

  test("arity is checked", async () => {
    expect((await failure("(sort-by)")).reason).toBe("arity_error");
  });
});

test("large inputs run through the fast paths", async () => {
  const rows = Array.from({ length: 5000 }, (_, i) => ({
    id: i,
    amount: (i * 7919) % 1000,
    region: `r${i % 3}`,
  }));
  expect(await evaluate("(count (filter #(> (:amount %) 500) data/rows))", { context: { rows } })).toBe(
    String(rows.filter((r) => r.amount > 500).length),
  );
  expect(await evaluate("(take 3 (mapv :id (sort-by :amount > data/rows)))", { context: { rows } })).toBe(
    `[${[...rows]
      .sort((a, b) => b.amount - a.amount)
      .slice(0, 3)
      .map((r) => r.id)
      .join(" ")}]`,
  );
});
