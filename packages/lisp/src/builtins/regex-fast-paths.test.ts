/**
 * The regex builtins' fast paths on V8's engine (support/str-regex.ts: re-seq's loop that collects
 * native matches without a callback into a vector of their number, split of a short text as one
 * call of V8's split) against the plain path. Each pattern also runs written with a leading `(?:)`:
 * it matches the empty text, so it changes no match, but it puts the pattern outside the native
 * subset (regex-native.ts), so that twin always runs on RE2. Both must give the same values and
 * charge the same memory, and the counters must show the fast path ran for the pattern as written.
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { toJson } from "../format/to-json.js";
import { run } from "../run.js";
import { NATIVE_TEXT_LIMIT, nativePattern } from "../values/regex-native.js";
import { regexPathStats } from "./support/regex-paths.js";

const PATTERNS = [
  "\\s+",
  "(\\w+)=(\\S+)",
  "latency=(\\d+)ms",
  "ERROR|WARN",
  "(ERROR|WARN) (\\w+)",
  "[,;]",
  "(-)",
  "a(b?)c",
  "(\\d)(\\d)(\\d)",
  "(a)(b)(c)(d)",
  "x+",
  "^a",
  "b$",
  "[^a-c]+",
  ".",
];

const line = fc.string({
  unit: fc.constantFrom(
    "a",
    "b",
    "c",
    "d",
    "x",
    "1",
    "2",
    "3",
    "=",
    " ",
    "-",
    ",",
    ";",
    "é",
    "👍",
    "\t",
    "\u00a0",
    "ERROR",
    "WARN",
    "ms",
  ),
  maxLength: 30,
});

const PROGRAM = "[(re-seq (re-pattern data/p) data/s) (str/split data/s (re-pattern data/p))]";

/** The program's value and the memory it charged, for one spelling of the pattern. */
async function outcome(
  pattern: string,
  text: string,
): Promise<{ value: unknown; memory: number | undefined }> {
  const result = await run(PROGRAM, { context: { p: pattern, s: text } });
  if (!result.ok) throw new Error(result.error.message);
  return { value: toJson(result.value), memory: result.usage?.memoryBytes };
}

async function expectSameAsPlain(pattern: string, text: string): Promise<void> {
  const fast = await outcome(pattern, text);
  const plain = await outcome(`(?:)${pattern}`, text);
  expect(fast, `${pattern} on ${JSON.stringify(text).slice(0, 80)}`).toEqual(plain);
}

describe("re-seq and split on the native engine agree with RE2", () => {
  test("every listed pattern is in the native subset, and its twin is not", () => {
    for (const pattern of PATTERNS) {
      expect(nativePattern(pattern)?.nonEmpty, pattern).toBe(true);
      expect(nativePattern(`(?:)${pattern}`), pattern).toBeUndefined();
    }
  });

  test("short texts: the same matches, pieces and memory, by way of the fast paths", async () => {
    const before = { ...regexPathStats };
    const samples = fc.sample(fc.tuple(fc.constantFrom(...PATTERNS), line), { numRuns: 400, seed: 27 });
    for (const [pattern, text] of samples) await expectSameAsPlain(pattern, text);
    // Each sample ran both builtins natively once (the twin never does).
    expect(regexPathStats.nativeSplits - before.nativeSplits).toBe(samples.length);
    expect(regexPathStats.nativeCollects - before.nativeCollects).toBe(samples.length);
    // re-seq's vector is made at the number of matches (shortTextMatches), its charge unchanged.
    expect(regexPathStats.exactVectors - before.exactVectors).toBe(samples.length);
  });

  test("long texts of short lines, with a line too long for the native engine among them", async () => {
    const before = regexPathStats.nativeCollects;
    const samples = fc.sample(
      fc.tuple(fc.constantFrom(...PATTERNS), fc.array(line, { minLength: 1, maxLength: 6 })),
      {
        numRuns: 40,
        seed: 28,
      },
    );
    const long = "x=1 a-b,c ".repeat(NATIVE_TEXT_LIMIT / 8);
    for (const [pattern, lines] of samples) {
      const text = [...lines, long, ...lines].join("\n").repeat(16);
      expect(text.length).toBeGreaterThan(NATIVE_TEXT_LIMIT);
      await expectSameAsPlain(pattern, text);
    }
    // Patterns that cannot match across lines collect the short lines' matches natively.
    expect(regexPathStats.nativeCollects - before).toBeGreaterThan(samples.length);
  });

  test("log lines: key=value pairs and fields split at spaces", async () => {
    const lines = Array.from(
      { length: 50 },
      (_, i) => `2024-03-01T12:00:00Z INFO service=api latency=${i}ms request=${i}`,
    );
    const before = { ...regexPathStats };
    const result = await run(
      '[(mapv #(re-seq #"(\\w+)=(\\S+)" %) data/lines) (mapv #(str/split % #"\\s+") data/lines)]',
      { context: { lines } },
    );
    expect(result.ok).toBe(true);
    const [pairs, fields] = toJson(result.ok ? result.value : null) as [string[][][], string[][]];
    expect(pairs[7]).toEqual([
      ["service=api", "service", "api"],
      ["latency=7ms", "latency", "7ms"],
      ["request=7", "request", "7"],
    ]);
    expect(fields[7]).toEqual(lines[7]?.split(" "));
    expect(regexPathStats.nativeCollects - before.nativeCollects).toBe(50);
    expect(regexPathStats.nativeSplits - before.nativeSplits).toBe(50);
  });
});
