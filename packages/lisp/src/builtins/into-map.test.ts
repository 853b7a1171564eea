/**
 * `(into {} ...)` written flat (support/into-map.ts): the into builtin's flat map of a vector of
 * entries, and generated code's `(into {} (map (fn [[_ k v]] [k v]) xs))`, which collects keys and
 * values with no entry vector. Both against the map made entry by entry with assoc, which goes
 * through neither, over keys that take the flat way (plain strings, duplicates) and keys that must
 * not (hyphens and their underscore twins, keywords and their string twins, NUL-led strings,
 * numbers, more than eight entries); the counters prove the flat ways ran.
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { fastTierStats } from "../compiler/fast-tier.js";
import { toJson } from "../format/to-json.js";
import { format, type RunOptions, run } from "../index.js";
import { codeGenerationWorks, generatedSource } from "../test-support.js";
import { intoPathStats } from "./support/into-map.js";
import { regexPathStats } from "./support/regex-paths.js";

/** A program's value printed, or its error's reason and message. */
async function outcome(source: string, options: RunOptions): Promise<unknown> {
  const result = await run(source, options);
  return result.ok ? format(result.value) : { reason: result.error.reason, message: result.error.message };
}

const PLAIN_KEYS = ["a", "b", "c", "", "a_b", "x_y", "é", "👍"];
const OTHER_KEYS = ["a-b", "x-y", "\u0000a", ":a", ":b", ":a_b", 1, 2];

/**
 * [key value] entries as data: a key is a string, or `:k` for the keyword k, or a number. Half the
 * samples have plain text keys only (duplicates among them), half mix in the others.
 */
const entries = fc.oneof(
  fc.array(fc.tuple(fc.constantFrom(...PLAIN_KEYS), fc.oneof(fc.integer(), fc.constant(null))), {
    maxLength: 10,
  }),
  fc.array(
    fc.tuple(fc.constantFrom(...PLAIN_KEYS, ...OTHER_KEYS), fc.oneof(fc.integer(), fc.constant(null))),
    { maxLength: 10 },
  ),
);

/** The entries with `:k` strings read as keywords, built inside the program from the data. */
const ENTRIES =
  '(mapv (fn [[k v]] [(if (and (string? k) (str/starts-with? k ":")) (keyword (subs k 1)) k) v]) data/e)';

/** The map of the entries made one assoc at a time: the builder's rules, not a flat way. */
const BY_ASSOC = `(reduce (fn [m [k v]] (assoc m k v)) {} ${ENTRIES})`;

describe("(into {} entries) written flat", () => {
  test("the into builtin gives the map assoc gives, the flat way when every key is plain text", async () => {
    const samples = fc.sample(entries, { numRuns: 300, seed: 22 });
    let flat = 0;
    for (const e of samples) {
      const before = intoPathStats.flatTextKeyMaps;
      const options: RunOptions = { context: { e }, engine: "general" };
      expect(await outcome(`(into {} ${ENTRIES})`, options), JSON.stringify(e)).toEqual(
        await outcome(BY_ASSOC, options),
      );
      const plain =
        e.length > 0 &&
        e.length <= 8 &&
        e.every(
          ([k]) => typeof k === "string" && !k.includes("-") && !k.startsWith(":") && !k.startsWith("\u0000"),
        );
      expect(intoPathStats.flatTextKeyMaps - before, JSON.stringify(e)).toBe(plain ? 1 : 0);
      if (plain) flat++;
    }
    expect(flat).toBeGreaterThan(60);
  });

  test("an item that is not an entry is the builder's error", async () => {
    const result = await run('(into {} [["a" 1] ["b"]])');
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error.message).toContain("a map entry must be a [key value] vector");
  });

  test.runIf(codeGenerationWorks)(
    "generated code collects (fn [[k v]] [k v])'s keys and values flat: the map assoc gives, on every engine",
    async () => {
      const source = `(into {} (map (fn [[k v]] [k v]) ${ENTRIES}))`;
      const generated = generatedSource(source);
      expect(generated).toMatch(/\$\.mapOfFlatPairs\(out\d+\)/);
      // The {} itself is never made.
      expect(generated).not.toContain("$.keywordMap([])");
      const samples = fc.sample(entries, { numRuns: 150, seed: 23 });
      for (const e of samples) {
        const expected = await outcome(BY_ASSOC, { context: { e } });
        const before = intoPathStats.flatPairMaps;
        const reruns = fastTierStats.errorReruns;
        expect(await outcome(source, { context: { e }, engine: "fast" }), JSON.stringify(e)).toEqual(
          expected,
        );
        expect(intoPathStats.flatPairMaps - before).toBe(1);
        expect(fastTierStats.errorReruns).toBe(reruns);
        for (const engine of ["general", "adaptive"] as const)
          expect(await outcome(source, { context: { e }, engine }), engine).toEqual(expected);
      }
    },
  );

  test.runIf(codeGenerationWorks)(
    "log lines: re-seq's matches straight into maps, with nil values and lets in the fn",
    async () => {
      const lines = Array.from(
        { length: 40 },
        (_, i) =>
          `2024-03-01T12:00:00Z INFO service=${i % 3 === 0 ? "api" : "db"} latency=${i}ms request=${i} latency=${i + 1}ms`,
      );
      const programs = [
        '(mapv (fn [line] (into {} (map (fn [[_ k v]] [k v]) (re-seq #"(\\w+)=(\\S+)" line)))) data/lines)',
        '(mapv (fn [line] (into {} (map (fn [[_ k v]] (let [n (count v)] [k (when (> n 3) v)])) (re-seq #"(\\w+)=(\\S+)" line)))) data/lines)',
      ];
      for (const source of programs) {
        expect(generatedSource(source)).toMatch(/\$\.mapOfFlatPairs\(out\d+\)/);
        const streamed = regexPathStats.streamedMatches;
        const itemsOnly = regexPathStats.itemsOnly;
        const maps = intoPathStats.flatPairMaps;
        const fast = await run(source, { context: { lines }, engine: "fast" });
        // Each line's matches found one at a time, each destructured from the native engine's
        // result (four per line), with no vector for the matches nor for each match.
        expect(regexPathStats.streamedMatches - streamed).toBe(lines.length);
        expect(regexPathStats.itemsOnly - itemsOnly).toBe(4 * lines.length);
        expect(intoPathStats.flatPairMaps - maps).toBe(lines.length);
        const general = await run(source, { context: { lines }, engine: "general" });
        expect(fast.ok && toJson(fast.value)).toEqual(general.ok && toJson(general.value));
        // The {} and the [k v] vectors generated code never makes are charged all the same.
        expect(fast.usage?.memoryBytes).toBe(general.usage?.memoryBytes);
      }
      const first = await run(programs[0] as string, { context: { lines }, engine: "fast" });
      // A later duplicate key wins, as into has it.
      expect(first.ok && toJson(first.value)).toContainEqual({
        service: "api",
        latency: "1ms",
        request: "0",
      });
    },
  );

  test.runIf(codeGenerationWorks)(
    "into {} of other entries: the {} made after the loop, into's answer",
    async () => {
      // Not a [k v] literal: the stream is collected and handed to the into builtin, with the {}.
      for (const [source, expected] of [
        ["(into {} (map (fn [x] (vec (list x (* x x)))) [1 2 3]))", "{1 1 2 4 3 9}"],
        ["(into {} (filter (fn [[k v]] (> v 1)) [[:a 1] [:b 2]]))", "{:b 2}"],
        ["(into {:z 0} (map (fn [x] [x x]) [1]))", "{1 1 :z 0}"],
      ] as const) {
        expect(generatedSource(source), source).not.toContain("mapOfFlatPairs");
        for (const engine of ["fast", "general"] as const)
          expect(await outcome(source, { engine }), `${engine} ${source}`).toBe(expected);
      }
    },
  );

  test.runIf(codeGenerationWorks)(
    "the memory limit still stops a large map made in generated code",
    async () => {
      const source = '(count (into {} (map (fn [i] [(str "k" i) i]) (range 200000))))';
      expect(generatedSource(source)).toMatch(/\$\.mapOfFlatPairs\(out\d+\)/);
      const result = await run(source, {
        engine: "fast",
        limits: { maxMemoryBytes: 2_000_000, timeoutMs: 60_000 },
      });
      expect(result.ok).toBe(false);
      expect(!result.ok && result.error.reason).toBe("memory_exceeded");
      const fits = await run(source, {
        engine: "fast",
        limits: { maxMemoryBytes: 200_000_000, timeoutMs: 60_000 },
      });
      expect(fits.ok && fits.value).toBe(200000);
    },
  );
});
