/** Sessions through the public API: starting one from saved state, and what it remembers. */
import { describe, expect, test } from "vitest";
import { createSession, format, LispMap, run } from "./index.js";
import { evaluate, failure } from "./test-support.js";

describe("createSession(init)", () => {
  test("bindings are defined as if by def, and later programs can use and replace them", async () => {
    const session = createSession({ bindings: { limit: 10, label: "orders", missing: undefined } });
    expect(session.names()).toEqual(["label", "limit", "missing"]);
    expect(await evaluate("[(+ limit 1) label missing]", { session })).toBe('[11 "orders" nil]');
    expect(await evaluate("(def limit 20) limit", { session })).toBe("20");
  });

  test.each(["fast", "general"] as const)(
    "functions from another session stay callable and find the names they use in the new one (%s)",
    async (engine) => {
      const original = createSession();
      await evaluate("(def rate 2) (defn scale [n] (* n rate)) (defn twice-scaled [n] (* 2 (scale n)))", {
        session: original,
        engine,
      });
      const copy = createSession({ bindings: original.bindings() });
      expect(copy.names()).toEqual(["rate", "scale", "twice-scaled"]);
      expect(await evaluate("(twice-scaled 5)", { session: copy, engine })).toBe("20");
      await evaluate("(def rate 3)", { session: copy, engine });
      expect(await evaluate("[(scale 5) (twice-scaled 5)]", { session: copy, engine })).toBe("[15 30]");
      expect(await evaluate("(scale 5)", { session: original, engine })).toBe("10");
    },
  );

  test("a seeded function whose name is not seeded too reports it as unbound", async () => {
    const original = createSession();
    await evaluate("(def rate 2) (defn scale [n] (* n rate))", { session: original });
    const copy = createSession({ bindings: { scale: original.get("scale") } });
    expect((await failure("(scale 5)", { session: copy })).reason).toBe("unbound_var");
  });

  test("history seeds *1 *2 *3, newest first, keeping three", async () => {
    const session = createSession({ history: [1, "two", null, 4] });
    expect(session.history()).toEqual([1, "two", null]);
    expect(await evaluate("[*1 *2 *3]", { session })).toBe('[1 "two" nil]');
  });

  test("the journal seeds task results, from a plain object or a Map", async () => {
    let calls = 0;
    const tools = {
      load: () => {
        calls++;
        return "fresh";
      },
    };
    for (const journal of [{ load: "saved" }, new Map([["load", "saved"]])]) {
      const session = createSession({ journal });
      expect(await evaluate('(task "load" (tool/load))', { session, tools })).toBe('"saved"');
      expect(session.journalEntries()).toEqual({ load: "saved" });
    }
    expect(calls).toBe(0);
  });

  test("journalEntries lists completed tasks in order, with any id as an own key", async () => {
    const session = createSession();
    expect(session.journalEntries()).toEqual({});
    await run('(task "b" {:n 1}) (task "__proto__" 2) (task "a" 3)', { session });
    const entries = session.journalEntries();
    expect(Object.keys(entries)).toEqual(["b", "__proto__", "a"]);
    expect(Object.hasOwn(entries, "__proto__")).toBe(true);
    expect(entries.b).toBeInstanceOf(LispMap);
    expect(format(entries.b)).toBe("{:n 1}");
  });

  test("a session's own accessors are enough to carry it over", async () => {
    const original = createSession();
    await evaluate('(defn greet [who] (str "hi " who)) (task "t" 41)', { session: original });
    await evaluate('(greet "ada")', { session: original });
    const copy = createSession({
      bindings: original.bindings(),
      history: original.history(),
      journal: original.journalEntries(),
    });
    expect(await evaluate('[*1 (greet "bo") (task "t" 0)]', { session: copy })).toBe('["hi ada" "hi bo" 41]');
  });

  test.each(["general", "fast", "adaptive"] as const)(
    "a failed program leaves the journal as it was: entries, values and order (%s)",
    async (engine) => {
      let calls = 0;
      const tools = {
        load: () => {
          calls++;
          return calls;
        },
      };
      const session = createSession({ journal: { a: "first", b: "second" } });
      for (const source of [
        '(task "c" (tool/load {})) (task-reset "a") (task "a" "again") (fail "stop")',
        '(task "c" (tool/load {})) (/ 1 0)',
        '(task-reset "b") (task "d" 4) (+ 1 "x")',
      ]) {
        expect((await run(source, { session, tools, engine })).ok).toBe(false);
        expect(Object.entries(session.journalEntries())).toEqual([
          ["a", "first"],
          ["b", "second"],
        ]);
      }
      // What a failed program completed is reported with its failure, for a host that retries.
      const failed = await run('(task "e" (tool/load {})) (fail "stop")', { session, tools, engine });
      expect(failed.ok === false && failed.completedTasks).toEqual({ e: 3 });
      const untouched = await run('(task "a" "ignored") (fail "stop")', { session, tools, engine });
      expect(untouched.ok === false && "completedTasks" in untouched).toBe(false);
      calls = 2;
      // The task of a failed program runs again: nothing of it was kept.
      expect(await evaluate('(task "c" (tool/load {}))', { session, tools, engine })).toBe("3");
      expect(session.journalEntries()).toEqual({ a: "first", b: "second", c: 3 });
    },
  );

  test("seeded state survives a failed program, like any def", async () => {
    const session = createSession({ bindings: { x: 1 }, history: [7] });
    expect((await failure("(def x 2) (/ 1 0)", { session })).reason).toBe("arithmetic_error");
    expect(session.get("x")).toBe(1);
    expect(session.history()).toEqual([7]);
  });

  test.each([
    ["a non-object", [] as never, /plain object \{ bindings, history, journal \}/],
    ["null", null as never, /plain object \{ bindings, history, journal \}/],
    ["an unknown option", { binding: {} } as never, /unknown createSession option "binding"/],
    ["bindings that are not an object", { bindings: [["x", 1]] } as never, /bindings must be a plain object/],
    ["a binding name with a space", { bindings: { "a b": 1 } }, /"a b" is not a plain symbol name/],
    ["a namespaced binding name", { bindings: { "data/x": 1 } }, /"data\/x" is not a plain symbol name/],
    ["a literal as a binding name", { bindings: { nil: 1 } }, /"nil" is not a plain symbol name/],
    ["history that is not an array", { history: { 0: 1 } } as never, /history must be an array/],
    ["a journal that is not a map", { journal: 5 } as never, /journal must be a plain object or a Map/],
    ["a journal with a non-string id", { journal: new Map([[1, "x"]]) } as never, /ids must be strings/],
  ])("rejects %s with invalid_options", (_what, init, message) => {
    expect(() => createSession(init)).toThrow(message);
    expect(() => createSession(init)).toThrow(expect.objectContaining({ code: "PTC_LISP_INVALID_OPTIONS" }));
  });
});

describe("what a session remembers", () => {
  test("*1 keeps a long string as its first 1,021 characters and '...': 1,024 in all", async () => {
    const session = createSession();
    const text = `${"a".repeat(1021)}${"b".repeat(979)}`;
    await run("data/text", { session, context: { text } });
    const kept = session.history()[0] as string;
    expect(kept).toHaveLength(1024);
    expect(kept).toBe(`${"a".repeat(1021)}...`);
    expect(await evaluate("(count *1)", { session })).toBe("1024");
  });

  test("a string of exactly 1,024 characters is kept whole, and so is a seeded one", async () => {
    const exact = "x".repeat(1024);
    const session = createSession({ history: ["y".repeat(1025)] });
    expect(session.history()[0]).toBe(`${"y".repeat(1021)}...`);
    await run("data/text", { session, context: { text: exact } });
    expect(session.history()[0]).toBe(exact);
  });
});

describe("what a session remembers of a large map or set", () => {
  test.each([
    ["a map", '(into {} (map (fn [i] [i (str "v" i)]) (range 100000)))', "map?"],
    ["a set", "(set (range 100000))", "set?"],
  ])(
    "*1 keeps %s cut to entries that fit in about 1,024 characters, as for a vector",
    async (_what, source, kind) => {
      const session = createSession();
      expect((await run(source, { session })).ok).toBe(true);
      expect(format(session.history()[0]).length).toBeLessThanOrEqual(1024);
      expect(await evaluate(`[(${kind} *1) (< 50 (count *1) 1000)]`, { session })).toBe("[true true]");
    },
  );

  test("a map that fits is kept whole, as it is", async () => {
    const session = createSession();
    await run("{:a 1 :b [1 2 3]}", { session });
    expect(format(session.history()[0])).toBe("{:a 1 :b [1 2 3]}");
  });
});
