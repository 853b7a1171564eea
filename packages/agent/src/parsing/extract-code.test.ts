import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { extractCode, hasFencedProgram, sanitizeCode, stripThinking } from "./extract-code.js";

function code(response: string): string {
  const result = extractCode(response);
  if (!result.ok) throw new Error(`expected code, got ${JSON.stringify(result)}`);
  return result.code;
}

describe("extractCode: tagged fences", () => {
  test("extracts a ```clojure block", () => {
    expect(extractCode("```clojure\n(+ 1 2)\n```")).toEqual({ ok: true, code: "(+ 1 2)" });
  });

  test("extracts a ```lisp block", () => {
    expect(code("```lisp\n(+ 1 2)\n```")).toBe("(+ 1 2)");
  });

  test("ignores prose around the block and trims the code", () => {
    const response = "thinking:\nI should add.\n\n```clojure\n\n  (return (+ 1 2))  \n\n```\nDone.";
    expect(code(response)).toBe("(return (+ 1 2))");
  });

  test("keeps multi-line programs intact", () => {
    const program = "(def x 1)\n(defn f [y]\n  (+ x y))\n(f 2)";
    expect(code(`\`\`\`clojure\n${program}\n\`\`\``)).toBe(program);
  });

  test("accepts fences with surrounding spaces and trailing whitespace after the tag", () => {
    expect(code("   ```clojure   \n(+ 1 2)\n   ```   ")).toBe("(+ 1 2)");
  });

  test("a tagged block wins even when its body does not start with (", () => {
    expect(code("```clojure\n:keyword\n```")).toBe(":keyword");
  });

  test("a tagged block wins over untagged Lisp blocks", () => {
    expect(code("```\n(a)\n```\n```clojure\n(b)\n```")).toBe("(b)");
  });

  test("two tagged blocks are an error with their count", () => {
    expect(extractCode("```clojure\n(a)\n```\ntext\n```lisp\n(b)\n```")).toEqual({
      ok: false,
      reason: "multiple_code_blocks",
      count: 2,
    });
  });

  test("three tagged blocks report 3", () => {
    const block = "```clojure\n(x)\n```\n";
    expect(extractCode(block.repeat(3))).toEqual({ ok: false, reason: "multiple_code_blocks", count: 3 });
  });

  test("the language tag is case-sensitive: ```Clojure is an untagged fence", () => {
    // Untagged, but its body starts with "(", so it is still found.
    expect(code("```Clojure\n(+ 1 2)\n```")).toBe("(+ 1 2)");
    expect(extractCode("```Clojure\n:kw\n```")).toEqual({ ok: false, reason: "no_code" });
  });

  test("```clj is not a tagged fence but its Lisp body is used", () => {
    expect(code("```clj\n(+ 1 2)\n```")).toBe("(+ 1 2)");
  });

  test("an unclosed block is dropped", () => {
    expect(extractCode("```clojure\n(+ 1 2)")).toEqual({ ok: false, reason: "no_code" });
  });

  test("a tagged block closed by </clojure> or </lisp>", () => {
    expect(code("```clojure\n(+ 1 2)\n</clojure>")).toBe("(+ 1 2)");
    expect(code("```clojure\n(map inc [1 2 3])\n</lisp>")).toBe("(map inc [1 2 3])");
    expect(code("```lisp\n(defn f [x]\n  (+ x 1))\n\n(f 1)\n  </lisp>  ")).toBe(
      "(defn f [x]\n  (+ x 1))\n\n(f 1)",
    );
  });

  test("a fence line with text after the tag opens nothing", () => {
    expect(extractCode("``` clojure\n:kw\n```")).toEqual({ ok: false, reason: "no_code" });
  });
});

describe("extractCode: backticks that are not fences", () => {
  test("backticks mid-line inside a string do not close the block", () => {
    const response = [
      "```clojure",
      '(return {:status "error"',
      "         :evidence \"LLM said: '```clojure\\n;; sum\\n```'\"",
      '         :severity "critical"})',
      "```",
    ].join("\n");
    const extracted = code(response);
    expect(extracted).toContain(":severity");
    expect(extracted.startsWith("(return")).toBe(true);
  });

  test("backticks inside an untagged block's string do not close it", () => {
    const response = '```\n(return {:note "see ```example``` in docs"\n         :value 42})\n```';
    expect(code(response)).toBe('(return {:note "see ```example``` in docs"\n         :value 42})');
  });

  test("inline code in prose is not a fence", () => {
    expect(code("Use `(+ 1 2)` like ```this``` then:\n```clojure\n(+ 1 2)\n```")).toBe("(+ 1 2)");
  });

  test("a ```clojure line inside a block is body, not a nested opener", () => {
    const response = "```\n(str\n```clojure\n)\n```";
    expect(code(response)).toBe("(str\n```clojure\n)");
  });
});

describe("extractCode: line endings", () => {
  test("CRLF responses extract without carriage returns", () => {
    expect(code("Here:\r\n```clojure\r\n(def x 1)\r\n(+ x 2)\r\n```\r\n")).toBe("(def x 1)\n(+ x 2)");
  });

  test("bare CR line endings are normalized too", () => {
    expect(code("```clojure\r(def x 1)\r(+ x 2)\r```")).toBe("(def x 1)\n(+ x 2)");
  });

  test("a raw s-expression with CRLF keeps LF newlines", () => {
    expect(code("(def x 1)\r\n(+ x 1)")).toBe("(def x 1)\n(+ x 1)");
  });
});

describe("extractCode: untagged fences", () => {
  test("uses one untagged block whose body starts with (", () => {
    expect(code("```\n(+ 1 2)\n```")).toBe("(+ 1 2)");
  });

  test("uses a block tagged with another language when its body is Lisp", () => {
    expect(code("```python\n  (+ 1 2)\n```")).toBe("(+ 1 2)");
  });

  test("ignores untagged blocks that are not Lisp", () => {
    const response = '```json\n{"a": 1}\n```\n```\n(return 1)\n```\n```python\nprint(1)\n```';
    expect(code(response)).toBe("(return 1)");
  });

  test("two untagged Lisp blocks are an error", () => {
    expect(extractCode("```\n(a)\n```\n```\n(b)\n```")).toEqual({
      ok: false,
      reason: "multiple_code_blocks",
      count: 2,
    });
  });

  test("a Python block alone is no code, even with </clojure> in later prose", () => {
    const response = "```python\nprint('hello')\n```\nSome text mentioning </clojure> later";
    expect(extractCode(response)).toEqual({ ok: false, reason: "no_code" });
  });
});

describe("extractCode: XML blocks", () => {
  test("extracts a <clojure> block inside prose", () => {
    expect(code("Some text\n<clojure>\n(def x 42)\n</clojure>\nMore text")).toBe("(def x 42)");
  });

  test("extracts a <lisp> block, on one line too", () => {
    expect(code("<lisp>\n(+ 1 2)\n</lisp>")).toBe("(+ 1 2)");
    expect(code("answer: <lisp>(+ 1 2)</lisp>")).toBe("(+ 1 2)");
  });

  test("mismatched open and close tags still pair", () => {
    expect(code("<clojure>(+ 1 2)</lisp>")).toBe("(+ 1 2)");
  });

  test("two XML Lisp blocks are an error", () => {
    expect(extractCode("<clojure>(a)</clojure> and <lisp>(b)</lisp>")).toEqual({
      ok: false,
      reason: "multiple_code_blocks",
      count: 2,
    });
  });

  test("XML blocks whose body is not Lisp are skipped", () => {
    expect(code("<clojure>not code</clojure> <clojure>(ok)</clojure>")).toBe("(ok)");
  });

  test("untagged Lisp fences win over XML blocks", () => {
    expect(code("```\n(fenced)\n```\n<clojure>(xml)</clojure>")).toBe("(fenced)");
  });

  test("an XML opener without a closer is not a block", () => {
    expect(extractCode("<clojure>\n(+ 1 2)")).toEqual({ ok: false, reason: "no_code" });
  });

  test("many unclosed openers stay fast and find nothing", () => {
    expect(extractCode("<clojure>(".repeat(50_000))).toEqual({ ok: false, reason: "no_code" });
  });
});

describe("extractCode: raw s-expressions", () => {
  test("accepts a bare program", () => {
    expect(code("(return {:result 42})")).toBe("(return {:result 42})");
  });

  test("trims surrounding whitespace", () => {
    expect(code("\n\n   (+ 1 2)   \n")).toBe("(+ 1 2)");
  });

  test("rejects prose", () => {
    expect(extractCode("I'm thinking about this...")).toEqual({ ok: false, reason: "no_code" });
  });

  test("rejects prose that mentions a form later", () => {
    expect(extractCode("Let me compute (+ 1 2)")).toEqual({ ok: false, reason: "no_code" });
  });

  test("rejects an empty response", () => {
    expect(extractCode("")).toEqual({ ok: false, reason: "no_code" });
    expect(extractCode("   \n ")).toEqual({ ok: false, reason: "no_code" });
  });

  test("a leading BOM or zero-width space does not hide a bare program", () => {
    expect(code("\u200b(+ 1 2)")).toBe("(+ 1 2)");
    expect(code("\ufeff(+ 1 2)")).toBe("(+ 1 2)");
  });

  test("a leading #_ note does not hide a bare program", () => {
    expect(code("#_note (+ 1 2)")).toBe("(+ 1 2)");
  });
});

describe("sanitizeCode: invisible characters", () => {
  test.each([
    ["BOM", "\ufeff"],
    ["zero-width space", "\u200b"],
    ["zero-width non-joiner", "\u200c"],
    ["zero-width joiner", "\u200d"],
    ["no-break space", "\u00a0"],
    ["narrow no-break space", "\u202f"],
    ["word joiner", "\u2060"],
    ["reversed BOM", "\ufffe"],
    ["soft hyphen", "\u00ad"],
    ["Mongolian vowel separator", "\u180e"],
    ["en quad", "\u2000"],
    ["hair space", "\u200a"],
  ])("removes %s", (_name, char) => {
    expect(sanitizeCode(`(+${char} 1${char}${char} 2)`)).toBe("(+ 1 2)");
  });

  test("removes them from fenced code too", () => {
    expect(code("```clojure\n(def\u200b x\u00a0 1)\n```")).toBe("(def x 1)");
  });

  test("keeps other non-ASCII text", () => {
    expect(sanitizeCode('(str "ünïcödé 日本 😀")')).toBe('(str "ünïcödé 日本 😀")');
  });
});

describe("sanitizeCode: smart quotes", () => {
  test("turns curly double quotes into ASCII", () => {
    expect(sanitizeCode("(str \u201chello\u201d)")).toBe('(str "hello")');
  });

  test.each(["\u201c", "\u201d", "\u201e", "\u201f", "\u2033", "\u2036"])(
    "maps %s to a double quote",
    (q) => {
      expect(sanitizeCode(`(str ${q}a${q})`)).toBe('(str "a")');
    },
  );

  test.each(["\u2018", "\u2019", "\u201a", "\u201b", "\u2032", "\u2035"])(
    "maps %s to a single quote",
    (q) => {
      expect(sanitizeCode(`(quote ${q}a)`)).toBe("(quote 'a)");
    },
  );

  test("normalizes quotes inside string literals as well", () => {
    expect(sanitizeCode('(str "it\u2019s")')).toBe('(str "it\'s")');
  });

  test("smart-quoted strings containing #_ are protected once they are ASCII strings", () => {
    expect(sanitizeCode("(str \u201c#_keep\u201d)")).toBe('(str "#_keep")');
  });
});

describe("sanitizeCode: #_ discard forms", () => {
  test("strips a discarded symbol and keeps the surrounding spaces", () => {
    expect(sanitizeCode("(def x #_ignored 42)")).toBe("(def x  42)");
  });

  test("strips a discarded list", () => {
    expect(sanitizeCode("(def x #_(ignored expr) 42)")).toBe("(def x  42)");
  });

  test("strips discarded vectors, maps and nested brackets", () => {
    expect(sanitizeCode("[1 #_[2 [3]] 4]")).toBe("[1  4]");
    expect(sanitizeCode("{:a 1 #_{:b {:c 2}} :d 3}")).toBe("{:a 1  :d 3}");
    expect(sanitizeCode("(a #_(b [c {d (e)}]) f)")).toBe("(a  f)");
  });

  test("strips a discarded string, with escaped quotes inside", () => {
    expect(sanitizeCode('(str #_"a \\"b\\" c" "d")')).toBe('(str  "d")');
  });

  test("brackets inside strings of a discarded form do not end it early", () => {
    expect(sanitizeCode('(a #_(println ")") b)')).toBe("(a  b)");
    expect(sanitizeCode('(a #_[")]" "[("] b)')).toBe("(a  b)");
  });

  test("strips keywords and numbers", () => {
    expect(sanitizeCode("{:a #_:b 1}")).toBe("{:a  1}");
    expect(sanitizeCode("(+ 1 #_2 3)")).toBe("(+ 1  3)");
  });

  test("strips several #_ at the start", () => {
    expect(sanitizeCode("#_comment1 #_comment2 (+ 1 2)")).toBe("(+ 1 2)");
  });

  test("strips #_ whose form is on the next line", () => {
    expect(sanitizeCode("#_\nignored\n(+ 1 2)\n")).toBe("(+ 1 2)");
  });

  test("#_#_a b discards #_a as one form and keeps b (ptc_runner's rule)", () => {
    expect(sanitizeCode("(def x #_#_nested-discard ignored 42)")).toBe("(def x  ignored 42)");
    expect(sanitizeCode("(a #_ #_ #_ b c d)")).toBe("(a  c d)");
  });

  test("two #_ side by side discard two forms", () => {
    expect(sanitizeCode("(def x #_first #_second actual)")).toBe("(def x   actual)");
  });

  test("nested #_ inside a fenced block keeps the form after the pair", () => {
    const response = "```clojure\n(def x 1)\n#_\n#_high-value (filter pred items)\n(def y 2)\n```";
    const extracted = code(response);
    // `#_` and the whitespace after it go, then `#_high-value` as the discarded form.
    expect(extracted).toBe("(def x 1)\n (filter pred items)\n(def y 2)");
  });

  test("#_ inside a discarded form goes with it", () => {
    expect(sanitizeCode("(a #_(b #_c d) e)")).toBe("(a  e)");
  });

  test("#_ inside a string literal is data and stays", () => {
    expect(sanitizeCode('(println "#_foo bar")')).toBe('(println "#_foo bar")');
    expect(sanitizeCode('(str "a \\" #_b" c)')).toBe('(str "a \\" #_b" c)');
  });

  test("#_ inside a comment stays, and does not eat the next line", () => {
    expect(sanitizeCode("; use #_( to discard\n(+ 1 2)")).toBe("; use #_( to discard\n(+ 1 2)");
  });

  test("a character literal quote does not open a string", () => {
    expect(sanitizeCode('(str \\" #_x "y")')).toBe('(str \\"  "y")');
  });

  test("a #_ with no form after it stays so the reader can report it", () => {
    expect(sanitizeCode("(+ 1 2) #_")).toBe("(+ 1 2) #_");
    expect(sanitizeCode("(a #_)")).toBe("(a #_)");
  });

  test("an unbalanced discarded form stays, and later #_ are still stripped", () => {
    expect(sanitizeCode("(a #_(b c #_d e")).toBe("(a #_(b c  e");
  });

  test("an unterminated discarded string stays", () => {
    expect(sanitizeCode('(a #_"oops)')).toBe('(a #_"oops)');
  });

  test("discards reader-prefixed forms whole", () => {
    expect(sanitizeCode("(a #_#{1 2} b)")).toBe("(a  b)");
    expect(sanitizeCode("(a #_'(1 2) b)")).toBe("(a  b)");
    expect(sanitizeCode("(a #_@state b)")).toBe("(a  b)");
    expect(sanitizeCode("(a #_#(inc %) b)")).toBe("(a  b)");
  });

  test("a symbol ends at a bracket, quote or comment", () => {
    expect(sanitizeCode("(a #_b)")).toBe("(a )");
    expect(sanitizeCode('(a #_b"c")')).toBe('(a "c")');
    expect(sanitizeCode("(a #_b;c\n d)")).toBe("(a ;c\n d)");
  });

  test("a long chain of #_ does not overflow the stack", () => {
    const chain = "#_".repeat(100_000);
    expect(sanitizeCode(`(a ${chain}x y)`)).toBe("(a  y)");
  });

  test("a chain of #_ with no form after it stays whole", () => {
    const chain = "#_ ".repeat(50_000);
    expect(sanitizeCode(`(a ${chain})`)).toBe(`(a ${chain})`);
  });

  test("many unbalanced #_( stay in place without rescanning the program each time", () => {
    const program = "#_(".repeat(50_000);
    expect(sanitizeCode(program)).toBe(program);
  });

  test("code without #_ is unchanged apart from trimming", () => {
    const program = '(let [s "x#y"] (str s "_#"))';
    expect(sanitizeCode(`  ${program}\n`)).toBe(program);
  });
});

describe("hasFencedProgram", () => {
  test("true for a ```clojure or ```lisp block, whatever its body", () => {
    expect(hasFencedProgram("```clojure\n(+ 1 2)\n```")).toBe(true);
    expect(hasFencedProgram("Answer:\n```lisp\n42\n```")).toBe(true);
  });

  test("true for an untagged block whose body starts with (", () => {
    expect(hasFencedProgram("```\n  (return 1)\n```")).toBe(true);
  });

  test("true when the fence is closed by </clojure>", () => {
    expect(hasFencedProgram("```clojure\n(+ 1 2)\n</clojure>")).toBe(true);
  });

  test("false for a JSON block, plain prose, a bare program or an XML block", () => {
    expect(hasFencedProgram('```json\n{"a": 1}\n```')).toBe(false);
    expect(hasFencedProgram("The answer is 42.")).toBe(false);
    expect(hasFencedProgram("(return 42)")).toBe(false);
    expect(hasFencedProgram("<clojure>(+ 1 2)</clojure>")).toBe(false);
  });

  test("false for an unclosed fence", () => {
    expect(hasFencedProgram("```clojure\n(+ 1 2)")).toBe(false);
  });

  test("handles CRLF", () => {
    expect(hasFencedProgram("```\r\n(+ 1 2)\r\n```\r\n")).toBe(true);
  });
});

describe("stripThinking", () => {
  test("keeps only the block when prose precedes it", () => {
    expect(stripThinking("thinking:\nSome reasoning\n```clojure\n(+ 1 2)\n```")).toBe(
      "```clojure\n(+ 1 2)\n```",
    );
  });

  test("keeps the language of a ```lisp block and drops trailing prose", () => {
    expect(stripThinking("```lisp\n(+ 1 2)\n```\nHope this helps")).toBe("```lisp\n(+ 1 2)\n```");
  });

  test("keeps the block body as written (no trimming or sanitizing)", () => {
    expect(stripThinking("x\n```clojure\n\n  (+ 1\u00a02)\n\n```")).toBe(
      "```clojure\n\n  (+ 1\u00a02)\n\n```",
    );
  });

  test("re-fences a block closed by </clojure> with ```", () => {
    expect(stripThinking("note\n```clojure\n(+ 1 2)\n</clojure>")).toBe("```clojure\n(+ 1 2)\n```");
  });

  test("returns the response unchanged without a tagged block", () => {
    expect(stripThinking("(+ 1 2)")).toBe("(+ 1 2)");
    expect(stripThinking("text\n```\n(+ 1 2)\n```")).toBe("text\n```\n(+ 1 2)\n```");
  });

  test("returns the response unchanged with two tagged blocks", () => {
    const response = "```clojure\n(a)\n```\n```clojure\n(b)\n```";
    expect(stripThinking(response)).toBe(response);
  });
});

describe("properties", () => {
  // Lines that cannot be mistaken for a fence or an XML closer.
  const programLine = fc
    .string({ maxLength: 30 })
    .filter((line) => !line.includes("\n") && !line.includes("\r") && !line.trim().startsWith("```"))
    .filter((line) => !/^<\/(clojure|lisp)>$/.test(line.trim()));

  test("a program fenced as ```clojure comes back trimmed (when sanitizing has nothing to do)", () => {
    const plain = programLine.filter((line) => /^[a-z0-9 ()[\]{}:+*-]*$/.test(line));
    fc.assert(
      fc.property(
        fc.array(plain, { minLength: 1, maxLength: 6 }),
        fc.constantFrom("clojure", "lisp"),
        (lines, tag) => {
          const program = lines.join("\n");
          const result = extractCode(`Reasoning first.\n\`\`\`${tag}\n${program}\n\`\`\`\ntrailing words`);
          expect(result).toEqual({ ok: true, code: program.trim() });
        },
      ),
    );
  });

  // Fragments that drive every branch: fences, XML tags, brackets, strings, discards, line ends.
  const responseish = fc
    .array(
      fc.constantFrom(
        "```",
        "```clojure",
        "```lisp",
        "```json",
        "<clojure>",
        "</clojure>",
        "</lisp>",
        "\n",
        "\r\n",
        "\r",
        " ",
        "(",
        ")",
        "[",
        "{",
        '"',
        "\\",
        ";",
        "#_",
        "x",
        "\u201c",
        "\ufeff",
      ),
      { maxLength: 60 },
    )
    .map((parts) => parts.join(""));

  test("extractCode never throws and always returns a well-formed result", () => {
    fc.assert(
      fc.property(responseish, (response) => {
        const result = extractCode(response);
        if (result.ok) expect(typeof result.code).toBe("string");
        else if (result.reason === "multiple_code_blocks") expect(result.count).toBeGreaterThan(1);
        else expect(result.reason).toBe("no_code");
      }),
    );
  });

  test("sanitizeCode is idempotent", () => {
    const lispish = fc
      .array(
        fc.constantFrom(
          "(",
          ")",
          "[",
          "]",
          "{",
          "}",
          '"',
          "\\",
          ";",
          "\n",
          " ",
          "#_",
          "a",
          "\u201c",
          "\u200b",
        ),
        {
          maxLength: 40,
        },
      )
      .map((parts) => parts.join(""));
    fc.assert(
      fc.property(lispish, (source) => {
        const once = sanitizeCode(source);
        expect(sanitizeCode(once)).toBe(once);
      }),
    );
  });
});
