/**
 * Redaction of secrets before anything is written to a transcript: API-key shaped strings
 * (`sk-...`, `Bearer ...`, long key=value tokens) are replaced wherever they appear.
 */
import { toJsonSafe } from "../json/to-json-safe.js";

const SECRET_PATTERNS: readonly RegExp[] = [
  /\bsk-[A-Za-z0-9_-]{8,}/g,
  /\bBearer\s+[A-Za-z0-9._~+/=-]{8,}/g,
  /\b(api[_-]?key|apikey|authorization|x-api-key)(["']?\s*[:=]\s*["']?)[^\s"',}]{6,}/gi,
];

export function redactText(text: string): string {
  let out = text;
  for (const pattern of SECRET_PATTERNS) {
    out = out.replace(pattern, (_match, name?: string, separator?: string) =>
      typeof name === "string" && typeof separator === "string"
        ? `${name}${separator}[redacted]`
        : "[redacted]",
    );
  }
  return out;
}

/**
 * The JSON line of a record, with secrets redacted. Whatever the record holds becomes JSON data
 * first (json/to-json-safe.ts), so writing a line never throws and no record is lost.
 */
export function transcriptLine(record: unknown): string {
  // Each string is redacted as it is, before JSON escapes it: written out, a line break or a tab
  // becomes \n or \t, and a key right after one would follow the letter n or t, where the
  // patterns' word boundary is not. The pass over the whole line then covers object keys.
  const text = JSON.stringify(toJsonSafe(record), (_key, value: unknown) =>
    typeof value === "string" ? redactText(value) : value,
  );
  return redactText(text);
}
