/** Regex builtins through `run`: match shapes, groups, splitting, limits and linear-time matching. */
import { describe, expect, test } from "vitest";
import { run } from "../run.js";
import { evaluate, failure } from "../test-support.js";

/** A program building a string of `n` copies of `unit`, without string repetition builtins. */
function repeated(unit: string, n: number): string {
  return `(apply str (map (fn [_] "${unit}") (range ${n})))`;
}

describe("re-find", () => {
  test("a string without groups, [whole g1 ...] with groups, nil without a match", async () => {
    expect(await evaluate('(re-find #"\\d+" "abc123def456")')).toBe('"123"');
    expect(await evaluate('(re-find #"(\\d+)-(\\d+)" "10-20")')).toBe('["10-20" "10" "20"]');
    expect(await evaluate('(re-find #"\\d" "abc")')).toBe("nil");
  });

  test("groups after the last one that took part are dropped; earlier ones read as empty", async () => {
    expect(await evaluate('(re-find #"(a)(b)?" "a")')).toBe('["a" "a"]');
    expect(await evaluate('(re-find #"a(b)?" "a")')).toBe('"a"');
    expect(await evaluate('(re-find #"(x)?(a)" "a")')).toBe('["a" "" "a"]');
  });

  test("the pattern must be a regex, and the input a string", async () => {
    const error = await failure('(re-find "\\\\d" "a1")');
    expect(error.reason).toBe("type_error");
    expect(error.message).toContain("re-find expects a regex");
    expect((await failure('(re-find #"a" nil)')).reason).toBe("type_error");
  });
});

describe("re-matches", () => {
  test("matches only the whole string", async () => {
    expect(await evaluate('(re-matches #"\\d+" "123")')).toBe('"123"');
    expect(await evaluate('(re-matches #"\\d+" "123abc")')).toBe("nil");
    expect(await evaluate('(re-matches #"(\\w+)@(\\w+)" "me@host")')).toBe('["me@host" "me" "host"]');
    expect(await evaluate('(re-matches #"a|ab" "ab")')).toBe('"ab"');
  });
});

describe("re-seq", () => {
  test("every match in order, with group vectors", async () => {
    expect(await evaluate('(re-seq #"\\d+" "a1b22c333")')).toBe('["1" "22" "333"]');
    expect(await evaluate('(re-seq #"(\\d)(\\w)" "1a2b")')).toBe('[["1a" "1" "a"] ["2b" "2" "b"]]');
    expect(await evaluate('(re-seq #"\\d" "abc")')).toBe("[]");
  });

  test("empty matches advance through the input", async () => {
    expect(await evaluate('(re-seq #"x*" "axb")')).toBe('["" "x" "" ""]');
  });
});

describe("re-split", () => {
  test("splits at each match and keeps trailing empty pieces", async () => {
    expect(await evaluate('(re-split #"\\s+" "a  b   c")')).toBe('["a" "b" "c"]');
    expect(await evaluate('(re-split #"," "a,b,")')).toBe('["a" "b" ""]');
    expect(await evaluate('(re-split #"\\r?\\n" "l1\\nl2\\r\\nl3")')).toBe('["l1" "l2" "l3"]');
  });

  test("captured groups are kept between the pieces", async () => {
    expect(await evaluate('(re-split #"(-)" "a-b")')).toBe('["a" "-" "b"]');
  });
});

describe("regex?", () => {
  test("true only for regexes", async () => {
    expect(await evaluate('[(regex? #"a") (regex? (re-pattern "a")) (regex? "a") (regex? nil)]')).toBe(
      "[true true false false]",
    );
  });
});

describe("limits and safety", () => {
  test("the whole input is searched, not only its first 32 KB as in the reference", async () => {
    const program = `(let [s (str ${repeated("a", 32768)} "needle")] [(count s) (re-find #"needle" s)])`;
    expect(await evaluate(program)).toBe('[32774 "needle"]');
    expect(await evaluate(`(count (re-find #"é+" ${repeated("é", 20000)}))`)).toBe("20000");
  });

  test("split, re-seq and replace see every part of a 200 KB text", async () => {
    const text = "x,".repeat(100_000);
    // A generous clock, so that a loaded machine cannot end these on time.
    const options = { context: { text }, limits: { timeoutMs: 60_000 } };
    expect(await evaluate('(count (split data/text #","))', options)).toBe("100001");
    expect(await evaluate('(count (re-split #"," data/text))', options)).toBe("100001");
    expect(await evaluate('(count (re-seq #"x" data/text))', options)).toBe("100000");
    expect(await evaluate('(count (replace data/text #"," ""))', options)).toBe("100000");
  });

  test("loops over matches stop at the run's limits", async () => {
    const context = { text: "abc,".repeat(1_250_000) };
    for (const program of [
      '(count (replace data/text #"" "xxxxxxxxxx"))',
      '(count (re-seq #"" data/text))',
      '(count (split data/text #""))',
    ]) {
      const result = await run(program, { context, limits: { timeoutMs: 200 } });
      expect(!result.ok && result.error.reason, program).toMatch(/^(timeout|memory_exceeded)$/);
    }
  });

  test("catastrophic-backtracking patterns finish on long inputs (linear-time engine)", async () => {
    const input = `(str ${repeated("a", 30000)} "!")`;
    // Linear time shows in finishing at all (backtracking would take longer than the test may):
    // the clock is generous, so that a loaded machine cannot end a linear search on time.
    const options = { limits: { timeoutMs: 60_000 } };
    expect(await evaluate(`(re-find #"(a+)+$" ${input})`, options)).toBe("nil");
    expect(await evaluate(`(re-matches #"(a|aa)+" ${input})`, options)).toBe("nil");
    expect(await evaluate(`(count (re-seq #"(a*)*b" ${input}))`, options)).toBe("0");
  });

  test("constructs the engine cannot run are rejected with a reason", async () => {
    const error = await failure('(re-pattern "(a)\\\\1")');
    expect(error.message).toContain("backreferences");
  });

  test("string patterns given to extract are compiled once and reused", async () => {
    expect(await evaluate('(mapv #(extract-int "ID:(\\\\d+)" %) ["ID:1" "ID:2" "x"])')).toBe("[1 2 nil]");
  });
});

describe("namespaced names", () => {
  test("regex/ reaches the regex functions, and lists them for an unknown member", async () => {
    expect(await evaluate('(regex/re-find #"b" "abc")')).toBe('"b"');
    const error = await failure('(regex/re-replace #"b" "abc")');
    expect(error.message).toBe(
      "re-replace is not available. Regex functions: re-find, re-matches, re-pattern, re-seq, re-split, regex?",
    );
  });
});
