/**
 * The program cache through `run`: a text run again finds its program (the last one found is
 * found without a Map lookup), and whatever else the key holds (engine, tool names, reader
 * limits, a session's names) keeps programs of one text apart, however runs alternate.
 */
import { describe, expect, test } from "vitest";
import { createSession, format, run } from "../index.js";
import { programCacheStats } from "./program-cache.js";

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
