/**
 * No single builtin call outlives the run's timeout: every loop inside a builtin reads the clock
 * as it goes (docs/sandbox.md, "Timeouts in a single thread"), so one call over millions of items,
 * or over items that are each large, is cut off partway.
 *
 * sandbox.test.ts pins sort, sort-by, integer range, str, pr-str, regex loops over one text and
 * postwalk; this file covers every other family that loops over its input without calling back
 * into the program (a callback into a PTC-Lisp function reads the clock on its own). Each case
 * uses builtins as callbacks, which do not, and data that would keep the call busy for a second or
 * more without its checks.
 *
 * No wall time is measured: the run's clock is one that moves only when it is read (each read a
 * millisecond after the last), so the deadline passes after a fixed number of clock reads, on a
 * fast machine or a loaded one. A builtin that reads the clock as it goes is cut off inside the
 * call: the program prints "started" and never "returned". One that misses its checks finishes its
 * whole input first and prints both.
 */
import { beforeAll, describe, expect, test } from "vitest";
import { LispSet, run } from "./index.js";
import { withTickingClock } from "./test-support.js";

/**
 * Reads of the clock before the deadline. A run reads the clock once before its first step, so
 * nearly all of them are left to the builtin; one that charges its work as it goes reads it far
 * more often than this over its input.
 */
const TIMEOUT_MS = 20;
const limits = {
  timeoutMs: TIMEOUT_MS,
  maxIterations: Number.POSITIVE_INFINITY,
  maxMemoryBytes: Number.POSITIVE_INFINITY,
};

const xs = Array.from({ length: 2_000_000 }, (_, i) => i);
const many = new Array(10_000_000).fill(1);
const words = xs.slice(0, 1_000_000).map((i) => `w${i}`);
const megabyte = "ab, c".repeat(200_000);
const tenThousand = many.slice(0, 10_000);
const tags = ["a", "b", "c", "d", "e", "f", "g", "h"];
const context = {
  xs,
  many,
  words,
  pairs: words.map((_, i) => [i, i]),
  rows: words.map((_, i) => ({ id: i, n: i % 100, tags })),
  // The same long string or vector many times over: each item is large, the data is not.
  bigs: Array.from({ length: 3000 }, () => megabyte),
  // Two long strings in turn: no cache of the last text scanned helps.
  texts: Array.from({ length: 3000 }, (_, i) => (i % 2 === 0 ? megabyte : `${megabyte}!`)),
  ones: new Array(3000).fill(1),
  vecs: Array.from({ length: 3000 }, () => tenThousand),
  text: megabyte.repeat(10),
  quotes: '"\\'.repeat(5_000_000),
  letters: new Array(10_000_000).fill("a"),
  hyphens: `a${"-".repeat(4_000_000)}`,
  // Texts of one length past 16,383 characters: V8 hashes them by their length alone.
  longTexts: Array.from({ length: 600 }, (_, i) => `${"x".repeat(20_000)}${String(i).padStart(4, "0")}`),
  row: { id: 1 },
  lines: "a line\r\n".repeat(2_000_000),
  // Short lines, none of which matches #"z\d": V8's own engine searches them (values/regex-native.ts)
  // a stretch of lines at a time, and nothing is found that would charge the clock per match.
  shortLines: `${"a".repeat(99)}\n`.repeat(50_000),
  // Texts short enough for V8's own engine, searched one call each: nothing matches #"a*b".
  aTexts: Array.from({ length: 3000 }, () => "a".repeat(1000)),
  obj: Object.fromEntries(xs.slice(0, 500_000).map((i) => [`k${i}`, i])),
  json: `[${xs.join(",")}]`,
  escaped: JSON.stringify("\n\t".repeat(5_000_000)),
  // Sets built by the host, so the set algebra is measured rather than the building. They are
  // only read (equal or disjoint members), so no case changes one another's.
  wordSet: LispSet.from(words),
  sameWords: LispSet.from(words),
  numberSet: LispSet.from(xs.slice(0, 1_000_000)),
};

beforeAll(async () => {
  // A host map's keys, and a set's members, are put in order once per collection, by one native
  // sort the clock cannot interrupt (docs/sandbox.md): pay for it here, so that the cases below
  // measure the builtins themselves.
  for (const set of [context.wordSet, context.sameWords, context.numberSet]) set.members();
  const warm = await run("(count (keys data/obj))", { context, limits: { timeoutMs: 60_000 } });
  expect(warm.ok).toBe(true);
});

async function expectCutOff(source: string): Promise<void> {
  const program = `(do (println "started") (let [result ${source}] (println "returned") result))`;
  const result = await withTickingClock(() => run(program, { context, limits }));
  expect(result.ok ? "finished" : result.error.reason, source).toBe("timeout");
  // Reached the call before the deadline, and the deadline passed inside it.
  expect(result.prints, source).toEqual(["started"]);
}

describe("one builtin call is cut off at the timeout, however large its input", () => {
  test.each([
    // Sequence functions with builtin callbacks: no evaluation steps between items.
    // A stage bound first: inside (count (map ...)) it would be part of a fused pipeline (below).
    ["map", "(let [v (map vector data/xs)] (count v))"],
    ["map over three collections", "(count (map vector data/xs data/xs data/xs))"],
    ["mapv of upper-case over long strings", "(count (mapv upper-case data/bigs))"],
    ["mapv of lower-case over long strings", "(count (mapv lower-case data/bigs))"],
    ["mapv of count over long strings", "(count (mapv count data/bigs))"],
    ["a function of .toUpperCase over long strings", "(count (mapv #(.toUpperCase %) data/bigs))"],
    ["subs over long strings", "(count (map subs data/texts data/ones))"],
    ["filter", "(let [v (filter pos? data/many)] (count v))"],
    ["remove", "(let [v (remove zero? data/many)] (count v))"],
    ["keep", "(let [v (keep vector data/xs)] (count v))"],
    ["keep-indexed", "(count (keep-indexed vector data/xs))"],
    ["map-indexed", "(let [v (map-indexed vector data/xs)] (count v))"],
    ["mapcat", "(count (mapcat identity data/vecs))"],
    ["mapcat with a keyword", "(count (mapcat :tags data/rows))"],
    ["every?", "(every? (comp number? inc) data/many)"],
    ["take-while", "(count (take-while number? data/many))"],
    ["partition-by", "(count (partition-by even? data/xs))"],
    ["sort-by a key", "(count (sort-by :n data/rows))"],
    // Aggregation.
    ["reduce", "(reduce max data/many)"],
    ["reduce conj", "(count (reduce conj [] data/many))"],
    ["reduce-kv", "(count (reduce-kv assoc {} data/obj))"],
    ["group-by", "(count (group-by identity data/words))"],
    ["frequencies", "(count (frequencies data/words))"],
    ["distinct", "(let [v (distinct data/words)] (count v))"],
    ["a fused pipeline consumed whole", "(count (filter pos? (map inc (map inc data/many))))"],
    ["a pipeline on the lazy builtin", "(count (map vector data/xs data/xs))"],
    ["distinct-by", "(count (distinct-by identity data/words))"],
    ["dedupe", "(count (dedupe data/text))"],
    ["sum-by", "(sum-by (comp inc inc) data/many)"],
    ["max-by", "(max-by (comp inc inc) data/many)"],
    // Building and slicing sequences.
    ["concat", "(count (apply concat data/vecs))"],
    ["into a vector", "(count (into data/many data/many))"],
    ["into an empty set", "(count (into #{} data/words))"],
    ["a set of long texts of one length", "(count (set data/longTexts))"],
    ["into a set", '(count (into #{""} data/words))'],
    ["into an empty map", "(count (into {} data/pairs))"],
    ["into a map", "(count (into {:a 1} data/pairs))"],
    ["flatten", "(count (flatten data/vecs))"],
    // Bound first: (count (interleave ...)) would be one fused loop that makes no vector at all.
    ["interleave", "(let [v (interleave data/many data/many)] (count v))"],
    ["interpose", "(count (interpose 0 data/many))"],
    ["zip", "(count (zip data/xs data/xs))"],
    ["reverse", "(count (reverse data/many))"],
    ["partition", "(count (partition 1000 1 (take 100000 data/xs)))"],
    ["partition-all", "(count (partition-all 2 data/xs))"],
    ["combinations", "(count (combinations (range 70) 5))"],
    ["range of floats", "(count (range 0.5 60000000 1))"],
    // Sets.
    ["set", "(count (set data/words))"],
    ["union", "(count (union data/wordSet data/sameWords))"],
    ["intersection", "(count (intersection data/wordSet data/sameWords))"],
    ["difference", "(count (difference data/wordSet data/numberSet))"],
    ["contains? on a vector", "(contains? data/many :a)"],
    ["hashing one long vector", "(contains? #{} data/xs)"],
    // Maps.
    ["zipmap", "(count (zipmap data/words data/xs))"],
    ["merge", "(count (merge {:a 1} data/obj data/obj data/obj data/obj))"],
    ["merge-with", "(count (merge-with + {:a 1} data/obj data/obj data/obj))"],
    ["select-keys", "(count (select-keys {:a 1} data/many))"],
    ["update-vals", "(count (update-vals data/obj vector))"],
    ["update-keys", "(count (update-keys data/obj keyword))"],
    // A map over a host map counts the host's keys when its size is asked (values/versioned-table.ts).
    [
      "assoc onto a large host map and count, again and again",
      "(count (mapv #(count (assoc data/obj :k %)) (range 100)))",
    ],
    ["find", "(find neg? data/many)"],
    ["get with a long name of hyphens (read as underscores too)", "(get data/row (keyword data/hyphens))"],
    // Strings.
    ["join", '(count (join "," data/words))'],
    ["split", '(count (split data/text ","))'],
    ["split-lines", "(count (split-lines data/lines))"],
    ["replace", '(count (replace data/text "," ";"))'],
    ["format", '(count (format "%s" data/xs))'],
    ["apply str", "(count (apply str data/words))"],
    ["pr-str of a long text", "(count (pr-str data/text))"],
    ["pr-str of a long text of quotes", "(count (pr-str data/quotes))"],
    ["println of a long vector of characters", "(println data/letters)"],
    // Regex.
    ["re-split", '(count (re-split #"," data/text))'],
    ["re-find over many long strings", '(count (keep #(re-find #"z" %) data/texts))'],
    ["replace with a regex", '(count (replace data/text #"," ";"))'],
    // A long text of short lines with no match: V8's engine searches it a stretch of lines at a time.
    ["re-find over short lines without a match", '(re-find #"z\\d" data/shortLines)'],
    ["re-seq over short lines without a match", '(count (re-seq #"z\\d" data/shortLines))'],
    ["re-split over short lines without a match", '(count (re-split #"z\\d" data/shortLines))'],
    ["replace over short lines without a match", '(count (replace data/shortLines #"z\\d" "-"))'],
    [
      "replace with a regex over many texts without a match",
      '(count (map #(replace % #"a*b" "-") data/aTexts))',
    ],
    [
      "streamed re-seq over short lines without a match",
      '(first (map first (re-seq #"z\\d" data/shortLines)))',
    ],
    // JSON.
    ["json/parse-string of a long array", "(count (json/parse-string data/json))"],
    ["json/parse-string of a long string", "(count (json/parse-string data/escaped))"],
    ["json/generate-string", "(count (json/generate-string data/xs))"],
    ["json/generate-string of rows", "(count (json/generate-string data/rows))"],
    ["json/generate-string of a long text of quotes", "(count (json/generate-string data/quotes))"],
    // Tree walking.
    ["walk", "(count (walk vector identity data/xs))"],
    ["prewalk", "(count (prewalk identity data/pairs))"],
    ["tree-seq", "(count (tree-seq vector? identity data/pairs))"],
    // apply over a long argument list.
    ["apply +", "(apply + data/many)"],
    ["apply max", "(apply max data/many)"],
    ["apply * over growing big integers", "(apply * (range 1 50001))"],
  ])("%s", async (_name, source) => {
    await expectCutOff(source);
  });
});

describe("long inputs give the same answers on their metered paths", () => {
  // Texts past 64K characters are split and replaced occurrence by occurrence
  // (builtins/support/str-pieces.ts), long vectors are hashed a chunk at a time.
  const text = "a,b,,c\r\nd\n\r\n,".repeat(20_000);
  const runs = "a".repeat(100_001);
  const lines = text.split(/\r?\n/);
  while (lines[lines.length - 1] === "") lines.pop();

  async function value(source: string, data: Record<string, unknown>): Promise<unknown> {
    const result = await run(source, { context: data, limits: { timeoutMs: 10_000, maxMemoryBytes: 1e9 } });
    if (!result.ok) throw new Error(`${source}: ${result.error.reason}: ${result.error.message}`);
    return result.value;
  }

  test.each([
    ['(split data/text ",")', text.split(",")],
    ['(split data/text ",,")', text.split(",,")],
    ['(split data/runs "aa")', runs.split("aa")],
    ["(split-lines data/text)", lines],
    ['(replace data/text ",," ";")', text.split(",,").join(";")],
    ['(replace data/text "\\r\\n" "")', text.split("\r\n").join("")],
    ['(replace data/runs "aa" "b")', runs.split("aa").join("b")],
    ["(json/parse-string data/json)", text],
  ])("%s", async (source, expected) => {
    expect(await value(source, { text, runs, json: JSON.stringify(text) })).toEqual(expected);
  });

  test("a long vector hashes as its equal copy does", async () => {
    const long = xs.slice(0, 5000);
    const found = await value("[(contains? #{data/a} data/b) (count (set [data/a data/b [1]]))]", {
      a: long,
      b: long.slice(),
    });
    expect(found).toEqual([true, 2]);
  });
});

describe("slicing a text by graphemes walks only as far as the slice", () => {
  // Every other character a combining mark: each grapheme is found by Intl.Segmenter, piece by
  // piece, and the walk charges the clock as it goes. Counting must walk the whole text and is cut
  // off; a slice near the start stops walking once it has its end. (The walk used to collect every
  // offset first, one number per character: on a text of 2^28 characters, past V8's largest
  // array, that aborted the host process.)
  const marked = { text: "e\u0301".repeat(4_000_000) };
  const started = (source: string) =>
    `(do (println "started") (let [result ${source}] (println "returned") result))`;

  test("count is cut off", async () => {
    const result = await withTickingClock(() =>
      run(started("(count data/text)"), { context: marked, limits }),
    );
    expect(result.ok ? "finished" : result.error.reason).toBe("timeout");
    expect(result.prints).toEqual(["started"]);
  });

  test.each([
    ["subs of the first grapheme", "(subs data/text 0 1)", "e\u0301"],
    ["subs a few graphemes in", "(subs data/text 3 5)", "e\u0301e\u0301"],
    ["subs to the end of a short tail", "(subs (subs data/text 0 4) 2)", "e\u0301e\u0301"],
  ])("%s returns", async (_name, source, expected) => {
    const result = await withTickingClock(() => run(started(source), { context: marked, limits }));
    expect(result.ok ? result.value : result.error.message, source).toEqual(expected);
    expect(result.prints).toEqual(["started", "returned"]);
  });
});
