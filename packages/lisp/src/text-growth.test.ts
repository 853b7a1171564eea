/**
 * Text that grows with every pass stops at the memory budget. Escaping (`pr-str`, JSON) can
 * double a text each time it is applied to its own output, and `str`, `format`, `join` and
 * `replace` can double it by repeating it: through a reduce, thirty passes are past what V8 can
 * hold, and some of its native paths then end the process instead of failing. Every builder of
 * text charges what it builds before (or as) it builds it, so each program here ends with
 * `memory_exceeded`, on every engine; with the budget lifted, no text may pass
 * MAX_TEXT_LENGTH (values/text-limit.ts) either.
 *
 * Each case would finish without its charge (the passes are few enough to stay well within what
 * V8 holds), so it fails if a builder stops charging.
 */
import { describe, expect, test } from "vitest";
import { run } from "./index.js";
import { MAX_TEXT_LENGTH } from "./values/text-limit.js";

const ENGINES = ["general", "fast", "adaptive"] as const;
/**
 * 2 MB: less than what 21 doublings of a one-character text build in all, 14 triplings, or 11
 * passes that double and escape it. Without their charges the programs finish: the text stays
 * far from what V8 holds (2^27 escapes in one replace end the process).
 */
const limits = { maxMemoryBytes: 2_000_000, timeoutMs: 20_000 };

async function outcome(source: string, options: Parameters<typeof run>[1]) {
  const result = await run(source, options);
  return result.ok ? { value: result.value } : { reason: result.error.reason, message: result.error.message };
}

describe.each(ENGINES)("on the %s engine", (engine) => {
  test.each([
    ["pr-str of its own output", '(reduce (fn [s _] (pr-str s)) "a" (range 21))'],
    ["pr-str of a vector of its own output", '(reduce (fn [s _] (pr-str [s])) "a" (range 21))'],
    ["pr-str of two arguments", '(reduce (fn [s _] (pr-str s s)) "a" (range 11))'],
    ["str of a vector", '(reduce (fn [s _] (str [s s])) "a" (range 11))'],
    ["str of two texts", '(reduce (fn [s _] (str s s)) "a" (range 21))'],
    ["str of many texts", '(reduce (fn [s _] (apply str [s s s])) "a" (range 14))'],
    ["format", '(reduce (fn [s _] (format "%s%s" s s)) "a" (range 21))'],
    ["format of a vector", '(reduce (fn [s _] (format "%s" [s s])) "a" (range 11))'],
    ["json/generate-string of its own output", '(reduce (fn [s _] (json/generate-string s)) "a" (range 21))'],
    ["json/generate-string of a vector", '(reduce (fn [s _] (json/generate-string [s s])) "a" (range 11))'],
    ["join", '(reduce (fn [s _] (join s [s s])) "a" (range 14))'],
    ["replace of a string", '(reduce (fn [s _] (replace s "a" "aa")) "a" (range 21))'],
    ["replace by the text itself", '(reduce (fn [s _] (replace s "a" s)) "aa" (range 21))'],
    ["replace with a regex", '(reduce (fn [s _] (replace s #"a" "aa")) "a" (range 21))'],
    ["upper-case", '(reduce (fn [s _] (upper-case (str s s))) "a" (range 21))'],
  ])("%s stops at the memory budget", async (_name, body) => {
    const result = await outcome(`(count ${body})`, { engine, limits });
    expect(result).toMatchObject({ reason: "memory_exceeded" });
  });

  test.each([
    ["upper-case", "upper-case"],
    ["lower-case", "lower-case"],
    [".toUpperCase", "#(.toUpperCase %)"],
    ["pr-str", "pr-str"],
    ["json/generate-string", "json/generate-string"],
  ])("%s of one long text, kept many times, is charged for every copy", async (_name, f) => {
    // 100 copies of a megabyte: 100 MB built, against a budget of 20 MB.
    const result = await outcome(
      `(let [s (join (mapv (constantly "abcdefghij") (range 100000))) f ${f}] (count (mapv (fn [_] (f s)) (range 100))))`,
      { engine, limits: { maxMemoryBytes: 20_000_000, timeoutMs: 20_000 } },
    );
    expect(result).toMatchObject({ reason: "memory_exceeded" });
  });
});

describe("with the memory budget lifted", () => {
  const unbounded = { maxMemoryBytes: Number.POSITIVE_INFINITY, timeoutMs: 20_000 };
  // A text of 16 million characters, repeated 20 times: 320 million, past MAX_TEXT_LENGTH but
  // within V8's own limit, so without the check it would be built.
  const sixteenMillion = '(join (mapv (constantly "abcdefgh") (range 2000000)))';

  test.each([
    ["str", `(let [s ${sixteenMillion}] (count (apply str (mapv (constantly s) (range 20)))))`],
    ["join", `(let [s ${sixteenMillion}] (count (join (mapv (constantly s) (range 20)))))`],
    [
      "replace",
      `(let [s ${sixteenMillion}] (count (replace s "abcdefgh" (apply str (mapv (constantly "abcdefgh") (range 20))))))`,
    ],
    [
      "format",
      `(let [s ${sixteenMillion}] (count (apply format "%s%s%s%s%s%s%s%s%s%s%s%s%s%s%s%s%s" (mapv (constantly s) (range 17)))))`,
    ],
  ])("%s refuses a text longer than any text may be", async (_name, source) => {
    const result = await outcome(source, { limits: unbounded });
    expect(result).toMatchObject({ reason: "memory_exceeded" });
    expect((result as { message: string }).message).toContain(String(MAX_TEXT_LENGTH));
  });
});

describe("the same builders give the same text", () => {
  test.each([
    // Long enough to be escaped a slice at a time, with a surrogate pair at every slice edge.
    ["pr-str", "pr-str"],
    ["json/generate-string", "json/generate-string"],
  ])("%s of a long text with escapes and surrogate pairs", async (_name, f) => {
    const text = 'a"b\\c\n\u0001😀'.repeat(40_000);
    const result = await run(`(${f} data/text)`, { context: { text } });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    if (f === "json/generate-string") expect(result.value).toBe(JSON.stringify(text));
    else expect(result.value).toBe(`"${'a\\"b\\\\c\\n\\u0001😀'.repeat(40_000)}"`);
  });

  test("json/parse-string of a long text made of escapes", async () => {
    const text = '\n\t"\\é😀'.repeat(100_000);
    const result = await run("(json/parse-string data/json)", { context: { json: JSON.stringify(text) } });
    expect(result.ok && result.value === text).toBe(true);
  });

  test("println of a long vector of characters keeps the start of the text", async () => {
    const result = await run('(println (vec (join (mapv (constantly "ab") (range 100000)))))');
    expect(result.prints).toEqual([`${"ab".repeat(1000)}...`]);
  });
});
