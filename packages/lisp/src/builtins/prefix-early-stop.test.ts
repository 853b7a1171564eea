/**
 * `take` and `first` at the end of a pipeline (analyzer/pipelines.ts) stop their stream at the last
 * item they return, on every engine: the general evaluator runs the lazy-pipeline builtin
 * (lazy-pipeline.ts), the fast tier its fused loop (compiler/fused-pipelines.ts). Host rows that
 * count the reads of their fields prove how far a run got; a lowered vector cap proves that
 * `(take 3 (re-seq re text))` no longer finds every match first. Everything else is compared with
 * the eager spelling (a `let` between the calls, which no pipeline spans), engine by engine.
 */
import { afterEach, describe, expect, test } from "vitest";
import { toJson } from "../format/to-json.js";
import { type RunOptions, run } from "../run.js";
import { vectorPolicy } from "../values/vector-limit.js";
import { regexPathStats } from "./support/regex-paths.js";

const ENGINES = ["general", "adaptive", "fast"] as const;

type Outcome = { ok: true; value: unknown } | { ok: false; reason: string; message: string };

async function outcome(source: string, options: RunOptions): Promise<Outcome> {
  const result = await run(source, options);
  if (result.ok) return { ok: true, value: toJson(result.value) };
  return { ok: false, reason: result.error.reason, message: result.error.message };
}

/** Rows whose fields count how often the program read them. */
function countedRows(length: number): { rows: object[]; reads: { count: number } } {
  const reads = { count: 0 };
  const rows = Array.from({ length }, (_, i) => ({
    get amount() {
      reads.count++;
      return (i * 37) % 1000;
    },
    get quantity() {
      reads.count++;
      return (i % 5) + 1;
    },
  }));
  return { rows, reads };
}

describe("take and first stop the pipeline early, on every engine", () => {
  // The shapes of `pnpm bench`'s "interleave partition take" and "partition window take".
  const zipped =
    "(->> (interleave (map :amount data/orders) (map :quantity data/orders)) (partition 2) (map (fn [[amount quantity]] (* amount quantity))) (take 100) (reduce + 0))";
  const zippedEager =
    "(let [xs (vec (interleave (map :amount data/orders) (map :quantity data/orders))) ps (vec (partition 2 xs)) ys (vec (map (fn [[a q]] (* a q)) ps))] (reduce + 0 (take 100 ys)))";
  const windows =
    "(->> data/orders (map :amount) (partition 3 1) (map #(/ (apply + %) 3)) (filter #(> % 800)) (take 5))";
  const windowsEager =
    "(let [xs (vec (map :amount data/orders)) ws (vec (partition 3 1 xs)) ms (vec (map #(/ (apply + %) 3) ws))] (take 5 (vec (filter #(> % 800) ms))))";

  /** How many amounts the window program reads: up to the last of the window giving its fifth mean. */
  function windowReads(length: number): number {
    const amount = (i: number) => (i * 37) % 1000;
    let found = 0;
    for (let i = 0; i + 2 < length; i++) {
      if ((amount(i) + amount(i + 1) + amount(i + 2)) / 3 > 800 && ++found === 5) return i + 3;
    }
    return length;
  }

  for (const engine of ENGINES) {
    test(`only the rows taken are read (${engine})`, async () => {
      const { rows, reads } = countedRows(10_000);
      const context = { orders: rows };
      const eagerZipped = await outcome(zippedEager, { context, engine });
      expect(reads.count).toBe(20_000);
      reads.count = 0;
      expect(await outcome(zipped, { context, engine })).toEqual(eagerZipped);
      // 100 pairs: 100 amounts and 100 quantities, not 10,000 of each.
      expect(reads.count).toBe(200);

      const eagerWindows = await outcome(windowsEager, { context, engine });
      reads.count = 0;
      expect(await outcome(windows, { context, engine })).toEqual(eagerWindows);
      expect(reads.count).toBe(windowReads(10_000));
      expect(reads.count).toBeLessThan(100);
    });
  }
});

describe("(take n (re-seq re text)) finds only the matches it takes", () => {
  const capBefore = vectorPolicy.maxLength;
  afterEach(() => {
    vectorPolicy.maxLength = capBefore;
  });
  // 1,000 matches of \d, ten times the lowered cap: finding them all fails with memory_exceeded.
  const context = { s: "a1 b2 c3 d4 ".repeat(250) };

  const lazy: ReadonlyArray<readonly [source: string, value: unknown]> = [
    ['(take 3 (re-seq #"\\d" data/s))', ["1", "2", "3"]],
    ['(first (re-seq #"\\d" data/s))', "1"],
    [
      '(take 2 (re-seq #"(\\w)(\\d)" data/s))',
      [
        ["a1", "a", "1"],
        ["b2", "b", "2"],
      ],
    ],
    ['(reduce str "" (take 4 (re-seq #"\\d" data/s)))', "1234"],
    [
      '(take 2 (partition 2 (re-seq #"\\d" data/s)))',
      [
        ["1", "2"],
        ["3", "4"],
      ],
    ],
    ['(count (take 5 (map-indexed vector (re-seq #"\\d" data/s))))', 5],
    ['(take 0 (re-seq #"\\d" data/s))', []],
    ['(take -1 (re-seq #"\\d" data/s))', []],
  ];

  for (const engine of ENGINES) {
    test(`a text with more matches than a vector may hold (${engine})`, async () => {
      vectorPolicy.maxLength = 100;
      for (const [source, value] of lazy) {
        expect(await outcome(source, { context, engine }), source).toEqual({ ok: true, value });
      }
      // Bound first, the matches are all found, as written: the cap stops them.
      const eager = await outcome('(let [ms (re-seq #"\\d" data/s)] (take 3 ms))', { context, engine });
      expect(eager).toMatchObject({ ok: false, reason: "memory_exceeded" });
      // More items taken than the cap allows: the error of the eager spelling, at the same length.
      expect(await outcome('(take 200 (re-seq #"\\d" data/s))', { context, engine })).toEqual(eager);
    });
  }

  test("the general engine finds the matches one at a time, and the eager errors stay", async () => {
    const before = regexPathStats.streamedMatches;
    expect(await outcome('(take 3 (re-seq #"\\d" data/s))', { context, engine: "general" })).toEqual({
      ok: true,
      value: ["1", "2", "3"],
    });
    expect(regexPathStats.streamedMatches - before).toBe(1);
    const wrong: ReadonlyArray<readonly [string, string]> = [
      ['(take 3 (re-seq "\\d" data/s))', '(let [ms (re-seq "\\d" data/s)] (take 3 ms))'],
      ['(first (re-seq #"x" 42))', '(let [ms (re-seq #"x" 42)] (first ms))'],
    ];
    for (const engine of ENGINES) {
      for (const [source, eager] of wrong) {
        const expected = await outcome(eager, { context, engine });
        expect(expected.ok, eager).toBe(false);
        expect(await outcome(source, { context, engine }), `${engine} ${source}`).toEqual(expected);
      }
    }
  });
});

describe("the edges of a taken pipeline are the eager ones", () => {
  const context = { xs: [1, 2, 3, 4, 5, 6, 7], m: { a: 1, b: 2, c: 3 }, s: "héllo👍" };
  /** [consumer, pipeline]: the eager spelling binds the pipeline's vector first. */
  const cases: ReadonlyArray<readonly [string, string]> = [
    ["take 0", "(map inc data/xs)"],
    ["take -3", "(partition 2 data/xs)"],
    ["take 3", "(map inc nil)"],
    ["first", "(map inc [])"],
    ["take 3", "(filter odd? [])"],
    ["take 2", "(map first data/m)"],
    ["take 9", "(map str data/s)"],
    ["take 9", "(partition 2 data/s)"],
    ["take 9", "(partition 3 1 [1 2 3 4])"],
    ["take 9", "(partition 3 [1 2])"],
    ["take 9", "(partition-all 3 data/xs)"],
    ["take 9", "(partition 3 3 [:x] data/xs)"],
    ["take 9", "(interleave [1 2 3] [:a :b])"],
    ["take 9", "(interleave [] [:a :b])"],
    ["take 9", "(partition 2 (interleave [1 2 3] [:a :b]))"],
    ["first", "(partition 2 (interleave data/xs data/s))"],
    ["take 2", "(map (fn [[k v]] (str k v)) (partition 2 (interleave (map :a [{:a 1}]) data/xs)))"],
    ["take 3", '(re-seq #"x" "")'],
    ["first", '(re-seq #"x" "abc")'],
    // Errors among the items taken: the eager error.
    ["take 3", "(map #(/ 10 %) [1 2 0 4])"],
    ["take 2", "(partition 2 (interleave [1 nil] (map inc [1 nil 3])))"],
    ["first", "(map #(/ 10 %) [0 1])"],
    ["take 1.5", "(map inc data/xs)"],
    ["take :a", "(map inc data/xs)"],
  ];

  for (const engine of ENGINES) {
    test(`the eager values and errors (${engine})`, async () => {
      for (const [consumer, pipeline] of cases) {
        const source = `(${consumer} ${pipeline})`;
        const eager = await outcome(`(let [all (vec ${pipeline})] (${consumer} all))`, { context, engine });
        expect(await outcome(source, { context, engine }), `${engine} ${source}`).toEqual(eager);
      }
    });

    test(`an error past the last item taken does not happen (${engine})`, async () => {
      // The reference (eager) raises these; Clojure, like every engine here, does not.
      const past: ReadonlyArray<readonly [string, unknown]> = [
        ["(take 2 (map #(/ 10 %) [1 2 0]))", [10, 5]],
        ["(first (partition 2 (interleave [1 2] (map #(/ 10 %) [1 0]))))", [1, 10]],
        ["(take 1 (map (fn [[a b]] (+ a b)) (partition 2 1 [1 2 nil])))", [3]],
        ['(take 1 (map #(/ 1 (count %)) (re-seq #"x*" "xx")))', [0.5]],
      ];
      for (const [source, value] of past)
        expect(await outcome(source, { context, engine }), source).toEqual({ ok: true, value });
    });

    test(`limits and abort still stop a long taken stream (${engine})`, async () => {
      const many = { xs: Array.from({ length: 100_000 }, (_, i) => i) };
      const slow = "(take 90000 (map (fn [w] (reduce + 0 (range 300))) (partition 2 1 data/xs)))";
      const timedOut = await outcome(slow, { context: many, engine, limits: { timeoutMs: 30 } });
      expect(timedOut).toMatchObject({ ok: false, reason: "timeout" });
      const looping =
        "(take 90000 (map (fn [w] (loop [i 0] (if (< i 10) (recur (inc i)) i))) (partition 2 1 data/xs)))";
      const iterations = await outcome(looping, { context: many, engine, limits: { maxIterations: 5_000 } });
      expect(iterations.ok).toBe(false);
      const eagerIterations = await outcome(
        `(let [all (vec (map (fn [w] (loop [i 0] (if (< i 10) (recur (inc i)) i))) (partition 2 1 data/xs)))] (take 90000 all))`,
        { context: many, engine, limits: { maxIterations: 5_000 } },
      );
      expect(iterations).toEqual(eagerIterations);
      const memory = await outcome("(take 90000 (partition 2 1 data/xs))", {
        context: many,
        engine,
        limits: { maxMemoryBytes: 200_000 },
      });
      expect(memory).toMatchObject({ ok: false, reason: "memory_exceeded" });
      const controller = new AbortController();
      const aborted = await run(`(tool/cancel {}) ${slow}`, {
        context: many,
        engine,
        signal: controller.signal,
        tools: { cancel: () => controller.abort() },
        limits: { timeoutMs: 60_000 },
      });
      expect(aborted.ok).toBe(false);
      expect(aborted.ok ? undefined : aborted.error.reason).toBe("aborted");
    });
  }
});
