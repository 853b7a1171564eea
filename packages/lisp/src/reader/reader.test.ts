import { describe, expect, test } from "vitest";
import { LispError } from "../errors.js";
import { run } from "../run.js";
import { WholeFloat } from "../values/numbers.js";
import type { Form } from "./form.js";
import { read, readProgram } from "./reader.js";

function only(source: string): Form {
  const forms = read(source);
  expect(forms).toHaveLength(1);
  return forms[0] as Form;
}

function parseError(source: string, options?: { maxNesting?: number }): LispError {
  try {
    read(source, options);
  } catch (error) {
    expect(error).toBeInstanceOf(LispError);
    expect((error as LispError).reason).toBe("parse_error");
    return error as LispError;
  }
  throw new Error(`expected a parse error for ${source}`);
}

describe("literals", () => {
  test("nil, booleans", () => {
    expect(only("nil").type).toBe("nil");
    expect(only("true")).toMatchObject({ type: "boolean", value: true });
    expect(only("false")).toMatchObject({ type: "boolean", value: false });
    expect(only("nilly")).toMatchObject({ type: "symbol", name: "nilly" });
  });

  test("integers, including beyond 2^53 and negative", () => {
    expect(only("42")).toMatchObject({ type: "number", value: 42 });
    expect(only("-17")).toMatchObject({ type: "number", value: -17 });
    expect(only("+5")).toMatchObject({ type: "number", value: 5 });
    expect(only("123456789012345678901234567890")).toMatchObject({ value: 123456789012345678901234567890n });
  });

  test("integers either side of the 15 digits read without BigInt, and -0, are exact", () => {
    expect(only("999999999999999")).toMatchObject({ value: 999999999999999 });
    expect(only("-9007199254740991")).toMatchObject({ value: -9007199254740991 });
    expect(only("9007199254740993")).toMatchObject({ value: 9007199254740993n });
    expect(only("007")).toMatchObject({ value: 7 });
    expect(Object.is((only("-0") as { value: number }).value, 0)).toBe(true);
  });

  test("floats keep their float-ness even when whole", () => {
    expect(only("3.14")).toMatchObject({ value: 3.14 });
    expect((only("2.0") as { value: unknown }).value).toBeInstanceOf(WholeFloat);
    expect((only("2.5e10") as { value: WholeFloat }).value.value).toBe(2.5e10);
    expect(only("1.23e-4")).toMatchObject({ value: 1.23e-4 });
    expect((only("1e3") as { value: WholeFloat }).value.value).toBe(1000);
  });

  test("special floats", () => {
    expect(only("##Inf")).toMatchObject({ value: Number.POSITIVE_INFINITY });
    expect(only("##-Inf")).toMatchObject({ value: Number.NEGATIVE_INFINITY });
    expect(Number.isNaN((only("##NaN") as { value: number }).value)).toBe(true);
  });

  test("a ratio is not a literal: 1/3 reads as 1 then the symbol /3", () => {
    expect(read("1/3").map((form) => form.type)).toEqual(["number", "symbol"]);
  });

  test("strings with escapes and literal newlines", () => {
    expect(only('"a\\nb\\t\\"q\\"\\\\"')).toMatchObject({ value: 'a\nb\t"q"\\' });
    expect(only('"line1\nline2"')).toMatchObject({ value: "line1\nline2" });
    expect(only('"\\u00e9"')).toMatchObject({ value: "é" });
    // Unknown escapes keep their backslash so regex source strings survive.
    expect(only('"\\d+"')).toMatchObject({ value: "\\d+" });
  });

  test("characters are one-character strings", () => {
    expect(only("\\a")).toMatchObject({ type: "string", value: "a" });
    expect(only("\\newline")).toMatchObject({ value: "\n" });
    expect(only("\\space")).toMatchObject({ value: " " });
    expect(only("\\λ")).toMatchObject({ value: "λ" });
  });

  test("keywords, including operator characters; no namespaced keywords", () => {
    expect(only(":user-id")).toMatchObject({ type: "keyword", name: "user-id" });
    expect(only(":ok?")).toMatchObject({ name: "ok?" });
    expect(read(":a/b").map((form) => form.type)).toEqual(["keyword", "symbol"]);
  });

  test("symbols with namespaces, dots and primes", () => {
    expect(only("clojure.string/join")).toMatchObject({ type: "symbol", name: "clojure.string/join" });
    expect(only("inc'")).toMatchObject({ name: "inc'" });
    expect(only(".toUpperCase")).toMatchObject({ name: ".toUpperCase" });
    expect(only("-")).toMatchObject({ type: "symbol", name: "-" });
    expect(only("->>")).toMatchObject({ type: "symbol", name: "->>" });
  });

  test("collections", () => {
    expect(only("[1 2 3]")).toMatchObject({
      type: "vector",
      items: [{ value: 1 }, { value: 2 }, { value: 3 }],
    });
    expect(only("{:a 1, :b 2}")).toMatchObject({
      type: "map",
      items: [{ name: "a" }, { value: 1 }, { name: "b" }, { value: 2 }],
    });
    expect(only("#{1 2}")).toMatchObject({ type: "set" });
    expect(only("(f x)")).toMatchObject({ type: "list", items: [{ name: "f" }, { name: "x" }] });
    expect(only("#(+ % 1)")).toMatchObject({ type: "fn-literal" });
  });

  test("regex literals keep their backslashes", () => {
    expect(only('#"\\d+\\.\\s"')).toMatchObject({ type: "regex", source: "\\d+\\.\\s" });
    expect(only('#"a\\"b"')).toMatchObject({ source: 'a"b' });
  });

  test("var refs and quoted symbols", () => {
    expect(only("#'total")).toMatchObject({ type: "var", name: "total" });
    expect(only("'github")).toMatchObject({ type: "quote", name: "github" });
  });
});

describe("layout", () => {
  test("commas are whitespace, comments run to the end of the line", () => {
    expect(read("1,2 ; three\n4").map((form) => (form as { value: number }).value)).toEqual([1, 2, 4]);
  });

  test("#_ discards the next form", () => {
    expect(read("1 #_ (ignored form) 2").map((form) => (form as { value: number }).value)).toEqual([1, 2]);
    expect(only("[1 #_2 3]")).toMatchObject({ items: [{ value: 1 }, { value: 3 }] });
  });

  test("every form knows its line and column", () => {
    const [first, second] = read("(a\n  [b c])");
    expect(first).toMatchObject({ line: 1, column: 1 });
    expect((first as { items: readonly Form[] }).items[1]).toMatchObject({
      type: "vector",
      line: 2,
      column: 3,
    });
    expect(second).toBeUndefined();
  });

  test("columns count characters, not UTF-16 units", () => {
    const form = only('["😀" x]') as { items: readonly Form[] };
    expect(form.items[1]).toMatchObject({ name: "x", line: 1, column: 6 });
    // In a string that spans lines, and in a comment that ends the input.
    expect(read('"a\n😀" y')[1]).toMatchObject({ name: "y", line: 2, column: 4 });
    expect(read("; 😀 note\n  y")[0]).toMatchObject({ name: "y", line: 2, column: 3 });
    expect(parseError('"😀').message).toContain("line 1, column 1");
  });

  test("a stray closer after a complete program is ignored, as in the reference", () => {
    expect(read("(+ 1 2))")).toHaveLength(1);
    expect(read(")")).toHaveLength(0);
  });
});

describe("errors say where and what", () => {
  test("unclosed list", () => {
    const error = parseError("(filter :active data/users");
    expect(error.message).toContain("unbalanced parentheses: 1 unclosed '('");
    expect(error.message).toContain("line 1, column 1");
    expect(error.line).toBe(1);
  });

  test("unclosed vector and string", () => {
    expect(parseError("[1 2 3").message).toContain("unbalanced brackets");
    const error = parseError('(str "abc');
    expect(error.message).toContain("unclosed string");
    expect(error).toMatchObject({ line: 1, column: 6 });
  });

  test("mismatched closer names the opener", () => {
    const error = parseError("(let [x 1) x)");
    expect(error.message).toContain("mismatched ')'");
    expect(error.message).toContain("line 1, column 6");
  });

  test("integer literals are capped at 100 digits", () => {
    expect(parseError("9".repeat(101)).message).toContain("digit limit");
    expect(read("9".repeat(100))).toHaveLength(1);
  });

  test("quoted collections and deref are explained", () => {
    expect(parseError("'(1 2 3)").message).toContain("quoted collections");
    expect(parseError("@state").message).toContain("deref");
  });

  test("odd map literal", () => {
    expect(parseError("{:a 1 :b}").message).toContain("even number");
  });

  test("a reader bomb fails at the nesting limit without deep recursion", () => {
    const bomb = `${"(".repeat(200_000)}${")".repeat(200_000)}`;
    expect(parseError(bomb).message).toContain("nesting depth exceeds limit of 64");
    expect(read(`${"[".repeat(64)}${"]".repeat(64)}`)).toHaveLength(1);
    expect(parseError(`${"[".repeat(65)}${"]".repeat(65)}`).message).toContain("64");
    expect(read(`${"[".repeat(100)}${"]".repeat(100)}`, { maxNesting: 100 })).toHaveLength(1);
  });
});

describe("name forms counted while reading", () => {
  test("symbols, keywords, vars and quoted symbols count, discarded ones too; literals do not", () => {
    const { forms, nameForms } = readProgram("(f :a 'b #'c nil true false 1 \"s\" [g {:h i}]) #_ (j k) #{l}");
    expect(forms).toHaveLength(2);
    // f :a 'b #'c g :h i, then j k (discarded), then l
    expect(nameForms).toBe(10);
  });

  test("nested collections keep their own items, in order", () => {
    const form = only("[a [b [c d] e] (f) g]");
    const names = (item: Form): unknown =>
      item.type === "symbol" ? item.name : "items" in item ? item.items.map(names) : item.type;
    expect(names(form)).toEqual(["a", ["b", ["c", "d"], "e"], ["f"], "g"]);
  });
});

describe("an unexpected character the eye cannot see", () => {
  test.each([
    ["\u0000", "U+0000"],
    ["\u001b", "U+001B"],
    ["\u00a0", "U+00A0"],
    ["\u200b", "U+200B"],
    ["\u202e", "U+202E"],
  ])("%j is named by its code point, not written raw into the message", async (char, code) => {
    const result = await run(`(+ 1 ${char} 2)`);
    expect(result.ok).toBe(false);
    const message = result.ok ? "" : result.error.message;
    expect(message).toContain(`unexpected character ${code}`);
    expect(message).not.toContain(char);
  });

  test("a visible one is quoted as it is", async () => {
    const result = await run("(+ 1 § 2)");
    expect(result.ok ? "" : result.error.message).toContain("unexpected character '§'");
  });
});
