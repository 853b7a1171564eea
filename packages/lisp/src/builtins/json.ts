/**
 * JSON builtins, reached as json/parse-string and json/generate-string. Text that is not JSON
 * parses to nil; a value JSON cannot carry is an error naming it and where it is (never a silent
 * nil). See support/str-json.ts.
 */
import { type BuiltinDefinition, builtin } from "./definition.js";
import { generateJson, parseJson } from "./support/str-json.js";

function parseString(text: unknown): unknown {
  return typeof text === "string" ? parseJson(text) : null;
}

function generateString(value: unknown): string {
  return generateJson(value);
}

const CATEGORY = "JSON";

export const jsonBuiltins: BuiltinDefinition[] = [
  builtin(
    "json/parse-string",
    [1, 1],
    ["[s]"],
    "The value of a JSON text (objects become string-keyed maps); nil when s is not JSON or is null.",
    CATEGORY,
    parseString,
    [
      ['(json/parse-string "{\\"a\\": [1, 2.5]}")', '{"a" [1 2.5]}'],
      ['(json/parse-string "not json")', "nil"],
    ],
  ),
  builtin(
    "json/generate-string",
    [1, 1],
    ["[x]"],
    "JSON text of x: keywords become their names, sets arrays. A value JSON cannot carry (##NaN, ##Inf, a function, a key other than a string, keyword or integer) is an error.",
    CATEGORY,
    generateString,
    [
      ['(json/generate-string {"a" [1 2] "b" nil})', '"{\\"a\\":[1,2],\\"b\\":null}"'],
      ["(json/generate-string {:a :x :b #{1}})", '"{\\"a\\":\\"x\\",\\"b\\":[1]}"'],
    ],
  ),
];
