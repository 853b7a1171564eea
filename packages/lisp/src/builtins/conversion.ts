/**
 * Conversions between names: `keyword` (string -> keyword) and `name` (keyword -> string).
 *
 * `keyword` only mints names a program could write as a literal and read back unchanged: a letter
 * first, then letters, digits and - _ ? !. Data such as "a b" or "user/id" is refused rather than
 * turned into a keyword nobody can write (the reference refuses the same names).
 */
import { LispError } from "../errors.js";
import { print } from "../format/print.js";
import { typeAndValue } from "../runtime/describe.js";
import { Keyword } from "../values/keyword.js";
import { QuotedSymbol } from "../values/quoted-symbol.js";
import { type BuiltinDefinition, builtin } from "./definition.js";

const KEYWORD_NAME = /^[A-Za-z][A-Za-z0-9\-_?!]*$/;

function isSpecialFloat(value: unknown): boolean {
  return typeof value === "number" && !Number.isFinite(value);
}

function keyword(value: unknown): Keyword | null {
  if (value instanceof Keyword) return value;
  if (typeof value === "string") {
    if (!KEYWORD_NAME.test(value)) {
      throw new LispError(
        "runtime_error",
        `keyword: invalid keyword name: ${print(value, { maxChars: 60 })}. A keyword name starts with a letter and has only letters, digits and - _ ? !; keep other text as a string key`,
      );
    }
    return Keyword.of(value);
  }
  if (value === null || value === undefined) return null;
  if (isSpecialFloat(value)) {
    throw new LispError("runtime_error", `keyword: cannot coerce special value to keyword: ${print(value)}`);
  }
  throw new LispError(
    "runtime_error",
    `keyword: cannot coerce ${typeAndValue(value, 40)} to a keyword; pass a string such as "name"`,
  );
}

function name(value: unknown): string {
  if (typeof value === "string") return value;
  if (value instanceof Keyword) return value.name;
  if (value instanceof QuotedSymbol) return value.name;
  if (isSpecialFloat(value))
    throw new LispError("runtime_error", `name not supported on special value ${print(value)}`);
  throw new LispError(
    "runtime_error",
    `name not supported on: ${print(value, { maxChars: 40 })}; name takes a keyword or a string (use (str x) to turn other values into text)`,
  );
}

const CATEGORY = "Conversion";

export const conversionBuiltins: BuiltinDefinition[] = [
  builtin(
    "keyword",
    [1, 1],
    ["[name]"],
    "The keyword with this name (a keyword is returned as is, nil gives nil); the name must be a valid keyword name.",
    CATEGORY,
    keyword,
    [
      ['(keyword "status")', ":status"],
      ["(keyword :a)", ":a"],
      ["(keyword nil)", "nil"],
    ],
  ),
  builtin(
    "name",
    [1, 1],
    ["[x]"],
    "The name of a keyword, without the colon; a string is returned as is.",
    CATEGORY,
    name,
    [
      ["(name :user-id)", '"user-id"'],
      ['(name "x")', '"x"'],
    ],
  ),
];
