/**
 * The vector cap (vector-limit.ts), lowered to 1,000 items so that every builder of a vector whose
 * length no input bounds reaches it without building 2^26 items. With the real cap and a budget
 * raised past about 0.9 GB, these builders grew one JS array past V8's largest, and V8 ended the
 * whole process ("Fatal JavaScript invalid size error"): `(count (for [a (range 20000) b (range
 * 10000)] 1))` with `maxMemoryBytes: 1e10` now ends as memory_exceeded in about four seconds, but
 * near 1.3 GB of process memory, too much for a test here.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { fastTierStats, resetFastTierStats } from "../compiler/fast-tier.js";
import { promotionPolicy } from "../compiler/promotion.js";
import { type RunOptions, run } from "../index.js";
import { codeGenerationWorks } from "../test-support.js";
import { MAX_VECTOR_LENGTH, vectorPolicy } from "./vector-limit.js";

const CAP = 1000;
const ENGINES = ["general", "fast", "adaptive"] as const;

const context = {
  // 2,000 characters: past the native regex path's short texts (regex-native.ts).
  text: "a".repeat(2000),
  rows: [{ xs: Array.from({ length: 600 }, (_, i) => i) }, { xs: Array.from({ length: 600 }, (_, i) => i) }],
  // One grapheme per code point, but not ASCII: graphemes counted code point by code point.
  accented: "é".repeat(2000),
  // A combining mark after each e: graphemes found by Intl.Segmenter, 1,500 of them.
  marked: "e\u0301".repeat(1500),
  commas: ",".repeat(2000),
  lines: "x\n".repeat(2000),
  // Past splitText's short texts (65,536 code units), which a native split handles.
  long: "x".repeat(70000),
  jsonPast: `[${new Array(1001).fill(0).join(",")}]`,
  jsonUnder: `[${new Array(1000).fill(0).join(",")}]`,
  jsonNested: `[[${new Array(600).fill(0).join(",")}],[${new Array(1200).fill(0).join(",")}]]`,
};

/** What a run gave, on one engine: the value, or reason and message. */
async function outcome(source: string, engine: (typeof ENGINES)[number]): Promise<unknown> {
  const options: RunOptions = { engine, context, limits: { maxMemoryBytes: 1e9 } };
  const result = await run(source, options);
  return result.ok ? { value: result.value } : { reason: result.error.reason, message: result.error.message };
}

/** The outcome every engine gave (the test fails when they differ). */
async function agreed(source: string): Promise<unknown> {
  const first = await outcome(source, "general");
  for (const engine of ENGINES.slice(1))
    expect(await outcome(source, engine), `${engine}: ${source}`).toEqual(first);
  return first;
}

/** The error of a vector of `length` items, past the lowered cap. */
function tooLong(length: number): unknown {
  return {
    reason: "memory_exceeded",
    message: `the program built a vector of ${length} items, more than the ${CAP} a vector may hold. Build less: take a part of it (take, first), or count and aggregate (count, reduce) instead of building it`,
  };
}

describe("a vector may hold no more than the vector cap", () => {
  const thresholdBefore = promotionPolicy.threshold;
  beforeAll(() => {
    vectorPolicy.maxLength = CAP;
    // The adaptive engine with every function promoted at once.
    promotionPolicy.threshold = 0;
  });
  afterAll(() => {
    vectorPolicy.maxLength = MAX_VECTOR_LENGTH;
    promotionPolicy.threshold = thresholdBefore;
  });

  // [program past the cap, the length it reports, the same builder under the cap, its value]
  const cases: ReadonlyArray<readonly [string, number, string, unknown]> = [
    [
      "(count (for [a (range 40) b (range 40)] 1))",
      1001,
      "(count (for [a (range 40) b (range 25)] 1))",
      1000,
    ],
    [
      "(count (for [a (range 60) b (range 40) :when (odd? b)] [a b]))",
      1001,
      "(count (for [a (range 50) b (range 40) :when (odd? b)] [a b]))",
      1000,
    ],
    [
      "(defn pairs [n] (for [a (range n) b (range n)] a)) (count (pairs 40))",
      1001,
      "(defn pairs [n] (for [a (range n) b (range n)] a)) (count (pairs 31))",
      961,
    ],
    [
      "(count (mapcat (fn [x] (range 10)) (range 200)))",
      1010,
      "(count (mapcat (fn [x] (range 10)) (range 100)))",
      1000,
    ],
    ["(count (mapcat :xs data/rows))", 1200, "(count (mapcat :xs (take 1 data/rows)))", 600],
    ["(count (concat (range 600) (range 600)))", 1200, "(count (concat (range 600) (range 400)))", 1000],
    [
      "(count (concat (range 600) [1] (range 600)))",
      1201,
      "(count (concat (range 500) [1] (range 499)))",
      1000,
    ],
    [
      "(count (interleave (range 600) (range 600)))",
      1001,
      "(count (interleave (range 500) (range 600)))",
      1000,
    ],
    [
      "(count (flatten [(range 600) [(range 600)]]))",
      1001,
      "(count (flatten [(range 600) [(range 400)]]))",
      1000,
    ],
    [
      "(count (tree-seq vector? seq [(vec (range 600)) (vec (range 600))]))",
      1001,
      "(count (tree-seq vector? seq [(vec (range 500)) (vec (range 497))]))",
      1000,
    ],
    [
      "(count (reduce (fn [acc x] (conj acc x x)) [] (range 600)))",
      1002,
      "(count (reduce (fn [acc x] (conj acc x x)) [] (range 500)))",
      1000,
    ],
    ["(count (reduce conj [] (range 1001)))", 1001, "(count (reduce conj [] (range 1000)))", 1000],
    [
      "(nth (interleave (range 600) (range 600)) 0)",
      1200,
      "(nth (interleave (range 500) (range 600)) 999)",
      499,
    ],
    ["(count (range 1001))", 1001, "(count (range 1000))", 1000],
    ["(count (range 0 1001 1))", 1001, "(count (range 0 1000 1))", 1000],
    ["(count (range 0 100.1 0.1))", 1001, "(count (range 0 99.95 0.1))", 1000],
    ['(count (re-seq #"a" data/text))', 1001, '(count (re-seq #"aa" data/text))', 1000],
    [
      '(count (re-seq #"a" (subs data/text 0 1001)))',
      1001,
      '(count (re-seq #"a" (subs data/text 0 1000)))',
      1000,
    ],
    ['(count (re-seq #"(a)" data/text))', 1001, '(count (re-seq #"(a)(a)" data/text))', 1000],
    ['(count (str/split data/text #""))', 1001, '(count (str/split (subs data/text 0 999) #""))', 1000],
    ['(count (str/split data/text #"a"))', 1001, '(count (str/split (subs data/text 0 999) #"a"))', 1000],
    [
      '(count (map str/upper-case (re-seq #"a" data/text)))',
      1001,
      '(count (map str/upper-case (re-seq #"aa" data/text)))',
      1000,
    ],
    [
      '(count (filter string? (re-seq #"a" data/text)))',
      1001,
      '(count (filter string? (re-seq #"aa" data/text)))',
      1000,
    ],
    [
      '(let [v (take 1500 (map str/upper-case (re-seq #"a" data/text)))] (count v))',
      1001,
      '(let [v (take 1000 (map str/upper-case (re-seq #"a" data/text)))] (count v))',
      1000,
    ],
    [
      '(reduce + 0 (map count (re-seq #"a" data/text)))',
      1001,
      '(reduce + 0 (map count (re-seq #"aa" data/text)))',
      2000,
    ],
  ];

  // Builders of a vector from a text (which may hold 2^28 characters, four times the cap), run by
  // builtins on every engine.
  const textCases: ReadonlyArray<readonly [string, number, string, unknown]> = [
    // A text's graphemes: one item per character of a text that may hold 2^28 of them.
    ["(count (vec data/text))", 2000, "(count (vec (subs data/text 0 1000)))", 1000],
    ["(count (seq data/accented))", 1001, "(count (seq (subs data/accented 0 1000)))", 1000],
    ["(count (seq data/marked))", 1001, "(count (seq (subs data/marked 0 1000)))", 1000],
    ["(count (into [] data/accented))", 1001, "(count (into [] (subs data/accented 0 1000)))", 1000],
    ["(count (distinct data/text))", 2000, "(count (distinct (subs data/text 0 1000)))", 1],
    ["(count (frequencies data/text))", 2000, "(count (frequencies (subs data/text 0 1000)))", 1],
    ['(count (str/split data/text ""))', 2000, '(count (str/split (subs data/text 0 1000) ""))', 1000],
    ['(count (str/split data/marked ""))', 1001, '(count (str/split (subs data/marked 0 1000) ""))', 1000],
    [
      '(str/replace data/accented "" "")',
      1001,
      '(count (str/replace (subs data/accented 0 1000) "" ""))',
      1000,
    ],
    ["(count (partition 2 1 data/text))", 2000, "(count (partition 2 1 (subs data/text 0 1000)))", 999],
    // A literal separator, on the native path and on the long-text loop.
    ['(count (str/split data/commas ","))', 2001, '(count (str/split (subs data/commas 0 999) ","))', 1000],
    ['(count (split data/commas ","))', 2001, '(count (split (subs data/commas 0 999) ","))', 1000],
    [
      '(count (str/split (str data/long (subs data/commas 0 1000)) ","))',
      1001,
      '(count (str/split (str data/long (subs data/commas 0 999)) ","))',
      1000,
    ],
    [
      "(count (str/split-lines data/lines))",
      2001,
      "(count (str/split-lines (subs data/lines 0 1999)))",
      1000,
    ],
    [
      '(count (str/split-lines (str data/long "\n" data/lines)))',
      1001,
      '(count (str/split-lines (str data/long "\n" (subs data/lines 0 1997))))',
      1000,
    ],
    // JSON arrays: one item per few characters of the text.
    ["(count (json/parse-string data/jsonPast))", 1001, "(count (json/parse-string data/jsonUnder))", 1000],
    [
      "(count (json/parse-string data/jsonNested))",
      1001,
      '(count (json/parse-string (str "[" data/jsonUnder "," data/jsonUnder "]")))',
      2,
    ],
  ];

  test.each(cases)("%s", async (past, length, under, value) => {
    expect(await agreed(past)).toEqual(tooLong(length));
    expect(await agreed(under)).toEqual({ value });
  });

  test.each(textCases)("%s", async (past, length, under, value) => {
    expect(await agreed(past)).toEqual(tooLong(length));
    expect(await agreed(under)).toEqual({ value });
  });

  // The fast engine's own checks (the generated `for`, the fused pipelines' loops) raise the error
  // in generated code (a limit is not run again on the general evaluator), and the program under
  // the cap finishes there.
  test.runIf(codeGenerationWorks).each(cases)(
    "%s: generated code stops at the cap",
    async (past, _length, under) => {
      resetFastTierStats();
      await outcome(past, "fast");
      const pastStats = { ...fastTierStats };
      resetFastTierStats();
      await outcome(under, "fast");
      expect(fastTierStats).toMatchObject({ generationGaps: 0, errorReruns: 0, effectFallbacks: 0 });
      expect(fastTierStats.fastRuns).toBeGreaterThan(0);
      // The error was raised in generated code, and not run again on the general evaluator.
      expect(pastStats).toMatchObject({ generationGaps: 0, errorReruns: 0, effectFallbacks: 0 });
    },
  );
});
