import { describe, expect, test } from "vitest";
import { run } from "../run.js";
import { evaluate, failure } from "../test-support.js";

const tools = { echo: async (args: Record<string, unknown>) => args, rows: async () => [3, 1, 2] };

async function expectAll(cases: ReadonlyArray<readonly [string, string]>): Promise<void> {
  for (const [source, expected] of cases) expect(await evaluate(source), source).toBe(expected);
}

describe("access", () => {
  test("first, second, last and nth read vectors and strings, and give nil past the end", async () => {
    await expectAll([
      ["(first [1 2 3])", "1"],
      ["(first [])", "nil"],
      ["(first nil)", "nil"],
      ['(first "héllo")', '"h"'],
      ['(first "")', "nil"],
      ["(second [1])", "nil"],
      ['(second "ab")', '"b"'],
      ["(last [1 2 3])", "3"],
      ["(last [])", "nil"],
      ["(last nil)", "nil"],
      ['(last "hello")', '"o"'],
      ["(nth [1 2 3] 0)", "1"],
      ["(nth [1 2 3] 3)", "nil"],
      ["(nth nil 0)", "nil"],
      ['(nth "hello" 1)', '"e"'],
      ["(nth [1 2 3] 7 :missing)", ":missing"],
    ]);
  });

  test("strings are read by grapheme", async () => {
    await expectAll([
      ['(first "👍🏽ok")', '"👍🏽"'],
      ['(nth "a👍🏽b" 2)', '"b"'],
      ['(last "ok👍🏽")', '"👍🏽"'],
      ['(count "👍🏽👍🏽")', "2"],
      ['(count "e\u0301")', "1"],
      ['(reverse "ab👍🏽")', '["👍🏽" "b" "a"]'],
    ]);
  });

  test("a negative index is out of range rather than counting from the end", async () => {
    await expectAll([
      ["(nth [1 2 3] -1)", "nil"],
      ['(nth "abc" -1)', "nil"],
    ]);
  });

  test("rest, next and butlast return the remaining items, next nil when none remain", async () => {
    await expectAll([
      ["(rest [1 2 3])", "[2 3]"],
      ["(rest [])", "[]"],
      ["(rest nil)", "[]"],
      ['(rest "abc")', '["b" "c"]'],
      ["(next [1 2])", "[2]"],
      ["(next [1])", "nil"],
      ["(next nil)", "nil"],
      ["(butlast [1 2 3])", "[1 2]"],
      ["(butlast [])", "[]"],
      ['(butlast "ab")', '["a"]'],
      ["(ffirst [[1 2] [3]])", "1"],
      ["(fnext [1 2 3])", "2"],
      ["(nfirst [[1 2] [3]])", "[2]"],
      ["(nnext [1 2 3])", "[3]"],
      ["(nnext [1 2])", "nil"],
      ["(ffirst nil)", "nil"],
    ]);
  });

  test("the input vector is never changed", async () => {
    await expectAll([
      ["(let [v [1 2 3]] (rest v) (butlast v) (reverse v) (sort > v) (conj v 4) v)", "[1 2 3]"],
      ["(let [v [3 1 2] s (sort v)] [v s])", "[[3 1 2] [1 2 3]]"],
    ]);
  });

  test("maps and sets are refused by positional access, with advice", async () => {
    for (const source of [
      "(first {:a 1})",
      "(last {:a 1})",
      "(nth {:a 1} 0)",
      "(reverse {:a 1})",
      "(second {:a 1})",
    ]) {
      const error = await failure(source);
      expect(error.reason, source).toBe("type_error");
      expect(error.message, source).toContain(
        "does not support maps (maps are unordered). Use (keys m), (vals m), or (entries m)",
      );
    }
    for (const source of [
      "(first #{1})",
      "(last #{1})",
      "(nth #{1} 0)",
      "(reverse #{1})",
      "(take 1 #{1})",
      "(drop 1 #{1})",
      "(distinct #{1})",
      "(flatten #{1})",
    ]) {
      const error = await failure(source);
      expect(error.reason, source).toBe("type_error");
      expect(error.message, source).toContain("does not support sets (sets are unordered)");
    }
  });

  test("values that are not collections are type errors naming the function", async () => {
    const error = await failure("(first 42)");
    expect(error.reason).toBe("type_error");
    expect(error.message).toBe("first expects a collection, got integer 42");
    expect((await failure("(count :k)")).message).toBe("count expects a collection, got keyword :k");
    expect((await failure("(rest true)")).reason).toBe("type_error");
  });

  test("nth explains a non-integer index and swapped arguments", async () => {
    expect((await failure("(nth [1 2] 1.5)")).message).toContain(
      "nth expects an integer index, got float 1.5",
    );
    expect((await failure("(nth 0 [1 2])")).message).toContain("(nth coll index)");
  });
});

describe("slicing", () => {
  test("take and drop accept vectors, strings, maps (as entries) and nil", async () => {
    await expectAll([
      ["(take 2 [1 2 3])", "[1 2]"],
      ["(take 5 [1 2])", "[1 2]"],
      ["(take 0 [1 2])", "[]"],
      ['(take 3 "hello")', '["h" "e" "l"]'],
      ["(take 1 {:b 2 :a 1})", "[[:a 1]]"],
      ["(take 2 nil)", "[]"],
      ["(drop 1 [1 2 3])", "[2 3]"],
      ["(drop 5 [1 2])", "[]"],
      ['(drop 3 "hello")', '["l" "o"]'],
      ["(drop 1 {:a 1 :b 2})", "[[:b 2]]"],
      ["(drop 1 nil)", "[]"],
    ]);
  });

  test("a negative count takes nothing and drops nothing (not the reference's count-from-the-end)", async () => {
    await expectAll([
      ["(take -1 [1 2 3])", "[]"],
      ['(take -2 "abc")', "[]"],
      ["(drop -1 [1 2 3])", "[1 2 3]"],
    ]);
  });

  test("take requires an integer count and says so", async () => {
    const error = await failure("(take :n [1 2])");
    expect(error.reason).toBe("type_error");
    expect(error.message).toBe("take expects an integer count, got keyword :n; write (take n coll)");
    expect((await failure("(take [1 2] 2)")).message).toContain("(take n coll)");
    expect((await failure("(drop 1.5 [1 2])")).reason).toBe("type_error");
  });

  test("take-last and drop-last count from the end", async () => {
    await expectAll([
      ["(take-last 2 [1 2 3])", "[2 3]"],
      ["(take-last 5 [1 2])", "[1 2]"],
      ["(take-last 0 [1 2])", "[]"],
      ["(take-last -1 [1 2])", "[]"],
      ['(take-last 2 "hello")', '["l" "o"]'],
      ["(drop-last [1 2 3])", "[1 2]"],
      ["(drop-last 2 [1 2 3])", "[1]"],
      ["(drop-last 0 [1 2])", "[1 2]"],
      ["(drop-last 5 [1 2])", "[]"],
      ["(drop-last nil)", "[]"],
      ["(take-last 1 {:a 1 :b 2})", "[[:b 2]]"],
    ]);
  });

  test("nthrest, nthnext and split-at take any collection", async () => {
    await expectAll([
      ["(nthrest [1 2 3] 1)", "[2 3]"],
      ["(nthrest [1 2 3] -1)", "[1 2 3]"],
      ["(nthrest #{1 2 3} 1)", "[2 3]"],
      ["(nthnext [1 2 3] 3)", "nil"],
      ["(nthnext {:a 1 :b 2} 1)", "[[:b 2]]"],
      ["(split-at 1 [1 2 3])", "[[1] [2 3]]"],
      ["(split-at -3 [1 2])", "[[] [1 2]]"],
      ["(split-at 1 #{1 2})", "[[1] [2]]"],
    ]);
  });

  test("partition keeps only full chunks unless padded; partition-all keeps the last one", async () => {
    await expectAll([
      ["(partition 2 [1 2 3 4 5])", "[[1 2] [3 4]]"],
      ["(partition 2 1 [1 2 3])", "[[1 2] [2 3]]"],
      ["(partition 2 3 [1 2 3 4 5 6 7])", "[[1 2] [4 5]]"],
      ["(partition 3 3 [:x :y] [1 2 3 4])", "[[1 2 3] [4 :x :y]]"],
      ["(partition 3 3 [:x :y :z] [1 2 3 4 5])", "[[1 2 3] [4 5 :x]]"],
      ["(partition 3 3 [] [1 2 3 4])", "[[1 2 3] [4]]"],
      ["(partition 3 1 [:p] [1 2 3 4])", "[[1 2 3] [2 3 4] [3 4 :p]]"],
      ["(partition 5 [1 2])", "[]"],
      ['(partition 2 "abcd")', '[["a" "b"] ["c" "d"]]'],
      ["(partition-all 2 [1 2 3])", "[[1 2] [3]]"],
      ["(partition-all 2 3 [1 2 3 4 5 6 7])", "[[1 2] [4 5] [7]]"],
      ["(partition-all 3 1 [1 2 3 4])", "[[1 2 3] [2 3 4] [3 4]]"],
      ["(partition-all 2 3 [1 2])", "[[1 2]]"],
      ["(partition-all 2 nil)", "[]"],
    ]);
  });

  test("partition sizes and steps must be positive integers", async () => {
    for (const source of [
      "(partition 0 [1 2])",
      "(partition -1 [1 2])",
      "(partition 2 0 [1 2])",
      "(partition-all 1.5 [1])",
      "(partition-all :a [1])",
    ]) {
      const error = await failure(source);
      expect(error.reason, source).toBe("type_error");
      expect(error.message, source).toContain("must be a positive integer");
    }
  });

  test("subvec clamps its indices to the vector", async () => {
    await expectAll([
      ["(subvec [0 1 2 3] 1 3)", "[1 2]"],
      ["(subvec [0 1 2 3] 2)", "[2 3]"],
      ["(subvec [0 1 2] -5 2)", "[0 1]"],
      ["(subvec [0 1 2] 1 99)", "[1 2]"],
      ["(subvec [0 1 2] 2 1)", "[]"],
    ]);
    expect((await failure('(subvec "abc" 1)')).reason).toBe("type_error");
  });
});

describe("construction", () => {
  test("conj adds to vectors, sets and maps, and turns nil into a vector", async () => {
    await expectAll([
      ["(conj [1 2] 3 4)", "[1 2 3 4]"],
      ["(conj [1] nil)", "[1 nil]"],
      ["(conj nil 1 2)", "[1 2]"],
      ["(conj #{1} 1 2)", "#{1 2}"],
      ["(conj {:a 1} [:b 2] [:a 3])", "{:a 3 :b 2}"],
      ["(conj {:a 1} {:b 2 :c 3})", "{:a 1 :b 2 :c 3}"],
      ["(conj [1])", "[1]"],
      ["(conj nil)", "nil"],
    ]);
    expect((await failure("(conj)")).reason).toBe("arity_error");
    expect((await failure('(conj "ab" "c")')).reason).toBe("type_error");
    expect((await failure("(conj {:a 1} 5)")).message).toContain("[key value]");
  });

  test("conj builds a vector in a loop", async () => {
    expect(await evaluate("(loop [acc [] i 0] (if (< i 5) (recur (conj acc (* i i)) (inc i)) acc))")).toBe(
      "[0 1 4 9 16]",
    );
  });

  test("into pours any collection into a vector, set or map", async () => {
    await expectAll([
      ["(into [1] [2 3])", "[1 2 3]"],
      ["(into [] #{2 1})", "[1 2]"],
      ["(into [] {:a 1})", "[[:a 1]]"],
      ["(into [] nil)", "[]"],
      ['(into [] "ab")', '["a" "b"]'],
      ["(into #{} [1 1 2])", "#{1 2}"],
      ["(into #{1} {:a 1})", "#{1 [:a 1]}"],
      ["(into {} [[:a 1] [:b 2]])", "{:a 1 :b 2}"],
      ["(into {:a 1} {:a 2 :b 3})", "{:a 2 :b 3}"],
      ["(into {} #{[:k :v]})", "{:k :v}"],
      ["(into {:a 1} nil)", "{:a 1}"],
    ]);
    const entry = await failure("(into {} [[:a 1] [:b]])");
    expect(entry.reason).toBe("type_error");
    expect(entry.message).toContain("a map entry must be a [key value] vector, got vector [:b]");
    expect((await failure("(into nil [1])")).message).toContain("(into [] coll)");
    expect((await failure("(into [] 5)")).reason).toBe("type_error");
  });

  test("into and conj derive program maps from host maps without writing them", async () => {
    const context = { user: { name: "Ada" } };
    expect(await evaluate('(into data/user {:role "admin"})', { context })).toBe(
      '{:role "admin" "name" "Ada"}',
    );
    expect(await evaluate("(conj data/user [:id 1])", { context })).toBe('{:id 1 "name" "Ada"}');
    expect(context.user).toEqual({ name: "Ada" });
  });

  test("concat joins collections; strings are refused", async () => {
    await expectAll([
      ["(concat [1 2] [3])", "[1 2 3]"],
      ["(concat)", "[]"],
      ["(concat nil [1] nil)", "[1]"],
      ["(concat [0] #{2 1} {:a 1})", "[0 1 2 [:a 1]]"],
      ["(concat [1] [2] [3] [4])", "[1 2 3 4]"],
    ]);
    const error = await failure('(concat "ab" "cd")');
    expect(error.reason).toBe("type_error");
    expect(error.message).toContain("concat expects collections, got string");
  });

  test("cons puts an item in front of any collection", async () => {
    await expectAll([
      ["(cons 0 [1 2])", "[0 1 2]"],
      ["(cons 0 nil)", "[0]"],
      ["(cons 0 #{2 1})", "[0 1 2]"],
      ['(cons "x" "ab")', '["x" "a" "b"]'],
      ["(cons :x {:a 1})", "[:x [:a 1]]"],
    ]);
    expect((await failure("(cons 1 2)")).reason).toBe("type_error");
  });

  test("flatten flattens nested vectors only, however deep", async () => {
    await expectAll([
      ["(flatten [1 [2 [3 [4]]] 5])", "[1 2 3 4 5]"],
      ['(flatten [[1 {:a [2]}] #{3} "s"])', '[1 {:a [2]} #{3} "s"]'],
      ["(flatten [])", "[]"],
      ["(flatten nil)", "[]"],
      ["(count (flatten (reduce (fn [acc _] [acc 1]) [] (range 50000))))", "50000"],
    ]);
    expect((await failure("(flatten {:a 1})")).reason).toBe("type_error");
  });

  test("interleave, interpose and zip pair items up to the shorter collection", async () => {
    await expectAll([
      ["(interleave [1 2 3] [:a :b])", "[1 :a 2 :b]"],
      ['(interleave "ab" [1 2])', '["a" 1 "b" 2]'],
      ["(interpose 0 [1 2 3])", "[1 0 2 0 3]"],
      ["(interpose 0 [])", "[]"],
      ["(interpose 0 nil)", "[]"],
      ["(zip [1 2 3] [:a :b])", "[[1 :a] [2 :b]]"],
      ["(zip nil [1])", "[]"],
    ]);
  });

  test("combinations lists every choice in order", async () => {
    await expectAll([
      ["(combinations [1 2 3 4] 2)", "[[1 2] [1 3] [1 4] [2 3] [2 4] [3 4]]"],
      ["(combinations [1 2] 0)", "[[]]"],
      ["(combinations [] 0)", "[[]]"],
      ["(combinations [1 2] 3)", "[]"],
      ["(combinations [1 2] -1)", "[]"],
      ['(combinations "abc" 2)', '[["a" "b"] ["a" "c"] ["b" "c"]]'],
      ["(count (combinations (range 10) 5))", "252"],
    ]);
  });

  test("combinations that would not fit in memory fail before being built", async () => {
    expect((await failure("(combinations (range 60) 30)")).reason).toBe("memory_exceeded");
  });

  test("list, vector and vec build vectors", async () => {
    await expectAll([
      ["(list 1 2)", "[1 2]"],
      ["(list)", "[]"],
      ["(vector 1 nil)", "[1 nil]"],
      ["(apply vector [1 2])", "[1 2]"],
      ["(vec nil)", "nil"],
      ["(vec #{2 1})", "[1 2]"],
      ["(vec {:a 1})", "[[:a 1]]"],
      ['(vec "ab")', '["a" "b"]'],
    ]);
    expect((await failure("(vec 5)")).reason).toBe("type_error");
  });
});

describe("range", () => {
  test("counts up or down by any step, stopping before the end", async () => {
    await expectAll([
      ["(range 3)", "[0 1 2]"],
      ["(range 0)", "[]"],
      ["(range -2)", "[]"],
      ["(range 2 5)", "[2 3 4]"],
      ["(range 0 10 3)", "[0 3 6 9]"],
      ["(range 10 0 -3)", "[10 7 4 1]"],
      ["(range 0 10 -1)", "[]"],
      ["(range 0 10 0)", "[]"],
    ]);
  });

  test("float steps keep the integer start and add up as the reference does", async () => {
    await expectAll([
      ["(range 1 2 0.25)", "[1 1.25 1.5 1.75]"],
      ["(range 0.0 3)", "[0.0 1.0 2.0]"],
      ["(range 5 0 -1.5)", "[5 3.5 2.0 0.5]"],
      ["(range 0 0.3 0.1)", "[0 0.1 0.2]"],
      ["(range 2.5)", "[0 1 2]"],
    ]);
  });

  test("non-numeric bounds give an empty range", async () => {
    expect(await evaluate('(range "5")')).toBe("[]");
  });

  test("big integers stay exact", async () => {
    expect(await evaluate("(range 9007199254740993 9007199254740996)")).toBe(
      "[9007199254740993 9007199254740994 9007199254740995]",
    );
  });

  test("a range too large for the memory budget fails at once", async () => {
    for (const source of ["(range 1e9)", "(range 1000000000)", "(range 0 1 1e-12)", "(range ##Inf)"]) {
      const error = await failure(source);
      expect(error.reason, source).toBe("memory_exceeded");
    }
  });

  test("needs one to three arguments", async () => {
    expect((await failure("(range)")).reason).toBe("arity_error");
  });
});

describe("emptiness, counting and seq", () => {
  test("count counts items of any collection, 0 for nil", async () => {
    await expectAll([
      ["(count [1 2])", "2"],
      ["(count {:a 1})", "1"],
      ["(count #{1 2 3})", "3"],
      ['(count "café")', "4"],
      ["(count nil)", "0"],
    ]);
    const error = await failure("(count 42)");
    expect(error.reason).toBe("type_error");
  });

  test("empty?, not-empty, empty and seq agree on what is empty", async () => {
    await expectAll([
      ["(empty? [])", "true"],
      ["(empty? nil)", "true"],
      ['(empty? "")', "true"],
      ["(empty? #{})", "true"],
      ["(empty? {:a 1})", "false"],
      ["(not-empty [1])", "[1]"],
      ['(not-empty "")', "nil"],
      ["(not-empty {})", "nil"],
      ["(empty [1])", "[]"],
      ["(empty #{1})", "#{}"],
      ["(empty {:a 1})", "{}"],
      ['(empty "abc")', '""'],
      ["(empty nil)", "nil"],
      ["(seq [1])", "[1]"],
      ["(seq [])", "nil"],
      ["(seq nil)", "nil"],
      ['(seq "ab")', '["a" "b"]'],
      ["(seq #{2 1})", "[1 2]"],
      ["(seq {:b 2 :a 1})", "[[:a 1] [:b 2]]"],
    ]);
    expect((await failure("(empty? 5)")).reason).toBe("type_error");
    expect((await failure("(seq 5)")).reason).toBe("type_error");
    expect((await failure("(empty 5)")).reason).toBe("type_error");
  });

  test("peek and pop treat a vector as a stack", async () => {
    await expectAll([
      ["(peek [1 2])", "2"],
      ["(peek [])", "nil"],
      ["(peek nil)", "nil"],
      ["(pop [1 2])", "[1]"],
      ["(pop [1])", "[]"],
      ["(pop [])", "nil"],
      ["(pop nil)", "nil"],
    ]);
    expect((await failure('(peek "ab")')).reason).toBe("type_error");
    expect((await failure("(pop {:a 1})")).reason).toBe("type_error");
  });
});

describe("reverse, distinct, dedupe", () => {
  test("reverse, distinct and dedupe keep the item types", async () => {
    await expectAll([
      ["(reverse [1 2 3])", "[3 2 1]"],
      ["(reverse nil)", "[]"],
      ["(distinct [1 2 1 3 2])", "[1 2 3]"],
      ['(distinct "abca")', '["a" "b" "c"]'],
      ["(distinct [[1] [1] {:a 1} {:a 1}])", "[[1] {:a 1}]"],
      ["(distinct {:a 1 :b 1})", "[[:a 1] [:b 1]]"],
      ["(distinct nil)", "[]"],
      ["(dedupe [1 1 2 1 1])", "[1 2 1]"],
      ['(dedupe "aab")', '["a" "b"]'],
      ["(dedupe nil)", "[]"],
    ]);
  });

  test("distinct? compares its arguments by =", async () => {
    await expectAll([
      ["(distinct? 1)", "true"],
      ["(distinct? 1 2)", "true"],
      ["(distinct? [1] [1])", "false"],
      ["(distinct? :a :b :a)", "false"],
    ]);
  });
});

describe("sort", () => {
  test("sorts numbers, strings, mixed values and map entries in natural order", async () => {
    await expectAll([
      ["(sort [3 1 2])", "[1 2 3]"],
      ["(sort [2.5 1 -3])", "[-3 1 2.5]"],
      ['(sort ["b" "a" "c"])', '["a" "b" "c"]'],
      ['(sort [3 "a" 1 nil :k])', '[1 3 :k nil "a"]'],
      ['(sort "dcba")', '["a" "b" "c" "d"]'],
      ["(sort {:b 1 :a 2})", "[[:a 2] [:b 1]]"],
      ["(sort [[2 1] [1 2] [1 1]])", "[[1 1] [1 2] [2 1]]"],
      ["(sort [])", "[]"],
      ["(sort nil)", "[]"],
    ]);
  });

  test("accepts <, >, compare, :asc, :desc and comparator functions", async () => {
    await expectAll([
      ["(sort > [1 3 2])", "[3 2 1]"],
      ["(sort < [1 3 2])", "[1 2 3]"],
      ["(sort >= [1 3 2])", "[3 2 1]"],
      ['(sort compare ["b" "a"])', '["a" "b"]'],
      ["(sort :desc [1 3 2])", "[3 2 1]"],
      ["(sort :asc [1 3 2])", "[1 2 3]"],
      ["(sort (fn [a b] (> a b)) [1 3 2])", "[3 2 1]"],
      ["(sort (fn [a b] (- b a)) [1 3 2])", "[3 2 1]"],
      ["(sort #(compare (count %1) (count %2)) [[1 2] [] [1]])", "[[] [1] [1 2]]"],
    ]);
  });

  test("is stable for items the comparator considers equal", async () => {
    expect(await evaluate("(sort (fn [a b] (< (first a) (first b))) [[1 :x] [0 :y] [1 :z] [0 :w]])")).toBe(
      "[[0 :y] [0 :w] [1 :x] [1 :z]]",
    );
    expect(await evaluate("(sort (fn [a b] (<= (first a) (first b))) [[1 :x] [0 :y] [1 :z] [0 :w]])")).toBe(
      "[[0 :y] [0 :w] [1 :x] [1 :z]]",
    );
  });

  test("rejects bad comparators and swapped arguments with advice", async () => {
    const swapped = await failure("(sort [3 1 2] >)");
    expect(swapped.reason).toBe("type_error");
    expect(swapped.message).toContain("(sort comparator coll)");
    expect((await failure("(sort :size [1 2])")).message).toContain("invalid comparator :size");
    expect((await failure("(sort 5 [1 2])")).reason).toBe("type_error");
  });

  test("a comparator may not call tools", async () => {
    const error = await failure("(sort (fn [a b] (:ok (tool/echo {:ok (< a b)}))) [2 1])", { tools });
    expect(error.reason).toBe("type_error");
    expect(error.message).toContain("sort cannot call tools");
  });

  test("sorts and slices tool results after the calls complete", async () => {
    expect(await evaluate("(take 2 (sort > (tool/rows {})))", { tools })).toBe("[3 2]");
    expect(await evaluate("(count (conj (tool/rows {}) (first (tool/rows {}))))", { tools })).toBe("4");
  });

  test("sorting is charged to the memory budget", async () => {
    const result = await run("(sort (range 100000))", { limits: { maxMemoryBytes: 1_000_000 } });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.reason).toBe("memory_exceeded");
  });
});
