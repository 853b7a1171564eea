/**
 * Regex builtins (re-pattern itself is in internal.ts, as regex literals compile to it). Matching
 * runs on RE2 in linear time, so no pattern can hang a run, and the whole input is searched (the
 * reference stops at 32 KB; see support/str-regex.ts). A match is a string, or `[whole g1 g2 ...]`
 * when the pattern has groups.
 */
import { Regex } from "../values/regex.js";
import { type BuiltinDefinition, builtin } from "./definition.js";
import { findAll, findFirst, matchWhole, requireRegex, splitAll } from "./support/str-regex.js";
import { requireString } from "./support/str-text.js";

function reFind(re: unknown, s: unknown): unknown {
  return findFirst(requireRegex(re, "re-find"), requireString(s, "re-find"));
}

function reMatches(re: unknown, s: unknown): unknown {
  return matchWhole(requireRegex(re, "re-matches"), requireString(s, "re-matches"));
}

function reSeq(re: unknown, s: unknown): unknown {
  return findAll(requireRegex(re, "re-seq"), requireString(s, "re-seq"));
}

function reSplit(re: unknown, s: unknown): unknown {
  return splitAll(requireRegex(re, "re-split"), requireString(s, "re-split"));
}

function isRegex(value: unknown): boolean {
  return value instanceof Regex;
}

const CATEGORY = "Regex";

export const regexBuiltins: BuiltinDefinition[] = [
  builtin(
    "re-find",
    [2, 2],
    ["[re s]"],
    "The first match of re in s (a string, or [whole g1 ...] with groups), or nil.",
    CATEGORY,
    reFind,
    [
      ['(re-find #"\\d+" "abc123def")', '"123"'],
      ['(re-find #"(\\d+)-(\\d+)" "10-20")', '["10-20" "10" "20"]'],
    ],
  ),
  builtin(
    "re-matches",
    [2, 2],
    ["[re s]"],
    "The match when re matches all of s, or nil.",
    CATEGORY,
    reMatches,
    [
      ['(re-matches #"\\d+" "123")', '"123"'],
      ['(re-matches #"\\d+" "123abc")', "nil"],
    ],
  ),
  builtin("re-seq", [2, 2], ["[re s]"], "Every match of re in s, in order.", CATEGORY, reSeq, [
    ['(re-seq #"\\d+" "a1b22c333")', '["1" "22" "333"]'],
  ]),
  builtin("re-split", [2, 2], ["[re s]"], "Splits s at each match of re.", CATEGORY, reSplit, [
    ['(re-split #"\\s+" "a  b   c")', '["a" "b" "c"]'],
  ]),
  builtin("regex?", [1, 1], ["[x]"], "True when x is a regex.", CATEGORY, isRegex, [
    ['(regex? #"a+")', "true"],
    ['(regex? "a+")', "false"],
  ]),
];
