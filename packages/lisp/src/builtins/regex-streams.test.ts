/**
 * re-seq as the source of a lazy pipeline (analyzer/pipelines.ts, lazy-pipeline.ts pushMatches,
 * support/str-regex.ts MatchCursor, and the fused loops of compiler/fused-pipelines.ts): `(->> (re-seq re text) (map f) (reduce + 0))` hands each
 * match to the stages as it is found instead of keeping every match in re-seq's vector. The same
 * values as the eager spelling (a `let` between the calls, which no pipeline spans), the same
 * values and memory on every engine and on both regex engines (a leading `(?:)` puts a pattern
 * outside the native subset, so it runs on RE2), and the counter shows the streamed path ran.
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { promotionPolicy } from "../compiler/promotion.js";
import { toJson } from "../format/to-json.js";
import { type RunOptions, run } from "../run.js";
import { codeGenerationWorks } from "../test-support.js";
import { NATIVE_TEXT_LIMIT } from "../values/regex-native.js";
import { lazyPipelineStats } from "./lazy-pipeline.js";
import { regexPathStats } from "./support/regex-paths.js";

async function outcome(
  source: string,
  options: RunOptions,
): Promise<{ value: unknown; memory: number | undefined }> {
  const result = await run(source, options);
  if (!result.ok) throw new Error(`${source}: ${result.error.message}`);
  return { value: toJson(result.value), memory: result.usage?.memoryBytes };
}

const lines = Array.from(
  { length: 400 },
  (_, i) =>
    `2024-03-01T12:00:00Z ${i % 7 === 0 ? "ERROR" : "INFO"} service=s${i % 5} latency=${i}ms request=${i}`,
);
/** A text longer than the native engine searches at once, with one line longer than that too. */
const longText = [
  ...lines.slice(0, 200),
  `x=1 ${"a=b ".repeat(NATIVE_TEXT_LIMIT / 2)}`,
  ...lines.slice(200),
].join("\n");
const shortText = lines.slice(0, 3).join("\n");

/** Pipelines over (re-seq P data/s), P standing for the pattern, and their eager spellings. */
const PROGRAMS: ReadonlyArray<[string, string, string]> = [
  [
    "latency=(\\d+)ms",
    "(->> (re-seq P data/s) (map #(parse-long (second %))) (reduce + 0))",
    "(let [ms (re-seq P data/s) xs (map #(parse-long (second %)) ms)] (reduce + 0 xs))",
  ],
  [
    "(\\w+)=(\\S+)",
    '(->> (re-seq P data/s) (filter #(= (second %) "service")) (map last) frequencies)',
    '(let [ms (re-seq P data/s) xs (filter #(= (second %) "service") ms)] (frequencies (map last xs)))',
  ],
  [
    "\\w+=\\S+",
    "(count (keep #(when (> (count %) 9) %) (re-seq P data/s)))",
    "(let [ms (re-seq P data/s)] (count (keep #(when (> (count %) 9) %) ms)))",
  ],
  [
    "ERROR|INFO",
    '(take 3 (map #(str % "!") (re-seq P data/s)))',
    '(let [ms (re-seq P data/s)] (take 3 (map #(str % "!") ms)))',
  ],
  [
    "request=(\\d+)",
    '(first (remove #(= (second %) "0") (re-seq P data/s)))',
    '(let [ms (re-seq P data/s)] (first (remove #(= (second %) "0") ms)))',
  ],
  [
    "\\d+",
    "(->> (re-seq P data/s) (map parse-long) (partition 2) (map #(apply + %)) (reduce + 0))",
    "(let [ms (re-seq P data/s) xs (map parse-long ms)] (reduce + 0 (map #(apply + %) (partition 2 xs))))",
  ],
];

function spell(program: string, pattern: string): string {
  return program.replaceAll("P", `#"${pattern.replaceAll("\\", "\\\\")}"`);
}

describe("re-seq's matches streamed through a pipeline's stages", () => {
  for (const [name, text] of [
    ["a short text", shortText],
    ["a long text", longText],
  ] as const) {
    test(`${name}: the eager spelling's values, the same on every engine and on RE2`, async () => {
      for (const [pattern, lazy, eager] of PROGRAMS) {
        const context = { s: text };
        const before = regexPathStats.streamedMatches;
        const expected = (await outcome(spell(eager, pattern), { context })).value;
        expect(regexPathStats.streamedMatches, eager).toBe(before);
        const streamed = await outcome(spell(lazy, pattern), { context });
        expect(streamed.value, lazy).toEqual(expected);
        // Every shape streams its matches, partition's pulls too.
        expect(regexPathStats.streamedMatches, lazy).toBeGreaterThan(before);
        for (const engine of ["general", "fast", "adaptive"] as const)
          expect(await outcome(spell(lazy, pattern), { context, engine }), `${engine} ${lazy}`).toEqual(
            streamed,
          );
        const onRe2 = await outcome(spell(lazy, `(?:)${pattern}`), { context });
        expect(onRe2, `RE2 ${lazy}`).toEqual(streamed);
      }
    });
  }

  // A path of generated code: where code may not be generated, "fast" runs the general evaluator.
  test.runIf(codeGenerationWorks)(
    "a fn that destructures each match reads the native engine's result, no vector made",
    async () => {
      const kv = (pattern: string, params: string) =>
        `(mapv (fn [line] (into {} (map (fn [${params}] [k v]) (re-seq #"${pattern}" line)))) data/lines)`;
      const cases: ReadonlyArray<[string, boolean]> = [
        [kv("(\\w+)=(\\S+)", "[_ k v]"), true],
        // A group that may take no part: outside the native subset, each match is RE2's vector.
        [kv("(\\w+)=(\\d+)?", "[_ k v]"), false],
        [kv("(\\w+)=(\\S+)", "[_ k & [v]]"), false],
        [
          '(reduce + 0 (map (fn [[_ n]] (parse-long n)) (re-seq #"latency=(\\d+)ms" (str/join "\\n" data/lines))))',
          true,
        ],
      ];
      const context = { lines };
      for (const [source, destructures] of cases) {
        const before = regexPathStats.itemsOnly;
        const fast = await outcome(source, { context, engine: "fast" });
        expect(regexPathStats.itemsOnly > before, source).toBe(destructures);
        for (const engine of ["general", "adaptive"] as const)
          expect(await outcome(source, { context, engine }), `${engine} ${source}`).toEqual(fast);
      }
    },
  );

  test("random patterns over random texts, long and short: re-seq's own matches, in order", async () => {
    const patterns = [
      "\\s+",
      "(\\w+)=(\\S+)",
      "a(b?)c",
      "(\\d)(\\d)",
      "x+",
      "^a",
      "b$",
      "[^a-c]+",
      ".",
      "(?:)x",
      "a|",
    ];
    const piece = fc.constantFrom("a", "b", "c", "x", "1", "2", "=", " ", "\n", "é", "👍", "abc", "x=1 ");
    const texts = fc.array(piece, { maxLength: 60 }).map((parts) => parts.join(""));
    const long = `${"x=1 ab ".repeat(NATIVE_TEXT_LIMIT / 4)}`;
    const samples = fc.sample(fc.tuple(fc.constantFrom(...patterns), texts, fc.integer({ min: 0, max: 3 })), {
      numRuns: 120,
      seed: 29,
    });
    const before = regexPathStats.streamedMatches;
    for (const [pattern, text, copies] of samples) {
      // 0 copies: the short text; else long stretches of lines around it, and one line too long.
      const s =
        copies === 0
          ? text
          : Array.from({ length: copies * 40 }, (_, i) => (i === 7 ? long : text)).join("\n");
      const context = { p: pattern, s };
      const whole = await outcome("(re-seq (re-pattern data/p) data/s)", { context });
      const streamed = await outcome("(vec (map identity (re-seq (re-pattern data/p) data/s)))", { context });
      expect(streamed.value, `${pattern} over ${JSON.stringify(s).slice(0, 60)}`).toEqual(whole.value);
    }
    expect(regexPathStats.streamedMatches - before).toBe(samples.length);
  });

  // Written for the default promotion threshold (PTC_LISP_PROMOTE_AFTER may set another one).
  test.runIf(codeGenerationWorks)(
    "a long text moves the pipeline to generated code on the adaptive engine, a short one does not",
    async () => {
      const thresholdBefore = promotionPolicy.threshold;
      promotionPolicy.threshold = 1000;
      try {
        await longAndShort();
      } finally {
        promotionPolicy.threshold = thresholdBefore;
      }
    },
  );

  async function longAndShort(): Promise<void> {
    const source = (n: number) =>
      `;; ${n}\n(->> (re-seq #"latency=(\\d+)ms" data/s) (map #(parse-long (second %))) (reduce + 0))`;
    expect(longText.length).toBeGreaterThan(16 * 1000);
    let n = Date.now();
    for (const [text, generated] of [
      [longText, true],
      [shortText, false],
    ] as const) {
      const lazyRuns = lazyPipelineStats.lazyRuns;
      const streamed = regexPathStats.streamedMatches;
      const adaptive = await outcome(source(n++), { context: { s: text }, engine: "adaptive" });
      expect(lazyPipelineStats.lazyRuns - lazyRuns, "the builtin's runs").toBe(generated ? 0 : 1);
      expect(regexPathStats.streamedMatches - streamed).toBe(1);
      expect(await outcome(source(n++), { context: { s: text }, engine: "general" })).toEqual(adaptive);
    }
  }

  test("take stops the search: less memory charged than for every match", async () => {
    const context = { s: longText };
    const few = await outcome('(take 2 (map count (re-seq #"\\w+" data/s)))', { context });
    const all = await outcome('(take 2 (vec (map count (re-seq #"\\w+" data/s))))', { context });
    expect(few.value).toEqual(all.value);
    expect(few.memory as number).toBeLessThan((all.memory as number) / 10);
  });

  test("a callback searching with the same pattern does not move the outer search", async () => {
    const source =
      '(let [r #"\\d+"] (->> (re-seq r data/s) (map (fn [m] (count (re-seq r (str m " " m " " m))))) (reduce + 0)))';
    const streamed = await outcome(source, { context: { s: "1 22 333 4444" } });
    expect(streamed.value).toBe(12);
    const long = await outcome(source, { context: { s: longText } });
    const eager = await outcome(
      '(let [r #"\\d+" ms (re-seq r data/s) xs (map (fn [m] (count (re-seq r (str m " " m " " m)))) ms)] (reduce + 0 xs))',
      { context: { s: longText } },
    );
    expect(long.value).toEqual(eager.value);
  });

  test("errors are re-seq's own, and limits hold while matches stream", async () => {
    const wrong = await run('(->> (re-seq "\\d" data/s) (map inc) (reduce + 0))', { context: { s: "1" } });
    expect(wrong.ok ? undefined : wrong.error.message).toMatch(/re-seq expects a regex/);
    const huge = "a=1 ".repeat(250_000);
    const capped = await run('(->> (re-seq #"(\\w)=(\\d)" data/s) (map #(nth % 2)) (reduce str ""))', {
      context: { s: huge },
      limits: { maxMemoryBytes: 1_000_000 },
    });
    expect(capped.ok ? undefined : capped.error.reason).toMatch(/memory/);
    const slow = await run('(->> (re-seq #"\\w" data/s) (map (fn [c] (count (range 200)))) (reduce + 0))', {
      context: { s: huge },
      limits: { timeoutMs: 30 },
    });
    expect(slow.ok ? undefined : slow.error.reason).toMatch(/timeout/);
  });
});
