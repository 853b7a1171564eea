/**
 * Names of value types for error messages ("expected a map, got vector"). Never prints host
 * internals such as "[object Object]".
 */
import { print } from "../format/print.js";
import { CustomValue } from "../values/custom-value.js";
import { Keyword } from "../values/keyword.js";
import { isLispFunction } from "../values/lisp-function.js";
import { LispMap } from "../values/lisp-map.js";
import { LispSet } from "../values/lisp-set.js";
import { WholeFloat } from "../values/numbers.js";
import { isPlainObject } from "../values/plain-object.js";

export function typeName(value: unknown): string {
  switch (typeof value) {
    case "undefined":
      return "nil";
    case "boolean":
      return "boolean";
    case "number":
      return Number.isInteger(value) ? "integer" : "float";
    case "bigint":
      return "integer";
    case "string":
      return "string";
    case "function":
      return isLispFunction(value) ? "function" : "host function";
    default:
      if (value === null) return "nil";
      if (value instanceof Keyword) return "keyword";
      if (value instanceof WholeFloat) return "float";
      if (Array.isArray(value)) return "vector";
      if (value instanceof LispMap || isPlainObject(value)) return "map";
      if (value instanceof LispSet) return "set";
      if (value instanceof CustomValue) return value.typeName;
      return "host object";
  }
}

/**
 * A value for an error message: its type and a short print ("integer 42", "string \"x\""), or
 * just "nil", whose type name and print are the same word.
 */
export function typeAndValue(value: unknown, maxChars = 60): string {
  if (value === null || value === undefined) return "nil";
  return `${typeName(value)} ${print(value, { maxChars })}`;
}
