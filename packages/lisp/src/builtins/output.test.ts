import { describe, expect, test } from "vitest";
import { run } from "../index.js";
import { evaluate } from "../test-support.js";

describe("str", () => {
  test("joins the text of its arguments: strings bare, nil empty, values readable", async () => {
    expect(await evaluate('(str "a" 1 nil :k [1 "s"] {:a 1})')).toBe('"a1:k[1 \\"s\\"]{:a 1}"');
    expect(await evaluate("(str)")).toBe('""');
  });

  test("few arguments and many give the same text, integers as written", async () => {
    const few = '(str 0 -7 9007199254740993 -0 :a nil 1.5 "x")';
    expect(await evaluate(few)).toBe('"0-790071992547409930:a1.5x"');
    const many = `(str ${Array.from({ length: 40 }, (_, i) => (i % 3 === 0 ? `"s${i}"` : String(i - 20))).join(" ")})`;
    const expected = Array.from({ length: 40 }, (_, i) => (i % 3 === 0 ? `s${i}` : String(i - 20))).join("");
    expect(await evaluate(many)).toBe(JSON.stringify(expected));
    expect(await evaluate("(= (apply str (range 17)) (str 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16))")).toBe(
      "true",
    );
  });

  test("floats in full precision; special floats as words", async () => {
    expect(await evaluate("(str (/ 10 3))")).toBe('"3.3333333333333335"');
    expect(await evaluate("(str 2.0 1e21)")).toBe('"2.01.0E21"');
    expect(await evaluate("[(str ##Inf) (str ##-Inf) (str ##NaN)]")).toBe('["Infinity" "-Infinity" "NaN"]');
  });
});

describe("pr-str", () => {
  test("readable text with strings quoted and floats compact", async () => {
    expect(await evaluate('(pr-str "a" nil (/ 1.0 3) [1 "x"])')).toBe(
      '"\\"a\\" nil 0.3333333333 [1 \\"x\\"]"',
    );
  });
});

describe("println", () => {
  test("records one line per call and returns nil", async () => {
    const result = await run('(println "total:" 42 1.5) (println [1 "a"] nil)');
    expect(result.ok && result.value).toBe(null);
    expect(result.prints).toEqual(["total: 42 1.5", '[1 "a"] nil']);
  });

  test("a vector of characters prints as the text it spells", async () => {
    const result = await run('(println (take 5 "abcdefgh")) (println ["ab" "c"])');
    expect(result.prints).toEqual(["abcde", '["ab" "c"]']);
  });

  test("keeps at most maxPrintLines lines", async () => {
    const result = await run("(doseq [i (range 10)] (println i))", { limits: { maxPrintLines: 3 } });
    expect(result.prints).toEqual(["0", "1", "2"]);
  });

  test("inside a fast lambda, each line is printed exactly once", async () => {
    const result = await run("(mapv (fn [x] (println x) x) [1 2 3])");
    expect(result.prints).toEqual(["1", "2", "3"]);
  });
});
