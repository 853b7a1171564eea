/**
 * The program cache through `run`: a text run again finds its program (the last one found is
 * found without a Map lookup), and whatever else the key holds (engine, tool names, reader
 * limits, a session's names) keeps programs of one text apart, however runs alternate.
 */
import { describe, expect, test } from "vitest";
import { createSession, format, run } from "../index.js";
import { KEEP_ALIVE_AFTER_MS, keepAliveStats, programCacheStats } from "./program-cache.js";

/** The value of a run as text, or its error's reason. */
async function outcome(source: string, options: Parameters<typeof run>[1] = {}): Promise<string> {
  const result = await run(source, options);
  return result.ok ? format(result.value) : `error: ${result.error.reason}`;
}

describe("a program found again", () => {
  test("the same text and options find the last program, with its value", async () => {
    const source = "(reduce + (map inc [1 2 3]))";
    for (let i = 0; i < 3; i++) await run(source, { engine: "general" });
    const before = programCacheStats.lastFound;
    expect(await outcome(source, { engine: "general" })).toBe("9");
    expect(programCacheStats.lastFound).toBe(before + 1);
  });

  test("texts alternating each get their own program", async () => {
    const texts = ["(+ 1 2)", '(str "a" "b")', "(count data/xs)", "nil", "(/ 1 0)"];
    const expected = ["3", '"ab"', "3", "nil", "error: arithmetic_error"];
    for (let round = 0; round < 4; round++)
      for (const [i, text] of texts.entries())
        expect([text, await outcome(text, { context: { xs: [1, 2, 3] } })]).toEqual([text, expected[i]]);
  });

  test("one text on other engines, tools and limits is a program of its own each time", async () => {
    const source = "(tool/t {})";
    for (let round = 0; round < 3; round++) {
      expect(await outcome(source, { tools: { t: () => 1 } })).toBe("1");
      expect(await outcome(source)).toBe("error: unknown_tool");
      expect(await outcome(source, { tools: { t: () => 2 }, engine: "general" })).toBe("2");
      expect(await outcome(source, { tools: { u: () => 3 } })).toBe("error: unknown_tool");
      expect(await outcome("[[[1]]]", { limits: { maxNesting: 2 } })).toBe("error: parse_error");
      expect(await outcome("[[[1]]]")).toBe("[[[1]]]");
    }
  });

  test("tool names holding a comma keep their programs apart from the names they join", async () => {
    // {a, b} and {"a,b"} once made the same key text "a,b": the program analyzed with tool a
    // then ran with no tool a, its unknown tool going unnoticed while its branch was not taken.
    const source = "(if (< 2 1) (tool/a {}) :skipped)";
    for (let round = 0; round < 3; round++) {
      expect(await outcome(source, { tools: { a: () => 1, b: () => 2 } })).toBe(":skipped");
      expect(await outcome(source, { tools: { "a,b": () => 3 } })).toBe("error: unknown_tool");
    }
  });

  test("a name a session defines changes what the same text means", async () => {
    const source = "(x)";
    expect(await outcome(source)).toBe("error: unbound_var");
    const session = createSession();
    expect(await outcome("(defn x [] 42)", { session })).toBe("#'x");
    for (let round = 0; round < 3; round++) {
      expect(await outcome(source, { session })).toBe("42");
      expect(await outcome(source)).toBe("error: unbound_var");
    }
  });
});

describe("programs kept alive for their machine code", () => {
  /** A tool that answers after `ms`: a run calling it lasts at least that long, however loaded the machine. */
  const slow = (ms: number) => ({ wait: () => new Promise((done) => setTimeout(() => done(1), ms)) });

  test("a run is kept exactly when its reported duration reached the threshold, whether it ended in a value or an error", async () => {
    const texts = [
      (n: number) => `(+ ${n} (tool/wait {}))`,
      (n: number) => `(do (tool/wait {}) (/ ${n} 0))`,
      (n: number) => `(+ ${n} 1)`,
      (n: number) => `(/ ${n} 0)`,
    ];
    for (const [i, text] of texts.entries()) {
      const before = keepAliveStats.kept;
      const result = await run(text(1000 + i), { tools: slow(i < 2 ? 5 * KEEP_ALIVE_AFTER_MS : 0) });
      expect([i, keepAliveStats.kept - before]).toEqual([
        i,
        result.durationMs >= KEEP_ALIVE_AFTER_MS ? 1 : 0,
      ]);
      if (i < 2) expect(keepAliveStats.kept - before).toBe(1);
    }
  });

  test("a cached program run again is not kept again", async () => {
    const source = "(+ 2000 (tool/wait {}))";
    const tools = slow(5 * KEEP_ALIVE_AFTER_MS);
    // The first run keeps only a mark in the cache and the second prepares the program it keeps:
    // two programs, each kept once; the runs after find the second.
    await run(source, { tools });
    await run(source, { tools });
    const before = keepAliveStats.kept;
    const found = programCacheStats.lastFound;
    for (let i = 0; i < 3; i++) expect((await run(source, { tools })).ok).toBe(true);
    expect(programCacheStats.lastFound).toBeGreaterThan(found);
    expect(keepAliveStats.kept).toBe(before);
  });
});
