/**
 * Values that cross into a run from the host (the context, tool results, what a tool throws) and
 * back out of it (the result, a `(fail v)` value), read defensively: whatever the host hands in,
 * `run` resolves, every engine sees the same thing, and every failure has a documented reason.
 * Through the public API, on every engine (docs/sandbox.md, "Host values").
 */
import { describe, expect, test } from "vitest";
import { createSession, equals, format, LispError, preview, type RunResult, run, toJson } from "./index.js";

const ENGINES = ["general", "fast", "adaptive"] as const;

/** The printed value of a successful run, or `reason: message` of a failed one. */
function outcome(result: RunResult): string {
  return result.ok
    ? format(result.value, { maxChars: 2000 })
    : `${result.error.reason}: ${result.error.message}`;
}

function revoked(): object {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
}

function throwingGetter(): object {
  return Object.defineProperty({ ok: 1 }, "a", {
    enumerable: true,
    get() {
      throw new Error("the getter broke");
    },
  });
}

function cyclic(): Record<string, unknown> {
  const value: Record<string, unknown> = { a: 1 };
  value.self = value;
  return value;
}

describe("host objects that change between runs", () => {
  test.each(ENGINES)("keys, vals and count see the object as it is now (%s)", async (engine) => {
    const o: Record<string, unknown> = { a: 1, b: 2 };
    const program = "[(keys data/o) (vals data/o) (count data/o) (get data/o :c)]";
    expect(outcome(await run(program, { context: { o }, engine }))).toBe('[["a" "b"] [1 2] 2 nil]');
    o.c = 3;
    o.a = 10;
    delete o.b;
    expect(outcome(await run(program, { context: { o }, engine }))).toBe('[["a" "c"] [10 3] 2 3]');
  });

  test.each(ENGINES)("a session's def of a host object reads it as it is now (%s)", async (engine) => {
    const session = createSession();
    const o: Record<string, unknown> = { a: 1 };
    await run("(def o data/o) (keys o)", { context: { o }, session, engine });
    o.b = 2;
    expect(outcome(await run("[(keys o) (vals o)]", { session, engine }))).toBe('[["a" "b"] [1 2]]');
  });

  test.each(ENGINES)(
    "a tool that hands back the same object, changed, is seen changed (%s)",
    async (engine) => {
      const shared: Record<string, unknown> = {};
      let calls = 0;
      const tools = {
        next: () => {
          calls++;
          shared[`k${calls}`] = calls;
          return shared;
        },
      };
      const result = await run(
        "(let [a (keys (tool/next {})) b (keys (tool/next {}))] [a b (vals (tool/next {}))])",
        {
          tools,
          engine,
        },
      );
      expect(outcome(result)).toBe('[["k1"] ["k1" "k2"] [1 2 3]]');
    },
  );

  test("format, toJson and equals from the host see the object as it is now", async () => {
    const o: Record<string, unknown> = { a: 1 };
    const result = await run("[(keys data/o) data/o]", { context: { o } });
    o.b = 2;
    expect(format(o)).toBe('{"a" 1 "b" 2}');
    expect(toJson(o)).toEqual({ a: 1, b: 2 });
    expect(equals(o, { a: 1, b: 2 })).toBe(true);
    expect(result.ok && format(result.value)).toBe('[["a"] {"a" 1 "b" 2}]');
  });
});

describe("only own properties of plain objects are data", () => {
  const SECRET = "inherited";
  const forms = [
    "(:a data/o)",
    "(get data/o :a)",
    '(get data/o "a")',
    "(contains? data/o :a)",
    "(select-keys data/o [:a])",
    "(find data/o :a)",
    "(get-in data/o [:a])",
    "(let [{:keys [a]} data/o] a)",
    "((fn [{a :a}] a) data/o)",
    "(keys data/o)",
    "(vals data/o)",
    "(count data/o)",
    "(str data/o)",
    "(json/generate-string data/o)",
    // Over many rows: the keyword's own reader (values/field-reader.ts) and generated loops.
    "(distinct (mapv :a data/rows))",
    "(distinct (mapv (fn [r] (:a r)) data/rows))",
    "(reduce (fn [n r] (if (:a r) (inc n) n)) 0 data/rows)",
    "(distinct (mapv #(select-keys % [:a]) data/rows))",
    "(distinct (for [r data/rows] (get r :a)))",
  ];
  const objects: Record<string, () => object> = {
    "an object made with Object.create over data": () =>
      Object.assign(Object.create({ a: SECRET }), { b: 2 }),
    "an object whose prototype has a getter": () =>
      Object.assign(
        Object.create({
          get a() {
            return SECRET;
          },
        }),
        { b: 2 },
      ),
  };

  for (const [what, make] of Object.entries(objects)) {
    test.each(ENGINES)(
      `${what} is an opaque host object: no read sees its prototype (%s)`,
      async (engine) => {
        const o = make();
        const context = { o, rows: Array.from({ length: 3000 }, make) };
        const seen: string[] = [];
        for (const form of forms) seen.push(`${form} => ${outcome(await run(form, { context, engine }))}`);
        expect(seen.filter((line) => line.includes(SECRET) || line.includes("unbound_var"))).toEqual([]);
        // Every read agrees with every other: the object is not a map.
        expect(
          outcome(await run("[(map? data/o) (:a data/o) (:b data/o)]", { context: { o }, engine })),
        ).toBe("[false nil nil]");
      },
    );
  }
});

describe("values that contain themselves", () => {
  test.each(ENGINES)(
    "(fail v) of one resolves, with its text cut and the value kept (%s)",
    async (engine) => {
      const c = cyclic();
      const result = await run("(fail data/c)", { context: { c }, engine });
      expect(result.ok).toBe(false);
      if (result.ok) return;
      expect(result.error.reason).toBe("fail");
      expect(result.error.value).toBe(c);
      expect(result.error.message.startsWith('{"a" 1 "self" {"a" 1 "self" {')).toBe(true);
      expect(result.error.message.endsWith("(cut at 10000 characters)")).toBe(true);
      expect(() => JSON.stringify(result)).toThrow(
        expect.objectContaining({ code: "PTC_LISP_MEMORY_EXCEEDED" }),
      );
    },
  );

  test.each(ENGINES)("as the program's value, printed, and in a session's *1 (%s)", async (engine) => {
    const c = cyclic();
    const session = createSession();
    const result = await run("(println data/c) (println [data/c]) data/c", {
      context: { c },
      session,
      engine,
      limits: { maxPrintLength: 40 },
    });
    expect(result.ok && result.value).toBe(c);
    expect(result.prints).toEqual([
      '{"a" 1 "self" {"a" 1 "self" {"a" 1 "self...',
      '[{"a" 1 "self" {"a" 1 "self" {"a" 1 "sel...',
    ]);
    expect(session.history()[0]).toBe(c);
    expect(format(c, { maxChars: 30 })).toBe(`${'{"a" 1 "self" {"a" 1 "self" {"'}... (cut at 30 characters)`);
    expect(preview(c, { maxTotalChars: 30 }).text).toBe(`${'{"a" 1 "self" {"a" 1 "self" {"'}...`);
    expect(() => toJson(c)).toThrow(expect.objectContaining({ code: "PTC_LISP_MEMORY_EXCEEDED" }));
    expect(() => JSON.stringify(result)).toThrow(LispError);
  });

  test.each(ENGINES)("walks that have no cut end with a documented reason (%s)", async (engine) => {
    const c = cyclic();
    const d = cyclic();
    const reasons: Record<string, string> = {};
    for (const program of [
      "(= data/c data/d)",
      "#{data/c}",
      "{data/c 1}",
      "(frequencies [data/c])",
      "(json/generate-string data/c)",
      "(tool/echo {:x data/c})",
      "(tool/echo {:x (:self (tool/echo {:x 1 :c data/c}))})",
      "(compare data/c data/d)",
      "(str data/c)",
    ]) {
      const result = await run(program, {
        context: { c, d },
        engine,
        tools: { echo: (args) => args },
        // Small enough that text stops at the budget quickly; tool arguments stop at their depth.
        // The budget must stop it, not the clock: a long timeout keeps a loaded machine (where
        // the default second has run out first) from reading as a wrong reason.
        limits: { maxMemoryBytes: 1_000_000, timeoutMs: 30_000 },
      });
      reasons[program] = result.ok ? "ok" : result.error.reason;
    }
    expect(reasons).toEqual({
      "(= data/c data/d)": "recursion_limit_exceeded",
      "#{data/c}": "recursion_limit_exceeded",
      "{data/c 1}": "recursion_limit_exceeded",
      "(frequencies [data/c])": "recursion_limit_exceeded",
      "(json/generate-string data/c)": "type_error",
      "(tool/echo {:x data/c})": "invalid_tool_args",
      "(tool/echo {:x (:self (tool/echo {:x 1 :c data/c}))})": "invalid_tool_args",
      "(compare data/c data/d)": "recursion_limit_exceeded",
      "(str data/c)": "memory_exceeded",
    });
    expect(
      outcome(await run("[(= data/c data/c) (:a (:self (:self data/c)))]", { context: { c }, engine })),
    ).toBe("[true 1]");
  });

  test("a tool result that contains itself: usable, and JSON.stringify of the result fails with a LispError", async () => {
    const c = cyclic();
    const result = await run("(:a (:self (tool/load {})))", { tools: { load: () => c } });
    expect(outcome(result)).toBe("1");
    expect(result.toolCalls[0]?.result).toBe(c);
    expect(() => JSON.stringify(result)).toThrow(
      expect.objectContaining({ code: "PTC_LISP_MEMORY_EXCEEDED" }),
    );
  });
});

describe("host data that cannot be read", () => {
  test.each(ENGINES)(
    "a context that is a revoked Proxy fails the run with host_data_error (%s)",
    async (engine) => {
      const session = createSession({ bindings: { kept: 1 } });
      const result = await run("(def kept 2) 1", { context: revoked() as never, engine, session });
      expect(result.ok).toBe(false);
      if (result.ok) return;
      expect(result.error.reason).toBe("host_data_error");
      expect(result.error.message).toMatch(
        /^the context \(the data\/ namespace\) could not be read: reading it threw "Cannot perform 'get' on a proxy that has been revoked"/,
      );
      expect(session.get("kept")).toBe(1);
    },
  );

  test.each(ENGINES)("a value the program reads names its data/ path (%s)", async (engine) => {
    const context = {
      top: undefined as unknown,
      p: throwingGetter(),
      q: Object.defineProperty({}, "a", {
        enumerable: true,
        get() {
          throw revoked();
        },
      }),
      r: { rows: [{ id: 1 }, revoked()] },
      k: new Proxy(
        { a: 1 },
        {
          ownKeys() {
            throw new Error("no keys for you");
          },
        },
      ),
    };
    Object.defineProperty(context, "top", {
      enumerable: true,
      get() {
        throw new Error("top broke");
      },
    });
    const messages: Record<string, string> = {};
    for (const program of [
      "data/top",
      "(:a data/p)",
      "(:a data/q)",
      "(mapv :id (:rows data/r))",
      "(keys data/k)",
      "(:a data/k)",
    ])
      messages[program] = outcome(await run(program, { context, engine }));
    const tail =
      "The host's value cannot be used: leave it out of the program, or have the host hand in plain data (objects, arrays, strings, numbers)";
    expect(messages).toEqual({
      "data/top": `host_data_error: data/top could not be read: reading it threw "top broke". ${tail}`,
      "(:a data/p)": `host_data_error: data/p.a could not be read: reading it threw "the getter broke". ${tail}`,
      "(:a data/q)": `host_data_error: data/q.a could not be read: reading it threw "(a value that could not be read)". ${tail}`,
      "(mapv :id (:rows data/r))": `host_data_error: data/r.rows[1] could not be read: reading it threw "Cannot perform 'getPrototypeOf' on a proxy that has been revoked". ${tail}`,
      "(keys data/k)": `host_data_error: data/k could not be read: reading it threw "no keys for you". ${tail}`,
      "(:a data/k)": "1",
    });
  });

  test.each(ENGINES)("a tool result read by the program names the tool and the path (%s)", async (engine) => {
    const result = await run("(mapv :a (tool/rows {}))", {
      tools: { rows: async () => [{ a: 1 }, throwingGetter()] },
      engine,
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.reason).toBe("host_data_error");
    expect(result.error.message).toMatch(
      /^the result of tool\/rows \(call 1 of the run\) at \[1\]\.a could not be read: reading it threw "the getter broke"/,
    );
  });

  test.each(ENGINES)(
    "a tool that returns a revoked Proxy fails as the tool failing, now or later (%s)",
    async (engine) => {
      for (const rows of [() => revoked(), async () => revoked()]) {
        const result = await run("(tool/rows {})", { tools: { rows }, engine });
        expect(outcome(result)).toBe(
          `tool_error: Tool 'rows' failed: "Cannot perform 'get' on a proxy that has been revoked"`,
        );
        expect(result.toolCalls).toMatchObject([
          { name: "rows", error: "Cannot perform 'get' on a proxy that has been revoked" },
        ]);
      }
    },
  );

  test.each(ENGINES)(
    "a program value that cannot be read leaves the session as it was (%s)",
    async (engine) => {
      const session = createSession({ bindings: { kept: 1 }, history: ["before"] });
      const result = await run('(def kept 2) (task "t" 3) [(tool/rows {})]', {
        tools: { rows: () => [revoked()] },
        session,
        engine,
      });
      expect(result.ok).toBe(false);
      if (result.ok) return;
      expect(result.error.reason).toBe("host_data_error");
      expect(result.error.message).toMatch(/^the program's value could not be read/);
      expect(session.get("kept")).toBe(1);
      expect(session.history()).toEqual(["before"]);
      expect(session.journalEntries()).toEqual({});
    },
  );

  test.each(ENGINES)("a promise in host data never keeps the run from ending (%s)", async (engine) => {
    const never = new Promise(() => {});
    const result = await run("data/p", { context: { p: never }, engine, limits: { timeoutMs: 50 } });
    expect(result.ok || result.error.reason).toBe("timeout");
    const failing = Promise.reject(new Error("it failed"));
    failing.catch(() => undefined);
    const rejected = await run("(:p data/o)", { context: { o: { p: failing } }, engine });
    expect(outcome(rejected)).toMatch(
      /^host_data_error: data\/o\.p is a promise, not data \(the host must await it before the run\)/,
    );
  });

  test("createSession with state that cannot be read throws a LispError and makes no session", () => {
    for (const init of [
      { bindings: { x: [revoked()] } },
      { history: [[revoked()]] },
      { journal: revoked() },
    ]) {
      expect(() => createSession(init as never)).toThrow(LispError);
    }
    expect(() => createSession({ bindings: { x: [revoked()] } })).toThrow(
      expect.objectContaining({ code: "PTC_LISP_HOST_DATA_ERROR" }),
    );
  });

  test("format, preview, toJson and equals throw a LispError naming the place, never a raw error", () => {
    const values = [revoked(), { rows: [1, throwingGetter()] }];
    for (const value of values) {
      const same = { rows: [1, { ok: 1, a: 2 }] };
      for (const call of [
        () => format(value),
        () => preview(value),
        () => toJson(value),
        () => equals(same, value),
      ]) {
        expect(call).toThrow(expect.objectContaining({ code: "PTC_LISP_HOST_DATA_ERROR" }));
      }
    }
    expect(() => format({ rows: [1, throwingGetter()] })).toThrow(
      /^the value at rows\[1\]\.a could not be read: reading it threw "the getter broke"/,
    );
  });

  test.each(ENGINES)(
    "so do they on a program's map or set that holds host data, or reads through to a host row (%s)",
    async (engine) => {
      const context = { rows: [throwingGetter()] };
      for (const [source, place] of [
        ["{:row (first data/rows)}", /^the value at row\.a could not be read/],
        ["(group-by :ok data/rows)", /^the value at \[1\]\[0\]\.a could not be read/],
        // A map derived from the row reads its other fields through to the row itself.
        ["(assoc (first data/rows) :x 1)", /^the value could not be read/],
        ["(mapv #(dissoc % :ok) data/rows)", /^the value at \[0\] could not be read/],
      ] as const) {
        const result = await run(source, { context, engine });
        expect(result.ok, source).toBe(true);
        if (!result.ok) continue;
        for (const call of [
          () => format(result.value),
          () => preview(result.value),
          () => toJson(result.value),
        ]) {
          expect(call, source).toThrow(expect.objectContaining({ code: "PTC_LISP_HOST_DATA_ERROR" }));
          expect(call, source).toThrow(place);
        }
      }
    },
  );

  test("so do they on a program's set whose host member broke after the run", async () => {
    // A set hashes its members when it is made: a getter that throws then fails the run. One that
    // breaks later (the host changed its object) is met when the host prints the run's value.
    let broken = false;
    const row = Object.defineProperty({ ok: 1 }, "a", {
      enumerable: true,
      get() {
        if (broken) throw new Error("the getter broke");
        return 2;
      },
    });
    const result = await run("#{(first data/rows)}", { context: { rows: [row] } });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    broken = true;
    expect(() => format(result.value)).toThrow(
      /^the value at #\{\}\.a could not be read: reading it threw "the getter broke"/,
    );
    expect(() => toJson(result.value)).toThrow(expect.objectContaining({ code: "PTC_LISP_HOST_DATA_ERROR" }));
  });
});

describe("what a tool throws", () => {
  const message = (() => {
    const error = new Error("hidden");
    Object.defineProperty(error, "message", {
      get() {
        throw new Error("no message");
      },
    });
    return error;
  })();
  const hostile = {
    toString() {
      throw new Error("no text");
    },
    toJSON() {
      throw new Error("no JSON");
    },
  };
  const cases: Array<[string, Array<[() => unknown, string]>]> = [
    ["an Error whose message throws", [[() => message, "(a value that could not be read)"]]],
    ["a revoked Proxy", [[revoked, "(a value that could not be read)"]]],
    [
      "a value that is not an Error",
      [
        [() => "plain text", "plain text"],
        [() => null, "null"],
        [() => undefined, "undefined"],
        [cyclic, "[object Object]"],
        [() => hostile, "(a value that could not be read)"],
      ],
    ],
    ["an Error with a long message", [[() => new Error("x".repeat(1_000_000)), `${"x".repeat(2000)}...`]]],
  ];

  for (const [what, values] of cases) {
    test.each(ENGINES)(
      `${what}, thrown or rejected, fails the run with tool_error and a safe message (%s)`,
      async (engine) => {
        for (const [make, text] of values) {
          const tools = {
            sync: () => {
              throw make();
            },
            later: () => Promise.reject(make()),
          };
          for (const name of ["sync", "later"]) {
            const result = await run(`(tool/${name} {})`, { tools, engine });
            expect(outcome(result)).toBe(`tool_error: Tool '${name}' failed: ${JSON.stringify(text)}`);
            expect(result.toolCalls[0]?.error).toBe(text);
          }
        }
      },
    );
  }
});

describe("run resolves whatever the host hands it", () => {
  class Order {
    id = 1;
    get total(): number {
      return 5;
    }
  }
  // Deeper than the JS stack: every walk that recurses must end with a documented reason.
  let deep: unknown = 1;
  for (let i = 0; i < 20_000; i++) deep = [deep];
  const never = new Promise(() => {});
  const hostileValues: Record<string, () => unknown> = {
    "a revoked Proxy": revoked,
    "a throwing getter": throwingGetter,
    "a Proxy whose ownKeys throws": () =>
      new Proxy(
        { a: 1 },
        {
          ownKeys() {
            throw new Error("no keys");
          },
        },
      ),
    "a value that contains itself": cyclic,
    "an array that contains itself": () => {
      const items: unknown[] = [1];
      items.push(items);
      return items;
    },
    "a bigint": () => 2n ** 80n,
    "a symbol": () => Symbol("s"),
    "a registered symbol": () => Symbol.for("s"),
    "a host function": () => () => 1,
    "a Date": () => new Date(0),
    "a Map": () => new Map([["a", 1]]),
    "a class instance": () => new Order(),
    "a typed array": () => new Uint8Array([1, 2]),
    // biome-ignore lint/suspicious/noSparseArray: a hole is what this value is about
    "a sparse array": () => [1, , 3],
    "a vector nested 20,000 deep": () => deep,
    "a promise that never settles": () => never,
    "an object made with Object.create": () => Object.create({ a: 1 }),
  };
  const programs = [
    "data/x",
    "(str data/x)",
    "(pr-str data/x)",
    "(count data/x)",
    "(keys data/x)",
    "(first data/x)",
    "(:a data/x)",
    "(= data/x data/x)",
    "(= data/x [data/x])",
    "#{data/x}",
    "(json/generate-string data/x)",
    "(tool/echo {:x data/x})",
    "(tool/give {})",
    "(fail data/x)",
    "(println data/x)",
    "(sort-by str [data/x data/x])",
    "(def y data/x)",
  ];
  // Reasons a hostile value may end a run with; an internal error is never one of them.
  const documented = new Set([
    "host_data_error",
    "type_error",
    "invalid_tool_args",
    "tool_error",
    "fail",
    "timeout",
    "memory_exceeded",
    "recursion_limit_exceeded",
  ]);

  /** Runs `program` (which names `data/x`) with `value` reaching it from `place`. */
  async function runWith(program: string, value: unknown, place: string, engine: string): Promise<RunResult> {
    const options = {
      engine: engine as (typeof ENGINES)[number],
      tools: { echo: (args: unknown) => args, give: () => value },
      limits: { timeoutMs: 20, maxMemoryBytes: 1_000_000 },
    };
    switch (place) {
      case "context":
        return run(program, { ...options, context: { x: value } });
      case "nested":
        return run(program.replaceAll("data/x", "(:x data/o)"), { ...options, context: { o: { x: value } } });
      case "tool result":
        return run(`(let [x (tool/give {})] ${program.replaceAll("data/x", "x")})`, options);
      default: {
        // Kept by a session from an earlier program, then used by the next.
        const session = createSession();
        const kept = await run("(def x (tool/give {}))", { ...options, session });
        return kept.ok ? run(program.replaceAll("data/x", "x"), { ...options, session }) : kept;
      }
    }
  }

  for (const [what, make] of Object.entries(hostileValues)) {
    test.each(ENGINES)(
      `${what}: every program resolves with a value or a documented reason (%s)`,
      async (engine) => {
        const unexpected: string[] = [];
        for (const program of programs) {
          for (const place of ["context", "nested", "tool result", "session"]) {
            const result = await runWith(program, make(), place, engine);
            if (!result.ok && !documented.has(result.error.reason))
              unexpected.push(`${place} ${program}: ${result.error.reason}: ${result.error.message}`);
            // What the host does with the result next never throws anything but a LispError. (Past
            // the stack, JSON.stringify itself cannot write what toJson makes: toJson is the test.)
            const value = result.ok ? result.value : result.error.value;
            const uses = [
              () => toJson(value),
              () => format(value, { maxChars: 10_000 }),
              () => preview(value),
              () => JSON.stringify(result),
            ];
            for (const use of what.includes("deep") ? uses.slice(0, 3) : uses) {
              try {
                use();
              } catch (error) {
                if (!(error instanceof LispError))
                  unexpected.push(`${place} ${program}: host call threw ${String(error)}`);
              }
            }
          }
        }
        expect(unexpected).toEqual([]);
      },
    );
  }
});
