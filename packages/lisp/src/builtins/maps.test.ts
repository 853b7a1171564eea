/** Map builtins through the public API: flexible reads, derived writes, errors, tool callbacks. */
import { describe, expect, test } from "vitest";
import { format } from "../format/format.js";
import { toJson } from "../format/to-json.js";
import { run } from "../run.js";
import { evaluate, failure } from "../test-support.js";

const echo = { tools: { echo: async (args: Record<string, unknown>) => args } };
const users = { context: { user: { user_id: 7, name: "Ann", tags: ["a", "b"] } } };

describe("get and get-in", () => {
  test("read maps flexibly, vectors by index, nil as empty", async () => {
    expect(await evaluate("(get {:a 1} :a)")).toBe("1");
    expect(await evaluate('(get {"a" 1} :a)')).toBe("1");
    expect(await evaluate('(get {:a 1} "a")')).toBe("1");
    expect(await evaluate("(get data/user :user-id)", users)).toBe("7");
    expect(await evaluate("(get [10 20 30] 2)")).toBe("30");
    expect(await evaluate("(get nil :a)")).toBe("nil");
  });

  test("missing keys and bad indices give nil or the default", async () => {
    expect(await evaluate("(get {:a 1} :b)")).toBe("nil");
    expect(await evaluate("(get {:a 1} :b 0)")).toBe("0");
    expect(await evaluate("(get [1 2] 5 :none)")).toBe(":none");
    expect(await evaluate("(get [1 2] -1)")).toBe("nil");
    expect(await evaluate("(get [1 2] 1.0)")).toBe("nil");
    expect(await evaluate("(get nil :a 3)")).toBe("3");
  });

  test("a stored nil is returned, not the default", async () => {
    expect(await evaluate("(get {:a nil} :a 5)")).toBe("nil");
  });

  test("a vector key reads as a path unless the map has that exact key", async () => {
    expect(await evaluate("(get {:a {:b 1}} [:a :b])")).toBe("1");
    expect(await evaluate("(get {[1 2] :x} [1 2])")).toBe(":x");
  });

  test("swapped arguments and non-associative collections are errors with advice", async () => {
    const swapped = await failure('(get :status {"status" "ok"})');
    expect(swapped.reason).toBe("type_error");
    expect(swapped.message).toContain("get expects the collection first");
    const set = await failure("(get #{1 2} 1)");
    expect(set.reason).toBe("type_error");
    expect(set.message).toContain("contains?");
    expect((await failure('(get "abc" 0)')).message).toContain("nth");
    expect((await failure("(get-in [:a :b] {:a {:b 1}})")).message).toContain(
      "get-in expects the collection first",
    );
    expect((await failure("(get)")).reason).toBe("arity_error");
  });

  test("get-in walks maps and vectors, with a default for missing or nil values", async () => {
    expect(await evaluate("(get-in {:rows [{:id 7}]} [:rows 0 :id])")).toBe("7");
    expect(await evaluate("(get-in data/user [:tags 1])", users)).toBe('"b"');
    expect(await evaluate("(get-in [[1 2] [3 4]] [1 0])")).toBe("3");
    expect(await evaluate("(get-in [1 2 3] [10])")).toBe("nil");
    expect(await evaluate("(get-in {:a {:b 1}} [:a :c] :none)")).toBe(":none");
    expect(await evaluate("(get-in {:a nil} [:a] 5)")).toBe("5");
    expect(await evaluate("(get-in {:a 1} [])")).toBe("{:a 1}");
    expect(await evaluate("(get-in {:a 1} [:a :b :c])")).toBe("nil");
    expect((await failure("(get-in 5 [:a])")).reason).toBe("type_error");
  });
});

describe("assoc, assoc-in, dissoc", () => {
  test("assoc adds or replaces keys and pairs; nil is an empty map", async () => {
    expect(await evaluate("(assoc {:a 1} :b 2)")).toBe("{:a 1 :b 2}");
    expect(await evaluate("(assoc {:a 1} :a 2 :c 3)")).toBe("{:a 2 :c 3}");
    expect(await evaluate("(assoc nil :a 1)")).toBe("{:a 1}");
  });

  test("assoc never changes its input", async () => {
    expect(await evaluate("(let [m {:a 1} n (assoc m :b 2)] [m n])")).toBe("[{:a 1} {:a 1 :b 2}]");
    expect(await evaluate("(let [v [1 2] w (assoc v 0 9)] [v w])")).toBe("[[1 2] [9 2]]");
    const result = await run('(assoc data/user :name "Bo")', users);
    expect(result.ok && format(result.value)).toBe('{"name" "Bo" "tags" ["a" "b"] "user_id" 7}');
    expect(users.context.user.name).toBe("Ann");
  });

  test("assoc writes the key a flexible read finds", async () => {
    expect(await evaluate('(assoc {"a" 1} :a 2)')).toBe('{"a" 2}');
    expect(await evaluate("(assoc data/user :user-id 8)", users)).toBe(
      '{"name" "Ann" "tags" ["a" "b"] "user_id" 8}',
    );
  });

  test("assoc on vectors replaces an index or appends at the end", async () => {
    expect(await evaluate("(assoc [1 2 3] 1 :x)")).toBe("[1 :x 3]");
    expect(await evaluate("(assoc [1 2] 2 3)")).toBe("[1 2 3]");
    expect(await evaluate("(assoc [] 0 1)")).toBe("[1]");
    const outside = await failure("(assoc [1 2] 5 3)");
    expect(outside.reason).toBe("runtime_error");
    expect(outside.message).toContain("out of bounds");
    expect((await failure("(assoc [1 2] :a 3)")).reason).toBe("type_error");
  });

  test("assoc rejects non-collections and a key without a value", async () => {
    expect((await failure("(assoc 5 :a 1)")).reason).toBe("type_error");
    expect((await failure("(assoc {} :a 1 :b)")).reason).toBe("arity_error");
    expect((await failure("(assoc {} :a)")).reason).toBe("arity_error");
  });

  test("assoc-in creates missing maps and appends to vectors", async () => {
    expect(await evaluate('(assoc-in {} [:user :name] "Bob")')).toBe('{:user {:name "Bob"}}');
    expect(await evaluate("(assoc-in {:a nil} [:a :b] 1)")).toBe("{:a {:b 1}}");
    expect(await evaluate("(assoc-in [[1 2] [3 4]] [0 1] 99)")).toBe("[[1 99] [3 4]]");
    expect(await evaluate("(assoc-in [1] [1 :a] 2)")).toBe("[1 {:a 2}]");
    expect(await evaluate("(assoc-in nil [:a] 1)")).toBe("{:a 1}");
    expect(await evaluate("(assoc-in {:a 1} [] 2)")).toBe("2");
  });

  test("assoc-in follows flexible keys on the way down", async () => {
    expect(await evaluate('(assoc-in {"user" {"name" "A"}} [:user :name] "B")')).toBe(
      '{"user" {"name" "B"}}',
    );
  });

  test("assoc-in cannot walk into a scalar or past the end of a vector", async () => {
    const scalar = await failure("(assoc-in {:a 5} [:a :b] 1)");
    expect(scalar.reason).toBe("runtime_error");
    expect(scalar.message).toContain("cannot go into integer 5");
    expect((await failure("(assoc-in [1] [3] 2)")).message).toContain("out of bounds");
  });

  test("dissoc removes keys (flexibly), keeps nil as nil", async () => {
    expect(await evaluate("(dissoc {:a 1 :b 2 :c 3} :a :c)")).toBe("{:b 2}");
    expect(await evaluate("(dissoc {:a 1} :missing)")).toBe("{:a 1}");
    expect(await evaluate('(dissoc {"password" "x" "user" "u"} :password)')).toBe('{"user" "u"}');
    expect(await evaluate("(dissoc {:a 1})")).toBe("{:a 1}");
    expect(await evaluate("(dissoc nil :a)")).toBe("nil");
    expect((await failure("(dissoc [1 2] 0)")).message).toContain("dissoc expects a map");
  });
});

describe("update and update-in", () => {
  test("update applies the function with extra arguments", async () => {
    expect(await evaluate("(update {:n 1} :n inc)")).toBe("{:n 2}");
    expect(await evaluate("(update {:n 1} :n + 5 10)")).toBe("{:n 16}");
    expect(await evaluate("(update {} :n (fnil inc 0))")).toBe("{:n 1}");
    expect(await evaluate("(update {:n nil} :n (fnil + 0) 5)")).toBe("{:n 5}");
    expect(await evaluate("(update [1 2 3] 1 inc)")).toBe("[1 3 3]");
    expect(await evaluate("(update nil :n (fnil inc 0))")).toBe("{:n 1}");
  });

  test("update changes the key that holds the value, not a twin", async () => {
    expect(await evaluate('(update {"n" 1} :n inc)')).toBe('{"n" 2}');
    expect(await evaluate("(update data/user :user-id inc)", users)).toBe(
      '{"name" "Ann" "tags" ["a" "b"] "user_id" 8}',
    );
  });

  test("a default passed as an extra argument gets advice", async () => {
    const error = await failure("(update {:n 1} :n inc 0)");
    expect(error.reason).toBe("arity_error");
    expect(error.message).toContain("fnil");
    expect((await failure("(update-in {:n 1} [:n] (fn [x] x) 0)")).message).toContain("fnil");
  });

  test("update rejects bad collections and indices", async () => {
    expect((await failure("(update 5 :a inc)")).reason).toBe("type_error");
    expect((await failure("(update [1 2] 2 inc)")).message).toContain("out of bounds");
    expect((await failure("(update {:a 1} :a 5)")).reason).toBe("type_error");
  });

  test("update-in creates missing maps, walks vectors, and treats an empty path as the root", async () => {
    expect(await evaluate("(update-in {:a {:b 1}} [:a :b] + 10)")).toBe("{:a {:b 11}}");
    expect(await evaluate("(update-in {} [:stats :count] (fnil inc 0))")).toBe("{:stats {:count 1}}");
    expect(await evaluate("(update-in {:a {}} [:a :b] (fn [v] (if v (inc v) 0)))")).toBe("{:a {:b 0}}");
    expect(await evaluate("(update-in [[1 2] [3 4]] [1 0] inc)")).toBe("[[1 2] [4 4]]");
    expect(await evaluate("(update-in {:a [1 2]} [] count)")).toBe("1");
    expect((await failure("(update-in [1 2] [2] inc)")).message).toContain("out of bounds");
  });

  test("update-in writes through flexible keys at every level", async () => {
    expect(await evaluate('(update-in {"a" {"b" 1}} [:a :b] inc)')).toBe('{"a" {"b" 2}}');
  });

  test("callbacks may call tools", async () => {
    expect(await evaluate("(update {:n 1} :n (fn [x] (:v (tool/echo {:v (inc x)}))))", echo)).toBe("{:n 2}");
    expect(
      await evaluate("(update-in {:a [{:n 1}]} [:a 0 :n] (fn [x] (:v (tool/echo {:v (* x 10)}))))", echo),
    ).toBe("{:a [{:n 10}]}");
    expect(await evaluate("(update [1 2] 0 (fn [x] (:v (tool/echo {:v (- x)}))))", echo)).toBe("[-1 2]");
  });
});

describe("merge and merge-with", () => {
  test("later maps win; nil arguments are skipped", async () => {
    expect(await evaluate("(merge {:a 1} {:b 2} {:a 3})")).toBe("{:a 3 :b 2}");
    expect(await evaluate("(merge nil {:a 1} nil {:b 2})")).toBe("{:a 1 :b 2}");
    expect(await evaluate("(merge nil nil)")).toBe("{}");
    expect(await evaluate("(merge)")).toBe("{}");
    expect(await evaluate("(merge data/user {:age 3})", users)).toBe(
      '{:age 3 "name" "Ann" "tags" ["a" "b"] "user_id" 7}',
    );
  });

  test("non-map arguments are type errors naming the argument", async () => {
    const error = await failure("(merge {:a 1} [1 2])");
    expect(error.reason).toBe("type_error");
    expect(error.message).toContain("argument 2");
    expect((await failure("(merge :x {})")).reason).toBe("type_error");
  });

  test("merge-with combines values of shared keys", async () => {
    expect(await evaluate("(merge-with + {:a 1 :b 2} {:a 3 :c 4})")).toBe("{:a 4 :b 2 :c 4}");
    expect(await evaluate("(merge-with + {:a 1} {:a 2} {:a 3})")).toBe("{:a 6}");
    expect(await evaluate("(merge-with conj {:a [1]} {:a [2]})")).toBe("{:a [1 [2]]}");
    expect(await evaluate("(merge-with + nil {:a 1})")).toBe("{:a 1}");
    expect(await evaluate("(merge-with +)")).toBe("{}");
    expect((await failure("(merge-with)")).reason).toBe("arity_error");
    expect((await failure("(merge-with + {:a 1} 5)")).reason).toBe("type_error");
  });

  test("merge-with of one one-entry map into another map takes its short path, with the long path's answers", async () => {
    const { mergeWithStats } = await import("./merge-with.js");
    const { accumulatorCallStats } = await import("../compiler/accumulator-calls.js");
    const tiered = {
      context: {
        tiered: [{ tier: "a" }, { tier: "b" }],
        rows: [
          { k: "x", v: 1 },
          { k: "x", v: 2 },
        ],
      },
    };
    const pairs: [string, string][] = [
      ["(merge-with + {:a 1} {:a 2})", "(merge-with + {:a 1} {:a 2} {})"],
      ["(merge-with + {:a 1} {:b 2})", "(merge-with + {:a 1} {:b 2} {})"],
      ['(merge-with str {"tier" "x"} {:tier "+"})', '(merge-with str {"tier" "x"} {:tier "+"} {})'],
      ["(merge-with + {:a nil} {:a 2})", "(merge-with + {:a nil} {:a 2} {})"],
      [
        "(merge-with (fn [a b] [a b]) (first data/tiered) {:tier 0})",
        "(merge-with (fn [a b] [a b]) (first data/tiered) {:tier 0} {})",
      ],
      [
        "(reduce (fn [acc r] (merge-with + acc {(:k r) (:v r)})) {} data/rows)",
        "(reduce (fn [acc r] (merge-with + acc {(:k r) (:v r)} {})) {} data/rows)",
      ],
      ['(merge-with + {:a 1} {:a "s"})', '(merge-with + {:a 1} {:a "s"} {})'],
    ];
    for (const [short, long] of pairs) {
      const before = mergeWithStats.oneEntry + accumulatorCallStats.mergeEntry;
      // On the general evaluator: generated code may build or fold these maps its own way (CI
      // runs this file again on generated code up front), and then the builtin's path is not asked.
      // A literal one-entry map is folded without being built (compiler/accumulator-calls.ts).
      const shortResult = await run(short, { ...tiered, engine: "general" });
      const taken = mergeWithStats.oneEntry + accumulatorCallStats.mergeEntry - before;
      const longResult = await run(long, tiered);
      const shown = (result: typeof shortResult) => (result.ok ? format(result.value) : result.error.reason);
      expect(shown(shortResult), short).toBe(shown(longResult));
      expect(taken, short).toBeGreaterThan(0);
    }
    expect(await evaluate("(merge-with + {:a 1} {:a 2})")).toBe("{:a 3}");
  });

  test("merge-with of many maps combines each value where its lookup found the key, as a fold of merge-with does", async () => {
    const { mergeWithStats } = await import("./merge-with.js");
    // Keys of every kind a builder holds: keywords, strings (a string key meets its keyword
    // twin by the write rule), numbers, 1 and 1.0 (one key), vectors (composite), and more than
    // FLAT_LIMIT of them, so the builder moves from pairs to a JS Map midway.
    const rows = Array.from({ length: 60 }, (_, i) => ({ k: i % 12, v: i }));
    const context = { context: { rows } };
    const programs: [string, string][] = [
      [
        "(apply merge-with + (map (fn [r] {(:k r) (:v r)}) data/rows))",
        "(reduce (fn [acc r] (merge-with + acc {(:k r) (:v r)})) {} data/rows)",
      ],
      [
        '(apply merge-with + (map (fn [r] {(if (even? (:k r)) (keyword (str "k" (:k r))) (str "k" (:k r))) (:v r)}) data/rows))',
        '(reduce (fn [acc r] (merge-with + acc {(if (even? (:k r)) (keyword (str "k" (:k r))) (str "k" (:k r))) (:v r)})) {} data/rows)',
      ],
      [
        "(apply merge-with conj (map (fn [r] {[(mod (:k r) 3)] [(:v r)]}) data/rows))",
        "(reduce (fn [acc r] (merge-with conj acc {[(mod (:k r) 3)] [(:v r)]})) {} data/rows)",
      ],
      [
        "(apply merge-with + (map (fn [r] {(if (even? (:v r)) 1 1.0) (:v r)}) data/rows))",
        "(reduce (fn [acc r] (merge-with + acc {(if (even? (:v r)) 1 1.0) (:v r)})) {} data/rows)",
      ],
      [
        '(apply merge-with + {:a 1} (map (fn [_] {"a" 2}) (range 40)))',
        '(reduce (fn [acc m] (merge-with + acc m)) {:a 1} (map (fn [_] {"a" 2}) (range 40)))',
      ],
    ];
    for (const [many, fold] of programs) {
      for (const engine of ["general", undefined] as const) {
        const before = mergeWithStats.foundInPlace;
        const result = await run(many, engine === undefined ? context : { ...context, engine });
        const taken = mergeWithStats.foundInPlace - before;
        const expected = await run(fold, { ...context, engine: "general" });
        const shown = (r: typeof result) => (r.ok ? format(r.value) : r.error.reason);
        expect(shown(result), many).toBe(shown(expected));
        expect(taken, many).toBeGreaterThan(0);
      }
    }
  });

  test("merge-with callbacks may call tools, in order", async () => {
    const calls: unknown[] = [];
    const tools = {
      tools: {
        pick: async (args: Record<string, unknown>) => {
          calls.push(args.b);
          return args.b;
        },
      },
    };
    expect(
      await evaluate("(merge-with (fn [a b] (tool/pick {:a a :b b})) {:x 1 :y 2} {:x 10 :y 20 :z 3})", tools),
    ).toBe("{:x 10 :y 20 :z 3}");
    expect(calls).toEqual([10, 20]);
  });
});

describe("keys, vals, entries, select-keys, key, val", () => {
  test("keys, vals and entries are vectors in key order; nil stays nil", async () => {
    expect(await evaluate("(keys {:b 1 :a 2})")).toBe("[:a :b]");
    expect(await evaluate("(vals {:b 1 :a 2})")).toBe("[2 1]");
    expect(await evaluate("(entries {:b 1 :a 2})")).toBe("[[:a 2] [:b 1]]");
    expect(await evaluate("(keys {})")).toBe("[]");
    expect(await evaluate("(keys (:missing {:a 1}))")).toBe("nil");
    expect(await evaluate("(vals nil)")).toBe("nil");
    expect(await evaluate("(entries nil)")).toBe("nil");
    expect(await evaluate("(keys data/user)", users)).toBe('["name" "tags" "user_id"]');
  });

  test("keys and vals of a non-map are type errors", async () => {
    expect((await failure("(keys [1 2])")).reason).toBe("type_error");
    expect((await failure('(vals "ab")')).reason).toBe("type_error");
  });

  test("select-keys finds keys flexibly and stores them as asked", async () => {
    expect(await evaluate("(select-keys {:a 1 :b 2 :c 3} [:a :c :z])")).toBe("{:a 1 :c 3}");
    expect(await evaluate("(select-keys data/user [:name :user-id])", users)).toBe(
      '{:name "Ann" :user-id 7}',
    );
    expect(await evaluate("(select-keys {:a nil} [:a])")).toBe("{:a nil}");
    expect(await evaluate("(select-keys nil [:a])")).toBe("{}");
    expect((await failure("(select-keys [1 2] [0])")).reason).toBe("type_error");
  });

  test("key and val take map entries", async () => {
    expect(await evaluate("(key [:a 1])")).toBe(":a");
    expect(await evaluate("(val [:a 1])")).toBe("1");
    expect(await evaluate("(map key {:b 1 :a 2})")).toBe("[:a :b]");
    expect(await evaluate("(key (apply max-key val (seq {:a 10 :b 42 :c 7})))")).toBe(":b");
    expect((await failure("(key nil)")).reason).toBe("type_error");
    expect((await failure("(val [1 2 3])")).reason).toBe("type_error");
  });
});

describe("update-vals and update-keys", () => {
  test("transform every value or key", async () => {
    expect(await evaluate("(update-vals {:a 1 :b 2} inc)")).toBe("{:a 2 :b 3}");
    expect(await evaluate("(update-keys {:a 1 :b 2} name)")).toBe('{"a" 1 "b" 2}');
    expect(await evaluate("(update-vals {} count)")).toBe("{}");
    expect(await evaluate("(update-keys nil str)")).toBe("nil");
    expect(await evaluate("(update-vals nil inc)")).toBe("nil");
  });

  test("swapped arguments get the thread-first advice", async () => {
    const error = await failure("(->> {:a [1]} (update-vals count))");
    expect(error.reason).toBe("type_error");
    expect(error.message).toContain("update-vals expects (map, function)");
    expect((await failure("(update-keys str {:a 1})")).message).toContain(
      "update-keys expects (map, function)",
    );
  });

  test("callbacks may call tools", async () => {
    expect(await evaluate("(update-vals {:a 1 :b 2} (fn [v] (:v (tool/echo {:v (* v 10)}))))", echo)).toBe(
      "{:a 10 :b 20}",
    );
    expect(await evaluate("(update-keys {:a 1} (fn [k] (:v (tool/echo {:v (name k)}))))", echo)).toBe(
      '{"a" 1}',
    );
  });
});

describe("zipmap, hash-map, array-map", () => {
  test("zipmap pairs keys and values up to the shorter", async () => {
    expect(await evaluate("(zipmap [:a :b :c] [1 2 3])")).toBe("{:a 1 :b 2 :c 3}");
    expect(await evaluate("(zipmap [:a :b] [1 2 3])")).toBe("{:a 1 :b 2}");
    expect(await evaluate('(zipmap "ab" [1 2])')).toBe('{"a" 1 "b" 2}');
    expect(await evaluate("(zipmap [] [])")).toBe("{}");
    expect((await failure("(zipmap 1 [2])")).reason).toBe("type_error");
  });

  test("hash-map and array-map build maps from pairs", async () => {
    expect(await evaluate("(hash-map :a 1 :b 2)")).toBe("{:a 1 :b 2}");
    expect(await evaluate("(array-map)")).toBe("{}");
  });

  test("an odd number of arguments is a clean arity error", async () => {
    const error = await failure("(hash-map :a 1 :b)");
    expect(error.reason).toBe("arity_error");
    expect(error.message).toContain("even number of arguments");
    expect((await failure("(array-map :a)")).reason).toBe("arity_error");
  });
});

describe("find", () => {
  test("returns the first item the predicate accepts", async () => {
    expect(await evaluate("(find even? [1 3 4 6])")).toBe("4");
    expect(await evaluate("(find #{2 4} #{1 2 3})")).toBe("2");
    expect(await evaluate('(find #{"b" "c"} "abc")')).toBe('"b"');
    expect(await evaluate("(find :a #{{:b 2} {:a 1}})")).toBe("{:a 1}");
    expect(await evaluate("(find (fn [[k v]] (> v 1)) {:a 1 :b 2})")).toBe("[:b 2]");
  });

  test("nil when nothing matches", async () => {
    expect(await evaluate("(find even? [1 3])")).toBe("nil");
    expect(await evaluate("(find :a {:a 1 :b 2})")).toBe("nil");
    expect(await evaluate("(find even? nil)")).toBe("nil");
    expect((await failure("(find even? 5)")).reason).toBe("type_error");
  });

  test("the predicate may call tools and stops at the first match", async () => {
    const seen: unknown[] = [];
    const tools = {
      tools: {
        check: async (args: Record<string, unknown>) => {
          seen.push(args.x);
          return (args.x as number) > 1;
        },
      },
    };
    expect(await evaluate("(find (fn [x] (tool/check {:x x})) [1 2 3])", tools)).toBe("2");
    expect(seen).toEqual([1, 2]);
  });
});

describe("one rule for every write to a map: a key replaces its flexible twin", () => {
  // A tool result arrives with string keys; the program writes keywords. Whatever function
  // writes, the host must get the new value, and the map must hold one key, not two.
  const customer = {
    tools: { customer: () => ({ tier: "free", name: "A", user_id: 7 }) },
  };
  const written = async (source: string) => {
    const result = await run(source, customer);
    if (!result.ok) throw new Error(result.error.message);
    return { text: format(result.value), json: toJson(result.value) };
  };

  test.each([
    ["assoc", '(assoc (tool/customer {}) :tier "ent")'],
    ["merge", '(merge (tool/customer {}) {:tier "ent"})'],
    ["merge, several maps", '(merge (tool/customer {}) {:x 1} {:tier "ent"})'],
    ["conj of an entry", '(conj (tool/customer {}) [:tier "ent"])'],
    ["conj of a map", '(conj (tool/customer {}) {:tier "ent"})'],
    ["into from a map", '(into (tool/customer {}) {:tier "ent"})'],
    ["into from entries", '(into (tool/customer {}) [[:tier "ent"]])'],
    ["merge-with", '(merge-with (fn [_ b] b) (tool/customer {}) {:tier "ent"})'],
    ["assoc-in", '(assoc-in (tool/customer {}) [:tier] "ent")'],
    ["update", '(update (tool/customer {}) :tier (constantly "ent"))'],
    ["update-in", '(update-in (tool/customer {}) [:tier] (constantly "ent"))'],
    ["reduce over assoc", '(reduce (fn [m [k v]] (assoc m k v)) (tool/customer {}) {:tier "ent"})'],
  ])("%s: the host gets the new value under the key it had", async (_name, source) => {
    const { text, json } = await written(source);
    expect(json).toMatchObject({ tier: "ent", name: "A" });
    expect(text).toContain('"tier" "ent"');
    expect(text).not.toContain(":tier");
  });

  test("underscore spellings count as the same key, as flexible reads do", async () => {
    const { json, text } = await written("(merge (tool/customer {}) {:user-id 8})");
    expect(json).toMatchObject({ user_id: 8 });
    expect(text).not.toContain(":user-id");
  });

  test("merge-with combines the twin's value", async () => {
    const { json } = await written('(merge-with str (tool/customer {}) {:tier "+"})');
    expect(json).toMatchObject({ tier: "free+" });
  });

  test("maps built from pairs keep one key per name", async () => {
    expect(await evaluate('(into {} [[:a 1] ["a" 2]])')).toBe("{:a 2}");
    // String keys first, then their twins (builderPut writes strings without a search until a
    // key that is an object comes in).
    expect(await evaluate('(into {} [["a" 1] ["b" 2] [:a 3] ["b_c" 4] [:b-c 5] ["b" 6]])')).toBe(
      '{"a" 3 "b" 6 "b_c" 5}',
    );
    expect(await evaluate('(into {} [["a_b" 1] ["a-b" 2] ["a" 3] ["a" 4]])')).toBe('{"a" 4 "a_b" 2}');
    expect(await evaluate('(into {} [[[1] 1] ["a" 2] [:a 3]])')).toBe('{[1] 1 "a" 3}');
    expect(await evaluate('(zipmap [:a "a"] [1 2])')).toBe("{:a 2}");
    expect(await evaluate('(hash-map :a 1 "a" 2)')).toBe("{:a 2}");
    expect(await evaluate('(select-keys {"a" 1} [:a "a"])')).toBe("{:a 1}");
    expect(await evaluate('(update-keys {"a" 1 "b" 2} (constantly :a))')).toBe("{:a 2}");
    expect(await evaluate('(merge {:a 1} {"a" 2})')).toBe("{:a 2}");
  });

  test("keys that are equal by = stay apart in aggregations, and literals keep what they say", async () => {
    expect(await evaluate('(frequencies [:a "a" :a])')).toBe('{:a 2 "a" 1}');
    expect(await evaluate('(count (group-by identity [:a "a"]))')).toBe("2");
    expect(await evaluate('(count {:a 1 "a" 2})')).toBe("2");
  });

  test("a key that exists exactly is the one written, and other keys are untouched", async () => {
    expect(await evaluate('(merge {:a 1 "a" 2} {"a" 3})')).toBe('{:a 1 "a" 3}');
    expect(await evaluate('(merge {"a" 1} {:b 2 1 3})')).toBe('{1 3 :b 2 "a" 1}');
  });
});

describe("maps derived from host rows (read through, never copied or written)", () => {
  const rows = [
    { id: 1, region: "east", amount: 10, tags: ["x"] },
    { id: 2, region: "west", amount: 20, tags: [] },
  ];
  const context = { rows };
  test.each([
    [
      "(mapv #(assoc % :total (* 2 (:amount %))) data/rows)",
      '[{:total 20 "amount" 10 "id" 1 "region" "east" "tags" ["x"]} {:total 40 "amount" 20 "id" 2 "region" "west" "tags" []}]',
    ],
    ['(dissoc (first data/rows) "tags" :region)', '{"amount" 10 "id" 1}'],
    ["(update (first data/rows) :amount inc)", '{"amount" 11 "id" 1 "region" "east" "tags" ["x"]}'],
    ["(keys (assoc (second data/rows) :a 1))", '[:a "amount" "id" "region" "tags"]'],
    ["(count (dissoc (assoc (first data/rows) :id 5) :id))", "3"],
    [
      "(let [r (first data/rows) a (assoc r :k 1) b (dissoc a :k)] [(= b r) (contains? a :k) (contains? b :k) (get a :k)])",
      "[true true false 1]",
    ],
    ['(= (assoc (first data/rows) :amount 10) {"id" 1 "region" "east" "amount" 10 "tags" ["x"]})', "true"],
    [
      "(frequencies (map #(dissoc % :id :amount :tags) data/rows))",
      '{{"region" "east"} 1 {"region" "west"} 1}',
    ],
    ['(merge (first data/rows) {:region "north"})', '{"amount" 10 "id" 1 "region" "north" "tags" ["x"]}'],
    ["(select-keys (assoc (first data/rows) :z 0) [:id :z])", "{:id 1 :z 0}"],
  ])("%s", async (source, expected) => {
    expect(await evaluate(source, { context })).toBe(expected);
    expect(rows).toEqual([
      { id: 1, region: "east", amount: 10, tags: ["x"] },
      { id: 2, region: "west", amount: 20, tags: [] },
    ]);
  });

  test("a derived row kept by def outlives the program with the same contents", async () => {
    const { createSession } = await import("../session.js");
    const session = createSession();
    const first = await run("(def kept (assoc (first data/rows) :seen true)) kept", { context, session });
    expect(first.ok).toBe(true);
    const later = await run("[(:seen kept) (:amount kept) (count kept)]", { session });
    expect(later.ok && format(later.value)).toBe("[true 10 5]");
  });
});

describe("merge-with over many entries (a builder instead of persistent versions)", () => {
  test("gives what merging one map at a time gives, keys spelled either way", async () => {
    const rows = Array.from({ length: 300 }, (_, i) => ({ k: i % 7, v: i }));
    const context = {
      rows,
      tiered: Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? { tier: i } : { user_id: i })),
    };
    for (const [many, oneByOne] of [
      [
        "(apply merge-with + (map (fn [r] {(:k r) (:v r)}) data/rows))",
        "(reduce (fn [acc r] (merge-with + acc {(:k r) (:v r)})) {} data/rows)",
      ],
      [
        "(apply merge-with (fn [a b] [a b]) {:tier 0 :user-id -1} data/tiered)",
        "(reduce (fn [acc m] (merge-with (fn [a b] [a b]) acc m)) {:tier 0 :user-id -1} data/tiered)",
      ],
      [
        "(apply merge-with max {nil 1 2.0 3} (map (fn [r] {(when (odd? (:v r)) (:k r)) (:v r)}) data/rows))",
        "(reduce (fn [acc r] (merge-with max acc {(when (odd? (:v r)) (:k r)) (:v r)})) {nil 1 2.0 3} data/rows)",
      ],
    ]) {
      expect(await evaluate(many as string, { context })).toBe(
        await evaluate(oneByOne as string, { context }),
      );
    }
  });

  test("a combining function that calls a tool still works", async () => {
    const maps = Array.from({ length: 40 }, (_, i) => ({ k: i }));
    expect(
      await evaluate("(:k (apply merge-with (fn [a b] (:v (tool/echo {:v (+ a b)}))) data/maps))", {
        ...echo,
        context: { maps },
      }),
    ).toBe(String((39 * 40) / 2));
  });
});
