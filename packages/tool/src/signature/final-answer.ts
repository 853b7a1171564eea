/**
 * Turns a model's direct text answer into the value a signature promises: raw text for
 * `:string`/`:any` (or no signature), otherwise strict JSON (a bare ISO date-time is also
 * accepted for `:datetime`), coerced and validated. Failures carry the message the model sees.
 */
import { coerceValue, parseIsoDatetime } from "./coerce.js";
import type { Signature } from "./types.js";
import { formatValidationErrors, validateReturn } from "./validate.js";

export type FinalAnswerResult =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly error: string };

export function parseFinalAnswer(content: string, signature: Signature | undefined): FinalAnswerResult {
  const returns = signature?.returns;
  if (signature === undefined || returns === "string" || returns === "any")
    return { ok: true, value: content };

  const trimmed = content.trim();
  let parsed: unknown;
  try {
    parsed = JSON.parse(trimmed);
  } catch {
    if (returns !== "datetime") return { ok: false, error: "Could not parse JSON from response." };
    if (parseIsoDatetime(trimmed) === undefined) {
      return { ok: false, error: `Could not parse datetime from response: ${JSON.stringify(trimmed)}` };
    }
    parsed = trimmed;
  }
  const value = coerceValue(parsed, returns);
  const validation = validateReturn(signature, value);
  if (!validation.ok)
    return { ok: false, error: `Return validation failed: ${formatValidationErrors(validation.errors)}` };
  return { ok: true, value };
}
