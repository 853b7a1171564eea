/** Type predicates, `type` and `boolean` through the public API. */
import { describe, expect, test } from "vitest";
import { evaluate } from "../test-support.js";

const answers = async (predicate: string, values: readonly string[]): Promise<string> =>
  evaluate(`[${values.map((value) => `(${predicate} ${value})`).join(" ")}]`);

describe("value kinds", () => {
  test("nil?, some?, true?, false?, boolean?", async () => {
    expect(await answers("nil?", ["nil", "false", "0", "[]"])).toBe("[true false false false]");
    expect(await answers("some?", ["nil", "false", "0"])).toBe("[false true true]");
    expect(await answers("true?", ["true", "1", '"true"'])).toBe("[true false false]");
    expect(await answers("false?", ["false", "nil"])).toBe("[true false]");
    expect(await answers("boolean?", ["true", "false", "nil", "0"])).toBe("[true true false false]");
  });

  test("numbers: integers and floats stay apart, whole floats are floats", async () => {
    const values = ["1", "1.0", "1.5", "99999999999999999999", "##Inf", "##NaN", '"1"', "nil"];
    expect(await answers("number?", values)).toBe("[true true true true true true false false]");
    expect(await answers("integer?", values)).toBe("[true false false true false false false false]");
    expect(await answers("int?", values)).toBe("[true false false true false false false false]");
    expect(await answers("rational?", values)).toBe("[true false false true false false false false]");
    expect(await answers("float?", values)).toBe("[false true true false true true false false]");
    expect(await answers("double?", values)).toBe("[false true true false true true false false]");
  });

  test("strings and characters: a character is a one-grapheme string", async () => {
    expect(await answers("string?", ['"a"', "\\a", ":a", "nil"])).toBe("[true true false false]");
    expect(await answers("char?", ['"a"', "\\λ", '"👍🏽"', '"ab"', '""', "1"])).toBe(
      "[true true true false false false]",
    );
    expect(await evaluate('(every? char? "héllo")')).toBe("true");
  });

  test("keywords, functions and callables", async () => {
    expect(await answers("keyword?", [":a", '(keyword "b")', '"a"'])).toBe("[true true false]");
    expect(await answers("fn?", ["inc", "(fn [x] x)", "#(+ % 1)", "(partial + 1)", ":a", "{}", "#{}"])).toBe(
      "[true true true true false false false]",
    );
    expect(await answers("ifn?", ["inc", ":a", "{:a 1}", "#{1}", "[1]", '"s"', "nil"])).toBe(
      "[true true true true false false false]",
    );
  });
});

describe("collection kinds", () => {
  const kinds = ["[1]", "{:a 1}", "#{1}", '"ab"', "nil", "42", "data/row"];
  const context = { context: { row: { a: 1 } } };
  const ask = (predicate: string) =>
    evaluate(`[${kinds.map((value) => `(${predicate} ${value})`).join(" ")}]`, context);

  test("vector?, map?, set?, coll?", async () => {
    expect(await ask("vector?")).toBe("[true false false false false false false]");
    expect(await ask("map?")).toBe("[false true false false false false true]");
    expect(await ask("set?")).toBe("[false false true false false false false]");
    expect(await ask("coll?")).toBe("[true true true false false false true]");
  });

  test("seq?, sequential?, seqable?, associative?", async () => {
    expect(await ask("seq?")).toBe("[true false false false false false false]");
    expect(await ask("sequential?")).toBe("[true false false false false false false]");
    expect(await ask("seqable?")).toBe("[true true true true true false true]");
    expect(await ask("associative?")).toBe("[true true false false false false true]");
  });

  test("counted?, indexed?, reversible?", async () => {
    expect(await ask("counted?")).toBe("[true true true true false false true]");
    expect(await ask("indexed?")).toBe("[true false false true false false false]");
    expect(await ask("reversible?")).toBe("[true false false true false false false]");
  });

  test("kinds the language does not have are always false", async () => {
    for (const predicate of ["sorted?", "map-entry?", "symbol?", "decimal?", "ratio?"]) {
      expect(await ask(predicate)).toBe("[false false false false false false false]");
    }
    expect(await evaluate("(symbol? 'foo)")).toBe("false");
    expect(await evaluate("(map-entry? (first (seq {:a 1})))")).toBe("false");
  });
});

describe("number predicates", () => {
  test("zero?, pos?, neg? compare numbers and are false for anything else", async () => {
    expect(await answers("zero?", ["0", "0.0", "-0.0", "1", "nil", '"0"', "##NaN"])).toBe(
      "[true true true false false false false]",
    );
    expect(
      await answers("pos?", ["1", "0.5", "0", "-1", "##Inf", "##NaN", "nil", "99999999999999999999"]),
    ).toBe("[true true false false true false false true]");
    expect(await answers("neg?", ["-1", "-0.5", "0", "##-Inf", ":a", "-99999999999999999999"])).toBe(
      "[true true false true false true]",
    );
  });

  test("even? and odd? accept whole floats and bigints, and are false otherwise", async () => {
    expect(
      await answers("even?", ["4", "4.0", "4.5", "3", "-2", "100000000000000000000", "##Inf", "nil"]),
    ).toBe("[true true false false true true false false]");
    expect(await answers("odd?", ["3", "3.0", "4", "-3", "100000000000000000001", "3.5", '"3"'])).toBe(
      "[true true false true true false false]",
    );
  });

  test("nat-int?, pos-int?, neg-int? want integers", async () => {
    expect(await answers("nat-int?", ["0", "5", "-1", "1.0", "nil"])).toBe("[true true false false false]");
    expect(await answers("pos-int?", ["1", "0", "1.5", "99999999999999999999"])).toBe(
      "[true false false true]",
    );
    expect(await answers("neg-int?", ["-1", "0", "-1.5", "-99999999999999999999"])).toBe(
      "[true false false true]",
    );
  });

  test("infinite? and NaN?", async () => {
    expect(await answers("infinite?", ["##Inf", "##-Inf", "##NaN", "1e308", "0", "nil"])).toBe(
      "[true true false false false false]",
    );
    expect(await answers("NaN?", ["##NaN", "(/ 0.0 0.0)", "##Inf", "0", "nil"])).toBe(
      "[true true false false false]",
    );
  });
});

describe("type and boolean", () => {
  test("type names the kind of value as a keyword, nil for nil", async () => {
    expect(
      await evaluate(
        '(map type [1 1.5 99999999999999999999 ##Inf "s" \\c :k [1] {:a 1} #{1} inc (fn [x] x) true #"re" nil])',
      ),
    ).toBe(
      "[:number :number :number :number :string :string :keyword :vector :map :set :function :function :boolean :regex nil]",
    );
    expect(await evaluate("(type data/row)", { context: { row: { a: 1 } } })).toBe(":map");
  });

  test("boolean: only nil and false are false", async () => {
    expect(await answers("boolean", ["nil", "false", "0", '""', "[]", "{}", ":a", "true"])).toBe(
      "[false false true true true true true true]",
    );
  });
});
