/** json/parse-string and json/generate-string through `run`: values, numbers, signals on bad input. */
import { describe, expect, test } from "vitest";
import { run } from "../run.js";
import { evaluate, failure } from "../test-support.js";

describe("json/parse-string", () => {
  test("objects become string-keyed maps, arrays vectors", async () => {
    expect(
      await evaluate('(json/parse-string "{\\"a\\": 1, \\"b\\": [2, 3], \\"c\\": {\\"d\\": null}}")'),
    ).toBe('{"a" 1 "b" [2 3] "c" {"d" nil}}');
    expect(await evaluate('(json/parse-string " [true, false, \\"x\\"] ")')).toBe('[true false "x"]');
  });

  test("keyword lookups on the result are flexible, like tool results", async () => {
    expect(await evaluate('(:user-id (json/parse-string "{\\"user_id\\": 7}"))')).toBe("7");
    expect(await evaluate('(get-in (json/parse-string "{\\"a\\": {\\"b\\": 2}}") [:a :b])')).toBe("2");
  });

  test("numbers keep their kind: 1.0 is a float, big integers stay exact", async () => {
    expect(await evaluate('(json/parse-string "[1, 1.0, -0.5, 1e3, 12345678901234567890]")')).toBe(
      "[1 1.0 -0.5 1000.0 12345678901234567890]",
    );
    expect(await evaluate('(float? (first (json/parse-string "[2.0]")))')).toBe("true");
  });

  test("string escapes, including surrogate pairs", async () => {
    expect(await evaluate('(json/parse-string "\\"a\\\\n\\\\u00e9\\\\ud83c\\\\udf4e\\\\/\\"")')).toBe(
      '"a\\né🍎/"',
    );
  });

  test("duplicate keys keep the last value", async () => {
    expect(await evaluate('(json/parse-string "{\\"a\\": 1, \\"a\\": 2}")')).toBe('{"a" 2}');
  });

  test("a __proto__ key is plain data", async () => {
    expect(await evaluate('(get (json/parse-string "{\\"__proto__\\": {\\"x\\": 1}}") "__proto__")')).toBe(
      '{"x" 1}',
    );
  });

  test("invalid JSON, JSON null and non-strings are nil, never an error", async () => {
    for (const text of [
      '"not json"',
      '""',
      '"{\\"a\\": 1,}"',
      '"[1 2]"',
      '"01"',
      '"1."',
      '"nul"',
      '"[1] x"',
      '"1e999"',
      '"\\"a\\tb\\""',
      "nil",
      "42",
      '"null"',
    ]) {
      expect(await evaluate(`(json/parse-string ${text})`), text).toBe("nil");
    }
  });

  test("absurdly deep nesting is refused (nil) instead of exhausting the stack", async () => {
    const deep = `${"[".repeat(100_000)}${"]".repeat(100_000)}`;
    const result = await run("(json/parse-string data/text)", { context: { text: deep } });
    expect(result).toMatchObject({ ok: true, value: null });
  });
});

describe("json/generate-string", () => {
  test("maps, vectors and scalars", async () => {
    expect(await evaluate('(json/generate-string {"a" 1, "b" [2 3]})')).toBe('"{\\"a\\":1,\\"b\\":[2,3]}"');
    expect(await evaluate('(json/generate-string [nil true "x\\"y"])')).toBe('"[null,true,\\"x\\\\\\"y\\"]"');
    expect(await evaluate("(json/generate-string nil)")).toBe('"null"');
  });

  test("integer keys become strings", async () => {
    expect(await evaluate('(json/generate-string {1 "a"})')).toBe('"{\\"1\\":\\"a\\"}"');
  });

  test("floats are written in the shortest form", async () => {
    expect(await evaluate("(json/generate-string [1.5 100.0 1000.0 0.001 0.0001 -2.0 1e22])")).toBe(
      '"[1.5,100.0,1.0e3,0.001,1.0e-4,-2.0,1.0e22]"',
    );
  });

  test("host data round-trips", async () => {
    const result = await run("(json/generate-string data/order)", {
      context: { order: { id: 7, tags: ["a", "b"], total: 9.5 } },
    });
    expect(result).toMatchObject({ ok: true, value: '{"id":7,"tags":["a","b"],"total":9.5}' });
  });

  test("keywords become their names and sets arrays, as toJson hands them to the host", async () => {
    expect(await evaluate("(json/generate-string :fs)")).toBe('"\\"fs\\""');
    expect(await evaluate('(json/generate-string {:server "fs"})')).toBe('"{\\"server\\":\\"fs\\"}"');
    expect(await evaluate('(json/generate-string {"server" :fs})')).toBe('"{\\"server\\":\\"fs\\"}"');
    expect(await evaluate("(json/generate-string {:tuple [{:ok 1}]})")).toBe(
      '"{\\"tuple\\":[{\\"ok\\":1}]}"',
    );
    expect(await evaluate("(json/generate-string #{2 1})")).toBe('"[1,2]"');
  });

  test("a value JSON cannot carry is an error that says what and where, never a silent nil", async () => {
    for (const [value, what] of [
      ["##Inf", "##Inf at the top level"],
      ["{:rows [1 ##NaN]}", "##NaN at [:rows 1]"],
      ["[inc]", "#<builtin> at [0]"],
      ['{:re #"a"}', 'regex #"a" at [:re]'],
      ['{1.5 "a"}', "the map key 1.5 at the top level"],
      ["{nil 1}", "the map key nil at the top level"],
      ['{:a 1 "a" 2}', 'both keys :a and "a" at the top level'],
    ] as const) {
      const error = await failure(`(json/generate-string ${value})`);
      expect(error.reason, value).toBe("type_error");
      expect(error.message, value).toContain(`json/generate-string cannot encode ${what}`);
    }
  });

  test("nesting deeper than 512 levels is an error, not a stack overflow", async () => {
    const error = await failure("(json/generate-string (reduce (fn [v _] [v]) [] (range 600)))");
    expect(error.reason).toBe("type_error");
    expect(error.message).toContain("nested deeper than 512 levels");
  });

  test("a value with shared structure stops at the run's limits", async () => {
    const doubled = "(reduce (fn [m _] {:a m :b m}) {} (range 40))";
    const result = await run(`(count (json/generate-string ${doubled}))`, { limits: { timeoutMs: 200 } });
    expect(!result.ok && result.error.reason).toMatch(/^(timeout|memory_exceeded)$/);
  });

  test("parse and generate compose", async () => {
    expect(
      await evaluate(
        '(->> (json/parse-string "{\\"a\\": 1, \\"b\\": 2, \\"c\\": 3}") (filter (fn [[_ v]] (> v 1))) (into {}) (json/generate-string))',
      ),
    ).toBe('"{\\"b\\":2,\\"c\\":3}"');
  });
});

describe("the json/ namespace", () => {
  test("an unknown member lists the JSON functions", async () => {
    const error = await failure('(json/foo "x")');
    expect(error.reason).toBe("invalid_form");
    expect(error.message).toBe(
      "json/foo is not available. JSON functions: json/generate-string, json/parse-string",
    );
  });

  test("json functions are values too", async () => {
    expect(await evaluate('(apply json/parse-string ["[1, 2, 3]"])')).toBe("[1 2 3]");
    expect(await evaluate('(map json/generate-string ["a" :b])')).toBe('["\\"a\\"" "\\"b\\""]');
  });
});
