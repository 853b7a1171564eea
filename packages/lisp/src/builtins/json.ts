/**
 * JSON builtins, reached as json/parse-string and json/generate-string. Neither raises: text that
 * is not JSON parses to nil, and a value JSON cannot carry faithfully generates nil.
 */
import { type BuiltinDefinition, builtin } from "./definition.js";
import { generateJson, parseJson } from "./support/str-json.js";

function parseString(text: unknown): unknown {
  return typeof text === "string" ? parseJson(text) : null;
}

function generateString(value: unknown): string | null {
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
    "JSON text of x; nil when x holds keywords, sets, special floats, functions or keys other than strings and integers.",
    CATEGORY,
    generateString,
    [
      ['(json/generate-string {"a" [1 2] "b" nil})', '"{\\"a\\":[1,2],\\"b\\":null}"'],
      ["(json/generate-string {:a 1})", "nil"],
    ],
  ),
];
