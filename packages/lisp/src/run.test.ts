/** The evaluator through the public API: special forms, closures, recursion, tools, sessions. */
import { getEventListeners } from "node:events";
import { describe, expect, test } from "vitest";
import { createSession, format, LispError, run } from "./index.js";
import { evaluate, failure } from "./test-support.js";

describe("programs and values", () => {
  test("the value of the last form; an empty program is nil", async () => {
    expect(await evaluate("1 2 3")).toBe("3");
    expect(await evaluate("")).toBe("nil");
    expect(await evaluate("; only a comment")).toBe("nil");
  });

  test("literals evaluate to themselves; maps and sets print in order", async () => {
    expect(await evaluate('{:b 2 :a [1 2.0 "x" \\c nil true]}')).toBe('{:a [1 2.0 "x" "c" nil true] :b 2}');
    expect(await evaluate("#{3 1 2}")).toBe("#{1 2 3}");
    expect(await evaluate("{:a 1 :a 2}")).toBe("{:a 1}");
    expect(await evaluate("#{1 1 2}")).toBe("#{1 2}");
  });

  test("integers are exact beyond 2^53", async () => {
    expect(await evaluate("(* 99999999999 99999999999)")).toBe("9999999999800000000001");
    expect(await evaluate("(+ 9007199254740991 2)")).toBe("9007199254740993");
  });

  test("floats stay floats", async () => {
    expect(await evaluate("(/ 10 2)")).toBe("5.0");
    expect(await evaluate("(+ 0.5 0.5)")).toBe("1.0");
    expect(await evaluate("(* 2 1.5)")).toBe("3.0");
  });
});

describe("special forms", () => {
  test("let binds sequentially; bodies are implicit do", async () => {
    expect(await evaluate("(let [x 1 y (+ x 1)] (println x) (* x y))")).toBe("2");
  });

  test("if/do/and/or return deciding values", async () => {
    expect(await evaluate("(if nil 1 2)")).toBe("2");
    expect(await evaluate("(if false 1)")).toBe("nil");
    expect(await evaluate("(and 1 nil 3)")).toBe("nil");
    expect(await evaluate("(and 1 2 3)")).toBe("3");
    expect(await evaluate("(or nil false 7)")).toBe("7");
    expect(await evaluate("(or)")).toBe("nil");
    expect(await evaluate("(and)")).toBe("true");
    expect(await evaluate("(do)")).toBe("nil");
  });

  test("0, empty string and empty collections are truthy", async () => {
    expect(await evaluate('[(if 0 :t :f) (if "" :t :f) (if [] :t :f) (if {} :t :f)]')).toBe("[:t :t :t :t]");
  });

  test("cond, case, condp", async () => {
    expect(await evaluate("(cond false 1 nil 2 :else 3)")).toBe("3");
    expect(await evaluate("(cond false 1)")).toBe("nil");
    expect(await evaluate('(case "b" "a" 1 ("b" "c") 2 3)')).toBe("2");
    expect(await evaluate("(case 9 1 :one :other)")).toBe(":other");
    expect(await evaluate("(case 9 1 :one)")).toBe("nil");
    expect(await evaluate("(condp = 2 1 :one 2 :two :none)")).toBe(":two");
  });

  test("threading macros", async () => {
    expect(await evaluate("(-> 5 (- 3) (* 2))")).toBe("4");
    expect(await evaluate("(->> 5 (- 3) (* 2))")).toBe("-4");
    expect(await evaluate("(as-> 5 x (* x x) (- x 1))")).toBe("24");
    expect(await evaluate("(cond-> 1 true inc false (* 100) true (* 10))")).toBe("20");
    expect(await evaluate("(some-> {:a {:b 1}} :a :b inc)")).toBe("2");
    expect(await evaluate("(some-> {:a nil} :a :b inc)")).toBe("nil");
  });

  test("locals shadow builtins and macros, not true special forms", async () => {
    expect(await evaluate("(let [inc dec] (inc 1))")).toBe("0");
    expect(await evaluate("(let [when (fn [a b] (+ a b))] (when 1 2))")).toBe("3");
    expect(await evaluate("(let [if inc] (if true 1 2))")).toBe("1");
  });

  test("comment and quote", async () => {
    expect(await evaluate("(comment (this is never evaluated))")).toBe("nil");
    expect(await evaluate("'github")).toBe("'github");
  });
});

describe("functions", () => {
  test("fn, named fn recursion, defn recursion", async () => {
    expect(await evaluate("((fn [x y] (* x y)) 6 7)")).toBe("42");
    expect(await evaluate("((fn fact [n] (if (< n 2) 1 (* n (fact (- n 1))))) 10)")).toBe("3628800");
    expect(await evaluate("(defn fib [n] (if (< n 2) n (+ (fib (- n 1)) (fib (- n 2))))) (fib 20)")).toBe(
      "6765",
    );
  });

  test("variadic parameters: the rest is an empty vector when nothing is left", async () => {
    expect(await evaluate("((fn [a & more] [a more]) 1 2 3)")).toBe("[1 [2 3]]");
    expect(await evaluate("((fn [a & more] [a more]) 1)")).toBe("[1 []]");
    expect(await evaluate("(defn g [& {:keys [a] :or {a 9}}] a) [(g) (g :a 1)]")).toBe("[9 1]");
  });

  test("#() short functions", async () => {
    expect(await evaluate("(#(+ % 1) 1)")).toBe("2");
    expect(await evaluate("(#(- %2 %1) 1 10)")).toBe("9");
    expect(await evaluate("(#(vector %1 %&) 1 2 3)")).toBe("[1 [2 3]]");
    expect(await evaluate("(#(42))")).toBe("42");
  });

  test("closures capture each iteration's value", async () => {
    expect(await evaluate("(let [fs (for [x [1 2 3]] (fn [] (* x 10)))] [((first fs)) ((last fs))])")).toBe(
      "[10 30]",
    );
    expect(await evaluate("(let [make (fn [n] (fn [x] (+ x n))) add5 (make 5)] (add5 1))")).toBe("6");
  });

  test("wrong arity is an error naming the expectation", async () => {
    const error = await failure("((fn [x y] x) 1)");
    expect(error.reason).toBe("arity_error");
    expect(error.message).toContain("expects 2");
    expect((await failure("(defn f [a b & rest] rest) (f 1)")).message).toContain("2+");
    expect((await failure("(inc 1 2)")).reason).toBe("arity_error");
  });

  test("keywords, maps and sets are callable; nil called is nil", async () => {
    expect(await evaluate("[(:a {:a 1}) (:b {:a 1} :dflt) ({:a 1} :a) (#{1 2} 2) (#{1 2} 3) (nil 1)]")).toBe(
      "[1 :dflt 1 2 nil nil]",
    );
  });

  test("calling a non-function", async () => {
    const error = await failure("(let [x 42] (x 1))");
    expect(error.reason).toBe("not_callable");
    expect(error.message).toContain("42");
  });
});

describe("loops", () => {
  test("loop/recur, with destructuring bindings", async () => {
    expect(await evaluate("(loop [i 0 acc []] (if (< i 3) (recur (inc i) (conj acc i)) acc))")).toBe(
      "[0 1 2]",
    );
    expect(await evaluate("(loop [[x & more] [1 2 3] total 0] (if x (recur more (+ total x)) total))")).toBe(
      "6",
    );
  });

  test("recur in a fn body re-enters the fn", async () => {
    expect(await evaluate("(defn count-down [n] (if (= n 0) :done (recur (dec n)))) (count-down 50)")).toBe(
      ":done",
    );
  });

  test("recur must be in tail position and match the arity", async () => {
    expect((await failure("(loop [x 0] (+ 1 (recur x)))")).message).toContain("tail position");
    expect((await failure("(loop [x 0] (recur))")).reason).toBe("arity_error");
  });

  test("the iteration budget is shared by the whole program", async () => {
    expect(
      (
        await failure(
          "(loop [i 0] (if (< i 600) (recur (inc i)) i)) (loop [i 0] (if (< i 600) (recur (inc i)) i))",
          { limits: { maxIterations: 1000 } },
        )
      ).reason,
    ).toBe("loop_limit_exceeded");
    expect(
      await evaluate("(loop [i 0] (if (< i 600) (recur (inc i)) i))", { limits: { maxIterations: 600 } }),
    ).toBe("600");
  });

  test("for: cartesian product, :let, :when, :while, destructuring", async () => {
    expect(await evaluate("(for [x [1 2] y [:a :b]] [x y])")).toBe("[[1 :a] [1 :b] [2 :a] [2 :b]]");
    expect(await evaluate("(for [x [1 2 3 4] :let [y (* x x)] :when (odd? x)] y)")).toBe("[1 9]");
    expect(await evaluate("(for [x [1 2 3 4 1] :while (< x 3)] x)")).toBe("[1 2]");
    expect(await evaluate("(for [[k v] {:a 1 :b 2}] (str (name k) v))")).toBe('["a1" "b2"]');
  });

  test("doseq returns nil and runs the body for effect", async () => {
    const result = await run("(doseq [x [1 2 3]] (println x))");
    expect(result.ok && result.value).toBe(null);
    expect(result.prints).toEqual(["1", "2", "3"]);
  });

  test("for over a non-collection is explained", async () => {
    expect((await failure("(for [x 42] x)")).message).toContain("expected a collection, got: 42 (number)");
  });
});

describe("destructuring", () => {
  test("vectors: skip, nested, rest, missing elements are nil", async () => {
    expect(await evaluate("(let [[a _ [b c] & more] [1 2 [3 4] 5 6]] [a b c more])")).toBe("[1 3 4 [5 6]]");
    expect(await evaluate("(let [[a b & more] [1]] [a b more])")).toBe("[1 nil []]");
  });

  test("maps: :keys, :strs, renames, :or, :as, nested", async () => {
    expect(await evaluate("(let [{:keys [a b] :or {b 5} :as all} {:a 1}] [a b all])")).toBe("[1 5 {:a 1}]");
    expect(await evaluate('(let [{:strs [id]} {"id" 7}] id)')).toBe("7");
    expect(
      await evaluate('(let [{n :name {c :city} :address} {:name "A" :address {:city "P"}}] [n c])'),
    ).toBe('["A" "P"]');
  });

  test(":keys finds string keys and underscored spellings in host data", async () => {
    expect(
      await evaluate("(let [{:keys [user-id]} data/u] user-id)", { context: { u: { user_id: 7 } } }),
    ).toBe("7");
  });

  test("bad shapes are destructure errors", async () => {
    expect((await failure("(let [{:keys [a]} 42] a)")).reason).toBe("destructure_error");
    expect((await failure('(let [[a] "ab"] a)')).reason).toBe("destructure_error");
    expect((await failure("(let [[a :as all] [1]] a)")).reason).toBe("unsupported_pattern");
  });
});

describe("static checks", () => {
  test("every unknown name is reported at once, with where", async () => {
    const error = await failure("(let [x 1]\n  (+ x y (zz)))");
    expect(error.reason).toBe("unbound_var");
    expect(error.message).toContain("Undefined variables: y, zz");
    expect(error.line).toBe(2);
  });

  test("unknown tools fail before anything runs, even in dead code", async () => {
    let calls = 0;
    const error = await failure("(tool/echo {}) (and false (tool/missing {}))", {
      tools: {
        echo: () => {
          calls++;
        },
      },
    });
    expect(error.reason).toBe("unknown_tool");
    expect(error.message).toContain("Available tools: echo");
    expect(calls).toBe(0);
  });

  test("malformed special forms", async () => {
    expect((await failure("(if)")).message).toContain("expected (if cond then else?)");
    expect((await failure("(let [x 1 y] x)")).reason).toBe("invalid_form");
    expect((await failure("(defn foo ())")).message).toContain("multi-arity");
    expect((await failure("#(map #(+ % 1) %)")).message).toContain("Nested #()");
    expect((await failure("(cond 1)")).reason).toBe("invalid_cond_form");
    expect((await failure("(cond-> 1 true)")).reason).toBe("invalid_thread_form");
  });

  test("an error that names an expansion's temporary gives the same message every run", async () => {
    // Found by the determinism property: the temporary's number counted up across programs.
    const source = "(cond-> 1 true inc false cond)";
    const first = await failure(source);
    await run("(cond-> 2 true (cond-> inc))");
    expect(await failure(source)).toEqual(first);
  });

  test("runtime errors point at the failing call", async () => {
    const error = await failure("(let [x 1]\n  (+ x nil))");
    expect(error).toMatchObject({ reason: "type_error", line: 2, column: 3 });
  });
});

describe("return, fail, println", () => {
  test("return ends the program with a value", async () => {
    const result = await run('(return {:status "ok"}) (println "never")');
    expect(result.ok && result.returned).toBe(true);
    expect(result.ok && format(result.value)).toBe('{:status "ok"}');
    expect(result.prints).toEqual([]);
  });

  test("fail ends the program with a reason value", async () => {
    const result = await run('(println "before") (fail {:reason :not-found}) (println "after")');
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.reason).toBe("fail");
    expect(result.error.message).toBe("{:reason :not-found}");
    expect(format(result.error.value)).toBe("{:reason :not-found}");
    expect(result.prints).toEqual(["before"]);
  });

  test("println joins with spaces, shows strings bare and nil as nil, keeps lines in order", async () => {
    const result = await run('(println "a" 1 nil :k [1 "s"]) (println)');
    expect(result.prints).toEqual(['a 1 nil :k [1 "s"]', ""]);
  });

  test("each println is cut at the print limit", async () => {
    const result = await run('(println (apply str (map (fn [_] "x") (range 50))))', {
      limits: { maxPrintLength: 10 },
    });
    expect(result.prints[0]).toBe("xxxxxxxxxx...");
  });
});

describe("tools", () => {
  test("arguments leave as plain JSON with underscores; results come back untouched", async () => {
    const seen: unknown[] = [];
    const result = await run(
      '(tool/find {:user-id 1 "max-results" 5 :kind :admin :tags #{:a} :nested {:inner-key [1.0]}})',
      {
        tools: {
          find: (args) => {
            seen.push(args);
            return { rows: [{ user_id: 1 }] };
          },
        },
      },
    );
    expect(seen).toEqual([
      { user_id: 1, max_results: 5, kind: "admin", tags: ["a"], nested: { inner_key: [1] } },
    ]);
    expect(result.ok && format(result.value)).toBe('{"rows" [{"user_id" 1}]}');
  });

  test("keyword-style arguments and no arguments", async () => {
    const echo = (args: Record<string, unknown>) => args;
    expect(await evaluate('(tool/echo :query "x" :limit 10)', { tools: { echo } })).toBe(
      '{"limit" 10 "query" "x"}',
    );
    expect(await evaluate("(tool/echo)", { tools: { echo } })).toBe("{}");
  });

  test("positional arguments are refused with advice", async () => {
    const error = await failure('(tool/echo "positional")', { tools: { echo: (a) => a } });
    expect(error.reason).toBe("invalid_tool_args");
    expect(error.message).toContain("(tool/echo {:key value})");
  });

  describe("advice for positional arguments names the tool's parameters", () => {
    const tool = (signature: string) => ({ execute: (args: Record<string, unknown>) => args, signature });

    test("one value fills the tool's parameter", async () => {
      const error = await failure("(tool/get_customer 9)", {
        tools: { get_customer: tool("(id :int) -> {id :int, name :string}") },
      });
      expect(error.reason).toBe("invalid_tool_args");
      expect(error.message).toContain("write (tool/get_customer {:id 9})");
      expect(error.message).not.toContain(":url");
    });

    test("values fill the parameters in order, map-typed parameters included", async () => {
      const error = await failure('(tool/search {:level "error"} "timeout" 10)', {
        tools: {
          search: tool("(filter {level :string, host :string?}, query :string, limit :int?) -> [:map]"),
        },
      });
      expect(error.message).toContain(
        'write (tool/search {:filter {:level "error"} :query "timeout" :limit 10})',
      );
    });

    test("fewer values than parameters list them all; more values say which the tool takes", async () => {
      const tools = { search: tool("(query :string, limit :int?) -> [:map]"), now: tool("-> :string") };
      expect((await failure('(tool/search "timeout")', { tools })).message).toContain(
        'write (tool/search {:query "timeout"}) (its parameters: query, limit)',
      );
      expect((await failure('(tool/search "timeout" 10 true)', { tools })).message).toContain(
        'tool/search takes only query, limit: write (tool/search {:query "timeout" :limit 10})',
      );
      expect((await failure("(tool/now 1)", { tools })).message).toContain(
        "tool/now takes no arguments: write (tool/now)",
      );
    });

    test("a value known only when the program runs gets the same advice", async () => {
      const error = await failure("(let [id 9] (tool/get_customer id))", {
        tools: { get_customer: tool("(id :int) -> :map") },
      });
      expect(error.reason).toBe("invalid_tool_args");
      expect(error.message).toContain("write (tool/get_customer {:id 9})");
    });

    test("a tool without a signature gets a placeholder, never a made-up name", async () => {
      const error = await failure("(tool/get_customer 9)", { tools: { get_customer: (args) => args } });
      expect(error.message).toContain(
        "write (tool/get_customer {:<name> 9}), with the tool's parameter name for <name>",
      );
      expect(error.message).not.toContain(":url");
    });
  });

  test("async tools are awaited; calls are logged in order with results and durations", async () => {
    const result = await run("(let [a (tool/slow {:n 1}) b (tool/slow {:n 2})] (+ (:n a) (:n b)))", {
      tools: { slow: async (args) => ({ n: (args.n as number) * 10 }) },
    });
    expect(result.ok && result.value).toBe(30);
    expect(result.toolCalls.map((call) => [call.name, call.args, call.result])).toEqual([
      ["slow", { n: 1 }, { n: 10 }],
      ["slow", { n: 2 }, { n: 20 }],
    ]);
    expect(result.toolCalls.every((call) => call.durationMs >= 0)).toBe(true);
  });

  test("an argument that waits on a tool is evaluated once, and later arguments only after it", async () => {
    const order: string[] = [];
    const tools = {
      echo: async (args: Record<string, unknown>) => {
        order.push(`tool ${String(args.v)}`);
        return args;
      },
    };
    const result = await run(
      '(+ (do (println "a") 1) (:v (tool/echo {:v 2})) (do (println "b") 3) (:v (tool/echo {:v 4})))',
      { tools },
    );
    expect(result.ok && result.value).toBe(10);
    expect(result.prints).toEqual(["a", "b"]);
    expect(result.toolCalls).toHaveLength(2);
    expect(order).toEqual(["tool 2", "tool 4"]);
    for (const source of [
      "(inc (:v (tool/echo {:v 1})))",
      "(- 5 (:v (tool/echo {:v 1})))",
      "((fn [a b] (+ a b)) (:v (tool/echo {:v 1})) 2)",
      "(loop [a 0 b (:v (tool/echo {:v 1}))] (if (< a 1) (recur (inc a) (:v (tool/echo {:v b}))) b))",
    ]) {
      order.length = 0;
      const each = await run(source, { tools });
      expect(each.ok, source).toBe(true);
      expect(each.toolCalls.length, source).toBe(order.length);
      expect(each.toolCalls.length, source).toBe(source.startsWith("(loop") ? 2 : 1);
    }
  });

  test("a failing tool fails the program with tool_error and is logged", async () => {
    const result = await run("(tool/flaky {:x 1})", {
      tools: {
        flaky: () => {
          throw new Error("boom");
        },
      },
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.reason).toBe("tool_error");
    expect(result.error.message).toBe("Tool 'flaky' failed: \"boom\"");
    expect(result.toolCalls[0]).toMatchObject({ name: "flaky", error: "boom" });
  });

  test("the tool-call limit", async () => {
    const error = await failure("(tool/t) (tool/t) (tool/t)", {
      tools: { t: () => 1 },
      limits: { maxToolCalls: 2 },
    });
    expect(error.reason).toBe("tool_call_limit_exceeded");
  });

  test("a tool used as a value", async () => {
    expect(await evaluate("(let [f tool/echo] (f {:a 1}))", { tools: { echo: (a) => a } })).toBe('{"a" 1}');
  });
});

describe("data/ context", () => {
  test("flexible lookup and nil for missing keys", async () => {
    const context = { user_id: 7, orders: [{ amount: 5 }] };
    expect(await evaluate("[data/user-id data/missing (:amount (first data/orders))]", { context })).toBe(
      "[7 nil 5]",
    );
  });

  test("data/x is a value, not a function", async () => {
    expect((await failure("(data/x)")).reason).toBe("invalid_form");
  });
});

describe("sessions", () => {
  test("defs and *1 *2 *3 persist across programs", async () => {
    const session = createSession();
    expect(await evaluate("(def x 10) (defn twice [n] (* 2 n))", { session })).toBe("#'twice");
    expect(await evaluate("(twice x)", { session })).toBe("20");
    expect(await evaluate("(+ *1 1)", { session })).toBe("21");
    expect(await evaluate("[*1 *2 *3]", { session })).toBe("[21 20 #'twice]");
    expect(session.names()).toEqual(["twice", "x"]);
  });

  test("a failed program leaves the session exactly as it was", async () => {
    const session = createSession();
    await evaluate("(def x 1)", { session });
    const result = await run("(def x 2) (def y 3) (/ 1 0)", { session });
    expect(result.ok).toBe(false);
    expect(session.get("x")).toBe(1);
    expect(session.names()).toEqual(["x"]);
    expect(await evaluate("*1", { session })).toBe("#'x");
  });

  test("defonce binds once", async () => {
    const session = createSession();
    await evaluate("(defonce n 1)", { session });
    expect(await evaluate("(defonce n 2) n", { session })).toBe("1");
  });

  test("two programs cannot run on one session at once", async () => {
    const session = createSession();
    const first = run("(tool/wait)", {
      session,
      tools: { wait: () => new Promise((resolve) => setTimeout(resolve, 10)) },
    });
    await expect(run("1", { session })).rejects.toBeInstanceOf(LispError);
    await first;
  });
});

describe("options", () => {
  test("bad options are programmer errors with a stable code", async () => {
    await expect(run("1", { limits: { timeoutMs: -1 } })).rejects.toMatchObject({
      code: "PTC_LISP_INVALID_OPTIONS",
    });
    await expect(run("1", { limits: { nope: 1 } as never })).rejects.toThrow(/unknown limit "nope"/);
    await expect(run("1", { context: [] as never })).rejects.toThrow(/plain object/);
    await expect(run("1", { tools: { t: 42 as never } })).rejects.toThrow(/must be a function/);
  });

  test("options that are not what the API takes, or cannot be read, reject with invalid_options only", async () => {
    const code = { code: "PTC_LISP_INVALID_OPTIONS" };
    await expect(run("1", { session: {} as never })).rejects.toMatchObject(code);
    await expect(run("1", { session: {} as never })).rejects.toThrow(/session must be a Session/);
    const unreadable = Object.defineProperty({}, "limits", {
      get() {
        throw new Error("no limits");
      },
    });
    await expect(run("1", unreadable)).rejects.toMatchObject(code);
    await expect(run("1", unreadable)).rejects.toThrow(/the options could not be read: no limits/);
  });
});

describe("values kept by a session", () => {
  test("a defined map is unaffected by programs deriving from it", async () => {
    const session = createSession();
    await evaluate("(def base {:n 0})", { session });
    expect(await evaluate("(reduce (fn [m i] (assoc m i i)) base (range 5))", { session })).toBe(
      "{0 0 1 1 2 2 3 3 4 4 :n 0}",
    );
    expect(await evaluate("base", { session })).toBe("{:n 0}");
    expect(await evaluate("(count (reduce (fn [m i] (assoc m i i)) base (range 50)))", { session })).toBe(
      "51",
    );
    expect(await evaluate("[base *3]", { session })).toBe("[{:n 0} {0 0 1 1 2 2 3 3 4 4 :n 0}]");
  });
});

describe("no promise per evaluation step", () => {
  async function promisesDuring(source: string, engine: "fast" | "general"): Promise<number> {
    const { createHook } = await import("node:async_hooks");
    let created = 0;
    const hook = createHook({
      init(_id, type) {
        if (type === "PROMISE") created++;
      },
    }).enable();
    try {
      await run(source, { engine, limits: { maxIterations: 100_000 } });
    } finally {
      hook.disable();
    }
    return created;
  }

  test.each(["fast", "general"] as const)(
    "pure work creates as many promises for 10 steps as for 10,000 (%s)",
    async (engine) => {
      const small = await promisesDuring(
        "(loop [i 0 acc 0] (if (< i 10) (recur (inc i) (+ acc (count (filter odd? (range i))))) acc))",
        engine,
      );
      const large = await promisesDuring(
        "(loop [i 0 acc 0] (if (< i 200) (recur (inc i) (+ acc (count (filter odd? (range i))))) acc))",
        engine,
      );
      expect(large).toBe(small);
    },
  );
});

describe("compiled programs are reused", () => {
  test("running the same program again gives the same results, output and tool calls", async () => {
    const source = '(println "start") (mapv #(:v (tool/echo {:v %})) [1 2 3])';
    const tools = { echo: (args: Record<string, unknown>) => args };
    const first = await run(source, { tools });
    const second = await run(source, { tools });
    expect(second).toMatchObject({ ok: true, prints: ["start"] });
    expect(format((second as { value: unknown }).value)).toBe(format((first as { value: unknown }).value));
    expect(second.toolCalls).toHaveLength(3);
  });

  test("what the analysis depends on is part of the key: tools and reader limits", async () => {
    const source = "(tool/a {})";
    expect((await run(source, { tools: { a: () => 1 } })).ok).toBe(true);
    expect((await failure(source, { tools: { b: () => 1 } })).reason).toBe("unknown_tool");
    const deep = `${"[".repeat(10)}${"]".repeat(10)}`;
    expect((await run(deep)).ok).toBe(true);
    expect((await failure(deep, { limits: { maxNesting: 5 } })).reason).toBe("parse_error");
  });

  test("a reused program that defines names binds them in each run's own namespace", async () => {
    const source = "(def n (count data/xs)) (defn twice [x] (* 2 x)) (twice n)";
    expect(await evaluate(source, { context: { xs: [1, 2] } })).toBe("4");
    expect(await evaluate(source, { context: { xs: [1, 2, 3] } })).toBe("6");
    const one = createSession();
    const two = createSession();
    await evaluate(source, { context: { xs: [1] }, session: one });
    await evaluate(source, { context: { xs: [1, 2, 3, 4] }, session: two });
    expect([one.get("n"), two.get("n")]).toEqual([1, 4]);
  });

  test("in a session, names defined since change what a reused text means", async () => {
    const session = createSession();
    expect((await failure("(helper 1)", { session })).reason).toBe("unbound_var");
    await evaluate("(defn helper [x] (+ x 100))", { session });
    expect(await evaluate("(helper 1)", { session })).toBe("101");
  });
});

describe("cancelling a run with an AbortSignal", () => {
  const ABORTED = { reason: "aborted", message: "the run was cancelled (its AbortSignal fired)" };

  /** A tool that reports when it is entered and never answers. */
  function hangingTool() {
    let entered: () => void = () => undefined;
    const waiting = new Promise<void>((resolve) => (entered = resolve));
    const hang = () => {
      entered();
      return new Promise(() => undefined);
    };
    return { waiting, hang };
  }

  test("an already-aborted signal stops the run before it starts", async () => {
    let called = false;
    const result = await run('(println "started") (tool/t {}) 1', {
      signal: AbortSignal.abort(),
      tools: { t: () => (called = true) },
    });
    expect(result).toMatchObject({ ok: false, error: ABORTED, prints: [], toolCalls: [] });
    expect(result.ok === false && "line" in result.error).toBe(false);
    expect(called).toBe(false);
  });

  test("a signal fired by a tool stops the program before its next tool call", async () => {
    const controller = new AbortController();
    const calls: string[] = [];
    const tools = {
      cancel: () => {
        calls.push("cancel");
        controller.abort();
        return 1;
      },
      next: () => calls.push("next"),
    };
    const result = await run("(tool/cancel {}) (tool/next {})", { signal: controller.signal, tools });
    expect(result).toMatchObject({ ok: false, error: ABORTED });
    expect(calls).toEqual(["cancel"]);
  });

  test("a run cancelled by its last step still ends aborted, and its defs are rolled back", async () => {
    const controller = new AbortController();
    const session = createSession();
    const tools = { cancel: () => controller.abort() };
    const result = await run("(def x 1) (tool/cancel {})", { signal: controller.signal, tools, session });
    expect(result).toMatchObject({ ok: false, error: ABORTED });
    expect(session.names()).toEqual([]);
    expect(session.history()).toEqual([]);
  });

  test.each(["fast", "general"] as const)(
    "a loop running when the signal fires stops at its next evaluation step (%s)",
    async (engine) => {
      const controller = new AbortController();
      const tools = { cancel: () => controller.abort() };
      // Without the stop, the loop would run into its iteration limit instead.
      const result = await run("(tool/cancel {}) (loop [i 0] (if (< i 5000000) (recur (inc i)) i))", {
        signal: controller.signal,
        tools,
        engine,
        limits: { maxIterations: 1_000_000, timeoutMs: 60_000 },
      });
      expect(result).toMatchObject({ ok: false, error: ABORTED });
    },
  );

  test("a tool that never answers is abandoned when the signal fires", async () => {
    const controller = new AbortController();
    const { waiting, hang } = hangingTool();
    const pending = run('(tool/hang {}) (println "never")', {
      signal: controller.signal,
      tools: { hang },
      limits: { timeoutMs: 60_000 },
    });
    await waiting;
    controller.abort();
    const result = await pending;
    expect(result).toMatchObject({ ok: false, error: ABORTED, prints: [] });
    expect(result.toolCalls.map((call) => [call.name, call.error])).toEqual([["hang", ABORTED.message]]);
  });

  test("branches of pmap waiting on tools are abandoned too", async () => {
    const controller = new AbortController();
    const { waiting, hang } = hangingTool();
    const pending = run("(pmap (fn [i] (tool/hang {:i i})) [1 2 3])", {
      signal: controller.signal,
      tools: { hang },
      limits: { timeoutMs: 60_000, parallelTimeoutMs: 60_000 },
    });
    await waiting;
    controller.abort();
    expect(await pending).toMatchObject({ ok: false, error: { reason: "aborted" } });
  });

  test("the run removes its abort listener when it ends, however it ends", async () => {
    const controller = new AbortController();
    const { signal } = controller;
    expect((await run("(+ 1 2)", { signal })).ok).toBe(true);
    expect((await run("(/ 1 0)", { signal })).ok).toBe(false);
    expect((await run("(tool/t {})", { signal, tools: { t: async () => 1 } })).ok).toBe(true);
    expect(getEventListeners(signal, "abort")).toHaveLength(0);
    const { waiting, hang } = hangingTool();
    const pending = run("(tool/hang {})", { signal, tools: { hang } });
    await waiting;
    expect(getEventListeners(signal, "abort")).toHaveLength(1);
    controller.abort();
    await pending;
    expect(getEventListeners(signal, "abort")).toHaveLength(0);
  });

  test("one signal shared by 50 concurrent runs carries one listener, and none once they end", async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on("warning", onWarning);
    try {
      const controller = new AbortController();
      const { signal } = controller;
      let most = 0;
      const slow = async () => {
        most = Math.max(most, getEventListeners(signal, "abort").length);
        await new Promise((resolve) => setTimeout(resolve, 0));
        return 1;
      };
      const done = await Promise.all(
        Array.from({ length: 50 }, () =>
          run("(+ (tool/slow {}) (tool/slow {}))", { signal, tools: { slow } }),
        ),
      );
      expect(done.every((result) => result.ok && result.value === 2)).toBe(true);
      expect(most).toBe(1);
      expect(getEventListeners(signal, "abort")).toHaveLength(0);
      // Aborting it mid-flight still stops every run, each with the message one run gets.
      let entered = 0;
      let allEntered: () => void = () => undefined;
      const everyRunWaits = new Promise<void>((resolve) => (allEntered = resolve));
      const hang = () => {
        if (++entered === 50) allEntered();
        return new Promise(() => undefined);
      };
      const pending = Array.from({ length: 50 }, () => run("(tool/hang {})", { signal, tools: { hang } }));
      await everyRunWaits;
      expect(getEventListeners(signal, "abort")).toHaveLength(1);
      controller.abort();
      for (const result of await Promise.all(pending)) {
        expect(result).toMatchObject({
          ok: false,
          error: ABORTED,
        });
      }
      expect(getEventListeners(signal, "abort")).toHaveLength(0);
      // And a signal that has already fired stops each run before it starts, as before.
      const late = await Promise.all(Array.from({ length: 50 }, () => run("1", { signal })));
      expect(late.every((result) => !result.ok && result.error.reason === "aborted")).toBe(true);
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.filter((warning) => warning.name === "MaxListenersExceededWarning")).toEqual([]);
    } finally {
      process.off("warning", onWarning);
    }
  });

  test("a signal that never fires changes nothing", async () => {
    const result = await run("(reduce + (range 10))", { signal: new AbortController().signal });
    expect(result).toMatchObject({ ok: true, value: 45 });
  });

  test("a signal that is not an AbortSignal is a programmer error", async () => {
    await expect(run("1", { signal: {} as never })).rejects.toMatchObject({
      code: "PTC_LISP_INVALID_OPTIONS",
      message: expect.stringMatching(/signal must be an AbortSignal/),
    });
  });
});

describe("step summaries", () => {
  test("a successful run returns what step-done recorded, in order", async () => {
    const result = await run(
      '(step-done "fetch" "got 3 rows") (step-done "__proto__" "odd id") (step-done "sum" 6)',
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(Object.entries(result.summaries)).toEqual([
      ["fetch", "got 3 rows"],
      ["__proto__", "odd id"],
      ["sum", "6"],
    ]);
  });

  test("a run without step-done has no summaries", async () => {
    expect(await run("1")).toMatchObject({ ok: true, summaries: {} });
  });
});
