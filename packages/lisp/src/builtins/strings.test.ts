/** String builtins through `run`: slicing, joining, splitting, trimming, searching, format, parsing. */
import { describe, expect, test } from "vitest";
import { evaluate, failure } from "../test-support.js";

const echo = { tools: { echo: async (args: Record<string, unknown>) => args } };

describe("subs", () => {
  test("slices by grapheme between start and end", async () => {
    expect(await evaluate('(subs "hello" 1)')).toBe('"ello"');
    expect(await evaluate('(subs "hello" 1 4)')).toBe('"ell"');
    expect(await evaluate('(subs "a👍🏽b" 1 2)')).toBe('"👍🏽"');
    expect(await evaluate('(subs "é🍎x" 2)')).toBe('"x"');
  });

  test("never raises on positions out of range", async () => {
    expect(await evaluate('(subs "abc" 10)')).toBe('""');
    expect(await evaluate('(subs "abc" 1 10)')).toBe('"bc"');
    expect(await evaluate('(subs "abc" -1)')).toBe('""');
    expect(await evaluate('(subs "abc" -1 2)')).toBe('""');
    expect(await evaluate('(subs "abc" 2 1)')).toBe('""');
  });

  test("a non-string or a non-integer position is a type error", async () => {
    expect(await failure("(subs nil 1)")).toMatchObject({
      reason: "type_error",
      message: expect.stringContaining("subs expects a string, got nil"),
    });
    expect((await failure('(subs "abc" 1.5)')).reason).toBe("type_error");
  });
});

describe("join", () => {
  test("joins item text with an optional separator", async () => {
    expect(await evaluate('(join ", " ["a" "b" "c"])')).toBe('"a, b, c"');
    expect(await evaluate('(join ["a" 1 :k nil 2.0])')).toBe('"a1:k2.0"');
    expect(await evaluate('(join "-" [])')).toBe('""');
    expect(await evaluate('(join "," #{3 1 2})')).toBe('"1,2,3"');
  });

  test("special floats read as Java names them", async () => {
    expect(await evaluate('(join "," [##Inf ##NaN])')).toBe('"Infinity,NaN"');
  });

  test("the separator goes first; a collection in its place is a type error that says so", async () => {
    const error = await failure('(join ["a" "b"] ", ")');
    expect(error.reason).toBe("type_error");
    expect(error.message).toContain('(join ", " items)');
    expect((await failure('(join ", " "abc")')).reason).toBe("type_error");
  });
});

describe("split and split-lines", () => {
  test("split by a string keeps every empty piece", async () => {
    expect(await evaluate('(split "a,,b," ",")')).toBe('["a" "" "b" ""]');
    expect(await evaluate('(split ",a" ",")')).toBe('["" "a"]');
    expect(await evaluate('(split "abc" ",")')).toBe('["abc"]');
  });

  test('split by "" gives graphemes', async () => {
    expect(await evaluate('(split "a👍🏽b" "")')).toBe('["a" "👍🏽" "b"]');
  });

  test("split by a regex", async () => {
    expect(await evaluate('(split "a1b22c" #"\\d+")')).toBe('["a" "b" "c"]');
    expect(await evaluate('(str/split "one  two" #"\\s+")')).toBe('["one" "two"]');
  });

  test("split-lines handles CRLF and drops trailing empty lines only", async () => {
    expect(await evaluate('(split-lines "a\\r\\n\\nb\\n\\n")')).toBe('["a" "" "b"]');
    expect(await evaluate('(split-lines "")')).toBe("[]");
  });

  test("a non-string separator is a type error", async () => {
    expect((await failure('(split "a,b" 1)')).reason).toBe("type_error");
  });
});

describe("trimming and blank?", () => {
  test("trim, triml, trimr remove Unicode whitespace", async () => {
    expect(await evaluate('(trim "\\u00a0 hi\\t\\n")')).toBe('"hi"');
    expect(await evaluate('(triml "  a  ")')).toBe('"a  "');
    expect(await evaluate('(trimr "  a  ")')).toBe('"  a"');
  });

  test("trim-newline removes only trailing CR and LF", async () => {
    expect(await evaluate('(trim-newline "a\\n\\r\\n")')).toBe('"a"');
    expect(await evaluate('(trim-newline "a  ")')).toBe('"a  "');
  });

  test("blank? is true for nil, empty and whitespace", async () => {
    expect(await evaluate('[(blank? nil) (blank? "") (blank? " \\t") (blank? "x")]')).toBe(
      "[true true true false]",
    );
    expect((await failure("(blank? 5)")).reason).toBe("type_error");
  });

  test("trim of nil is a type error naming trim", async () => {
    const error = await failure("(trim nil)");
    expect(error).toMatchObject({ reason: "type_error" });
    expect(error.message).toContain("trim expects a string");
  });
});

describe("case", () => {
  test("upper and lower case, with their aliases", async () => {
    expect(await evaluate('[(upper-case "abc") (upcase "ß") (lower-case "ÜBER") (downcase "AbC")]')).toBe(
      '["ABC" "SS" "über" "abc"]',
    );
  });
});

describe("replace", () => {
  test("replaces every occurrence of a string", async () => {
    expect(await evaluate('(replace "a.b.c" "." "-")')).toBe('"a-b-c"');
    expect(await evaluate('(replace "abc" "" "-")')).toBe('"-a-b-c-"');
    expect(await evaluate('(replace "abc" "x" "y")')).toBe('"abc"');
  });

  test("replaces every match of a regex", async () => {
    expect(await evaluate('(replace "a  b   c" #"\\s+" " ")')).toBe('"a b c"');
    expect(await evaluate('(replace "abc" #"x*" "-")')).toBe('"-a-b-c-"');
  });

  test("the replacement is literal: no $1 or & or \\1 substitution", async () => {
    expect(await evaluate('(replace "2024-03" #"(\\d+)-(\\d+)" "$2/$1")')).toBe('"$2/$1"');
    expect(await evaluate('(replace "cats" #"cat" "&\\\\1")')).toBe('"&\\\\1s"');
    expect(await evaluate('(replace "a.b" "." "$&")')).toBe('"a$&b"');
  });

  test("a function replacement is a type error", async () => {
    expect((await failure('(replace "abc" "a" upper-case)')).reason).toBe("type_error");
  });
});

describe("searching", () => {
  test("starts-with?, ends-with?, includes?", async () => {
    expect(
      await evaluate(
        '[(starts-with? "hello" "he") (ends-with? "hello" "lo") (includes? "hello" "ll") (includes? "hello" "")]',
      ),
    ).toBe("[true true true true]");
    expect((await failure('(includes? nil "a")')).reason).toBe("type_error");
    expect((await failure('(starts-with? "a" 1)')).reason).toBe("type_error");
  });

  test("index-of and last-index-of count graphemes and return nil when absent", async () => {
    expect(await evaluate('(index-of "héllo" "l")')).toBe("2");
    expect(await evaluate('(index-of "🍎🍊x" "x")')).toBe("2");
    expect(await evaluate('(index-of "hello" "x")')).toBe("nil");
    expect(await evaluate('(last-index-of "🍎x🍊x" "x")')).toBe("3");
    expect(await evaluate('(last-index-of "aaaa" "aa")')).toBe("2");
  });

  test("a start position narrows the search", async () => {
    expect(await evaluate('(index-of "hello" "l" 3)')).toBe("3");
    expect(await evaluate('(index-of "hello" "l" 10)')).toBe("nil");
    expect(await evaluate('(index-of "abc" "" 10)')).toBe("3");
    expect(await evaluate('(index-of "hello" "h" -5)')).toBe("0");
    expect(await evaluate('(last-index-of "hello" "l" 2)')).toBe("2");
    expect(await evaluate('(last-index-of "hello" "l" 1)')).toBe("nil");
  });
});

describe("format", () => {
  test("each conversion", async () => {
    expect(await evaluate('(format "%s|%d|%f|%.2f|%e|%x|%o|%%" "a" 42 1.5 3.14159 1234.5 255 8)')).toBe(
      '"a|42|1.500000|3.14|1.234500e+03|ff|10|%"',
    );
    expect(await evaluate('(format "%.2e" 1500.0)')).toBe('"1.50e+03"');
    expect(await evaluate('(format "%d" 3.0)')).toBe('"3"');
    expect(await evaluate('(format "%.1f" 1e22)')).toBe('"10000000000000000000000.0"');
  });

  test("%s shows values as str does: nil empty, keywords with colon, collections readable", async () => {
    expect(await evaluate('(format "[%s][%s][%s]" nil :k [1 "x"])')).toBe('"[][:k][[1 \\"x\\"]]"');
    expect(await evaluate('(format "%s %f" ##Inf ##-Inf)')).toBe('"Infinity -Infinity"');
  });

  test("widths and flags are ignored; extra arguments too", async () => {
    expect(await evaluate('(format "%5.2f|%-4d|%04d" 3.14159 7 42 "extra")')).toBe('"3.14|7|42"');
  });

  test("bad templates and arguments are runtime errors that say what was wanted", async () => {
    expect(await failure('(format "%s %s" "one")')).toMatchObject({
      reason: "runtime_error",
      message: expect.stringContaining("not enough arguments"),
    });
    expect(await failure('(format "%d" "x")')).toMatchObject({
      reason: "runtime_error",
      message: expect.stringContaining("%d expects an integer"),
    });
    expect(await failure('(format "%d" 1.5)')).toMatchObject({ reason: "runtime_error" });
    expect(await failure('(format "%q" 1)')).toMatchObject({
      reason: "runtime_error",
      message: expect.stringContaining("unsupported format specifier"),
    });
    expect(await failure('(format "%.f" 1)')).toMatchObject({ reason: "runtime_error" });
    expect(await failure("(format)")).toMatchObject({
      reason: "runtime_error",
      message: expect.stringContaining("format requires at least a format string"),
    });
    expect((await failure("(format 1)")).reason).toBe("type_error");
  });

  test("a template used again answers as the first time, errors in the order the text has them", async () => {
    // Each template twice in one program and again in the next: the second use reads it from
    // the cache of read templates.
    expect(await evaluate('(mapv #(format "%s=%.1f%%" % (* 1.5 %)) [1 2 1 2])')).toBe(
      '["1=1.5%" "2=3.0%" "1=1.5%" "2=3.0%"]',
    );
    expect(await evaluate('(format "%s=%.1f%%" "a" 2)')).toBe('"a=2.0%"');
    for (let round = 0; round < 2; round++) {
      // A missing argument comes before the bad specifier later in the text; with the argument
      // given, the specifier is the error.
      expect(await failure('(format "%s %q" )')).toMatchObject({
        message: expect.stringContaining("not enough arguments"),
      });
      expect(await failure('(format "%s %q" 1)')).toMatchObject({
        message: expect.stringContaining("unsupported format specifier"),
      });
      expect(await failure('(format "%s %.x" 1 2)')).toMatchObject({
        message: expect.stringContaining("expected digits after"),
      });
    }
    // Templates past the cache's size and length still format.
    const long = "x".repeat(600);
    expect(await evaluate(`(format "${long}%d" 5)`)).toBe(`"${long}5"`);
    expect(await evaluate('(count (set (map #(format (str "%d-" %) %) (range 300))))')).toBe("300");
  });
});

describe("parsing numbers and booleans", () => {
  test("whole-string integers, including beyond 2^53", async () => {
    expect(await evaluate('[(parse-long "42") (parse-long "-17") (parse-long "+5") (parse-int "0")]')).toBe(
      "[42 -17 5 0]",
    );
    // Up to 15 digits are summed by hand (str-numbers.ts); longer ones take the general parse.
    expect(
      await evaluate(
        '[(parse-long "-0") (parse-long "+0") (parse-long "007") (parse-long "999999999999999") (parse-long "-999999999999999") (parse-long "9999999999999999") (parse-long "-") (parse-long "+")]',
      ),
    ).toBe("[0 0 7 999999999999999 -999999999999999 9999999999999999 nil nil]");
    expect(await evaluate('(parse-long "123456789012345678901234567890")')).toBe(
      "123456789012345678901234567890",
    );
  });

  test("floats keep their kind", async () => {
    expect(
      await evaluate(
        '[(parse-double "3.14") (parse-double "42") (parse-double "1.23e-4") (parse-double "-0.5")]',
      ),
    ).toBe("[3.14 42.0 1.23E-4 -0.5]");
    expect(await evaluate('[(parse-double "Infinity") (parse-double "-Infinity")]')).toBe("[##Inf ##-Inf]");
  });

  test("anything else is nil, never an error", async () => {
    expect(
      await evaluate(
        '[(parse-long "3.14") (parse-long " 42") (parse-long "42abc") (parse-long "") (parse-long nil) (parse-long 42)]',
      ),
    ).toBe("[nil nil nil nil nil nil]");
    expect(
      await evaluate('[(parse-double "3.14 ") (parse-double ".5") (parse-double "1e400") (parse-double :x)]'),
    ).toBe("[nil nil nil nil]");
    expect(
      await evaluate(
        '[(parse-boolean "true") (parse-boolean "false") (parse-boolean "yes") (parse-boolean true)]',
      ),
    ).toBe("[true false nil nil]");
  });

  test("the Java-named aliases behave the same", async () => {
    expect(
      await evaluate(
        '[(Integer/parseInt "42") (Long/parseLong "x") (Double/parseDouble "2.5") (Float/parseFloat "1") (Boolean/parseBoolean "false")]',
      ),
    ).toBe("[42 nil 2.5 1.0 false]");
  });
});

describe("extract and extract-int", () => {
  test("a group of the first match, from a pattern string or a regex", async () => {
    expect(await evaluate('(extract "ID:(\\\\d+)" "ID:42 ID:7")')).toBe('"42"');
    expect(await evaluate('(extract #"x=(\\d+) y=(\\d+)" "x=1 y=2" 2)')).toBe('"2"');
    expect(await evaluate('(extract #"x=\\d+" "x=1" 0)')).toBe('"x=1"');
    expect(await evaluate('(extract #"x=\\d+" "x=1" 1)')).toBe("nil");
    expect(await evaluate('(extract #"(a)" "a" 5)')).toBe("nil");
  });

  test("extract-int parses the group, with an optional default", async () => {
    expect(await evaluate('(extract-int "n=(\\\\d+)" "n=12")')).toBe("12");
    expect(await evaluate('(extract-int "n=(\\\\w+)" "n=abc")')).toBe("nil");
    expect(await evaluate('(extract-int "n=(\\\\w+)" "n=abc" 1 -1)')).toBe("-1");
    expect(await evaluate('(extract-int "n=(\\\\d+)" "none" 1 0)')).toBe("0");
  });

  test("a non-string input is a type error", async () => {
    expect((await failure('(extract "a" nil)')).reason).toBe("type_error");
    expect((await failure('(extract 5 "a")')).reason).toBe("type_error");
  });
});

describe("namespaced names", () => {
  test("clojure.string/, str/ and string/ reach the same functions", async () => {
    expect(
      await evaluate(
        '[(clojure.string/upper-case "a") (str/trim " b ") (string/join "," [1 2]) (str/blank? nil)]',
      ),
    ).toBe('["A" "b" "1,2" true]');
  });

  test("an unknown member lists the reference's string functions", async () => {
    const error = await failure('(clojure.string/capitalize "hello")');
    expect(error.reason).toBe("invalid_form");
    expect(error.message).toContain(
      "capitalize is not available. String functions: blank?, downcase, ends-with?, extract, extract-int, format,",
    );
    expect(error.message).toContain("trimr, upcase, upper-case");
  });

  test("an unknown namespace lists the known ones", async () => {
    const error = await failure('(cheshire.core/parse-string "{}")');
    expect(error.reason).toBe("invalid_form");
    expect(error.message).toContain("unknown namespace cheshire.core/");
  });
});

describe("inside callbacks that call tools", () => {
  test("string functions work on tool results inside map", async () => {
    expect(await evaluate('(mapv #(upper-case (:name (tool/echo {:name %}))) ["a" "b"])', echo)).toBe(
      '["A" "B"]',
    );
  });
});
