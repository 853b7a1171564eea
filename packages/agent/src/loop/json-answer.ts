/**
 * Reads a JSON answer of the text modes against the signature: find the JSON (fenced, bare or in
 * prose), check its shape (a list answer may come bare or as `{"items": [...]}`; anything else
 * must be an object), coerce (datetimes), validate. A failure says whether it was the JSON or the
 * values, since the two end a run with different reasons.
 */
import {
  coerceValue,
  formatValidationErrors,
  normalizeKeys,
  type Signature,
  validateReturn,
} from "@ptc/tool";
import { parseJsonAnswer } from "../parsing/parse-json-answer.js";

export type JsonAnswer =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly kind: "json_parse_error" | "validation_error"; readonly message: string };

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function readJsonAnswer(content: string, signature: Signature | undefined): JsonAnswer {
  const parsed = parseJsonAnswer(content);
  if (!parsed.ok) return { ok: false, kind: "json_parse_error", message: parsed.message };
  const returns = signature?.returns;
  const listAnswer = typeof returns === "object" && returns.kind === "list";
  let value: unknown = parsed.value;
  if (isObject(value) && listAnswer) {
    if (!Array.isArray(value.items)) {
      return {
        ok: false,
        kind: "json_parse_error",
        message: 'Expected {"items": [...]} wrapper for array response',
      };
    }
    value = value.items;
  } else if (!isObject(value) && !(Array.isArray(value) && listAnswer)) {
    return {
      ok: false,
      kind: "json_parse_error",
      message: "Response must be a JSON object, not an array or primitive",
    };
  }
  const coerced = coerceValue(value, returns);
  if (signature !== undefined) {
    const validation = validateReturn(signature, coerced);
    if (!validation.ok) {
      return { ok: false, kind: "validation_error", message: formatValidationErrors(validation.errors) };
    }
  }
  return { ok: true, value: normalizeKeys(coerced) };
}
