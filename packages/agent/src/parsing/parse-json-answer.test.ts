import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { parseJsonAnswer } from "./parse-json-answer.js";

const NO_JSON = { ok: false, reason: "no_json_found", message: "No valid JSON found in response" };
const INVALID = { ok: false, reason: "invalid_json", message: "JSON parse error" };

function value(content: string): unknown {
  const result = parseJsonAnswer(content);
  if (!result.ok) throw new Error(`expected JSON, got ${result.reason}`);
  return result.value;
}

describe("parseJsonAnswer: fenced JSON", () => {
  test("reads a ```json block", () => {
    expect(parseJsonAnswer('```json\n{"a": 1}\n```')).toEqual({ ok: true, value: { a: 1 } });
  });

  test("reads a bare ``` block", () => {
    expect(value('```\n{"a": 1}\n```')).toEqual({ a: 1 });
  });

  test("reads ```JSON in any case", () => {
    expect(value('```JSON\n{"a": 1}\n```')).toEqual({ a: 1 });
  });

  test("ignores prose around the block, including braces in the prose", () => {
    const content =
      'Here is {the} result:\n```json\n{"name": "Alice", "tags": ["x"]}\n```\nLet me know {if} needed.';
    expect(value(content)).toEqual({ name: "Alice", tags: ["x"] });
  });

  test("reads a one-line block", () => {
    expect(value('```json {"a": [1, 2]} ```')).toEqual({ a: [1, 2] });
  });

  test("reads an array in a block", () => {
    expect(value("```json\n[1, 2, 3]\n```")).toEqual([1, 2, 3]);
  });

  test("reads a primitive in a block (the caller rejects the shape)", () => {
    expect(value("```json\n42\n```")).toBe(42);
    expect(value('```\n"text"\n```')).toBe("text");
  });

  test("takes the first JSON block when there are several", () => {
    expect(value('```json\n{"first": true}\n```\n```json\n{"second": true}\n```')).toEqual({ first: true });
  });

  test("malformed JSON in the block is invalid_json, with no fallthrough to later JSON", () => {
    expect(parseJsonAnswer('```json\n{invalid}\n```\nActually: {"a": 1}')).toEqual(INVALID);
    expect(parseJsonAnswer('```json\n{"a": 1,}\n```')).toEqual(INVALID);
  });

  test("an empty block falls through to JSON in the prose", () => {
    expect(value('```json\n\n```\nThe answer: {"a": 1}')).toEqual({ a: 1 });
    expect(parseJsonAnswer("```\n   \n```")).toEqual(NO_JSON);
  });

  test("blocks in another language are passed over", () => {
    expect(value('```python\nprint({1: 2})\n```\n```json\n{"a": 1}\n```')).toEqual({ a: 1 });
  });

  test("a jsonc or javascript block is another language; its JSON is still found in the text", () => {
    expect(value('```javascript\n{"a": 1}\n```')).toEqual({ a: 1 });
  });

  test("backticks inside a JSON string do not close the block", () => {
    expect(value('```json\n{"md": "use ``` fences", "n": 1}\n```')).toEqual({ md: "use ``` fences", n: 1 });
  });

  test("handles CRLF around the block", () => {
    expect(value('Result:\r\n```json\r\n{"a": 1}\r\n```\r\n')).toEqual({ a: 1 });
  });

  test("an unclosed block falls through to the JSON inside it", () => {
    expect(value('```json\n{"a": 1}')).toEqual({ a: 1 });
  });

  test("a fence that does not start its line is not a block", () => {
    expect(value('The value {"a": "``` 1 ```"} is final')).toEqual({ a: "``` 1 ```" });
  });

  test("a block fenced mid-line is still found through the prose search", () => {
    expect(value('Here: ```json\n{"a": 1}\n```')).toEqual({ a: 1 });
  });
});

describe("parseJsonAnswer: raw JSON", () => {
  test("reads a bare object or array", () => {
    expect(value('{"name": "Alice"}')).toEqual({ name: "Alice" });
    expect(value("[1, 2, 3]")).toEqual([1, 2, 3]);
  });

  test("trims whitespace around it", () => {
    expect(value('\n\n  {"a": 1}  \n')).toEqual({ a: 1 });
  });

  test("takes the balanced prefix and drops trailing commentary", () => {
    expect(value('{"a": 1} I hope this helps! {not json}')).toEqual({ a: 1 });
    expect(value("[1, [2, 3]] and [4]")).toEqual([1, [2, 3]]);
  });

  test("braces and brackets inside strings do not end the value", () => {
    expect(value('{"a": "}", "b": "{{", "c": "]"} tail')).toEqual({ a: "}", b: "{{", c: "]" });
    expect(value('["]", "[", {"k": "]"}] tail')).toEqual(["]", "[", { k: "]" }]);
  });

  test("escaped quotes inside strings do not end the string", () => {
    expect(value('{"quote": "say \\"}\\" now", "n": 2} trailing }')).toEqual({ quote: 'say "}" now', n: 2 });
    expect(value('{"slash": "ends with \\\\", "n": 3}')).toEqual({ slash: "ends with \\", n: 3 });
  });

  test("nested objects and arrays", () => {
    const nested = { a: { b: [{ c: [1, { d: null }] }] }, e: [] };
    expect(value(JSON.stringify(nested))).toEqual(nested);
  });

  test("an unbalanced object is no JSON", () => {
    expect(parseJsonAnswer('{"a": 1')).toEqual(NO_JSON);
    expect(parseJsonAnswer("[1, 2")).toEqual(NO_JSON);
  });

  test("a balanced but malformed object is invalid_json", () => {
    expect(parseJsonAnswer("{a: 1}")).toEqual(INVALID);
    expect(parseJsonAnswer("{'a': 1}")).toEqual(INVALID);
  });

  test("keeps __proto__ as an own key and never touches Object.prototype", () => {
    const result = value('{"__proto__": {"polluted": true}, "constructor": 1}') as Record<string, unknown>;
    expect(Object.hasOwn(result, "__proto__")).toBe(true);
    expect(result.constructor).toBe(1);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe("parseJsonAnswer: JSON embedded in prose", () => {
  test("finds an object after an explanation", () => {
    expect(value('Here\'s the result: {"x": 5}')).toEqual({ x: 5 });
  });

  test("finds an array after an explanation", () => {
    expect(value("The ids are [1, 2, 3]. Done.")).toEqual([1, 2, 3]);
  });

  test("braces inside strings of embedded JSON are handled", () => {
    expect(value('Answer: {"text": "a } b { c", "ok": true} -- end }')).toEqual({
      text: "a } b { c",
      ok: true,
    });
  });

  test("takes whichever of { and [ comes first", () => {
    expect(value('List: [{"a": 1}] then {"b": 2}')).toEqual([{ a: 1 }]);
    expect(value('Obj: {"a": [1]} then [2]')).toEqual({ a: [1] });
  });

  test("only the first bracket is tried: malformed first candidate is invalid_json", () => {
    expect(parseJsonAnswer('The set {a, b} and then {"x": 1}')).toEqual(INVALID);
    expect(parseJsonAnswer('Note [see below]: {"x": 1}')).toEqual(INVALID);
  });

  test("an unbalanced first candidate is no JSON", () => {
    expect(parseJsonAnswer("Result: {")).toEqual(NO_JSON);
  });

  test("plain prose is no JSON", () => {
    expect(parseJsonAnswer("No JSON here")).toEqual(NO_JSON);
    expect(parseJsonAnswer("")).toEqual(NO_JSON);
  });

  test("a bare primitive without a fence is no JSON", () => {
    expect(parseJsonAnswer("42")).toEqual(NO_JSON);
    expect(parseJsonAnswer("true")).toEqual(NO_JSON);
    expect(parseJsonAnswer('"text"')).toEqual(NO_JSON);
  });

  test("a quote in the prose before the JSON does not confuse the bracket search", () => {
    expect(value('He said "hi. Result: {"a": 1}')).toEqual({ a: 1 });
  });
});

describe("properties", () => {
  const jsonContainer = fc
    .oneof(fc.dictionary(fc.string(), fc.jsonValue()), fc.array(fc.jsonValue()))
    .map((container) => JSON.parse(JSON.stringify(container)) as unknown);

  test("a JSON object or array round-trips when sent bare", () => {
    fc.assert(
      fc.property(jsonContainer, (container) => {
        expect(parseJsonAnswer(JSON.stringify(container))).toEqual({ ok: true, value: container });
      }),
    );
  });

  test("a JSON object or array round-trips when pretty-printed in a ```json fence with prose", () => {
    fc.assert(
      fc.property(jsonContainer, (container) => {
        const content = `Sure {here} it is:\n\`\`\`json\n${JSON.stringify(container, null, 2)}\n\`\`\`\nAnything else?`;
        expect(parseJsonAnswer(content)).toEqual({ ok: true, value: container });
      }),
    );
  });

  test("a JSON object round-trips after prose without brackets", () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.string(), fc.jsonValue()),
        fc.string().filter((prose) => !/[{[`]/.test(prose)),
        (object, prose) => {
          const expected = JSON.parse(JSON.stringify(object)) as unknown;
          expect(parseJsonAnswer(`${prose} ${JSON.stringify(object)}`)).toEqual({
            ok: true,
            value: expected,
          });
        },
      ),
    );
  });

  test("never throws", () => {
    const fragments = fc
      .array(
        fc.constantFrom("```", "```json", "\n", "{", "}", "[", "]", '"', "\\", ":", ",", "1", "a", " "),
        {
          maxLength: 50,
        },
      )
      .map((parts) => parts.join(""));
    fc.assert(
      fc.property(fragments, (content) => {
        const result = parseJsonAnswer(content);
        expect(typeof result.ok).toBe("boolean");
      }),
    );
  });
});
