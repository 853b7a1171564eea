/**
 * Redaction of secrets before anything is written to a transcript: API-key shaped strings
 * (`sk-...`, `Bearer ...`, long key=value tokens) are replaced wherever they appear.
 */
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

/** The JSON line of a record, with secrets redacted. Values JSON cannot hold become their text. */
export function transcriptLine(record: unknown): string {
  const seen = new WeakSet<object>();
  const text = JSON.stringify(record, (_key, value: unknown) => {
    if (typeof value === "bigint") return value.toString();
    if (typeof value === "function" || typeof value === "symbol") return undefined;
    if (value instanceof Map) return Object.fromEntries(value);
    if (value instanceof Set) return [...value];
    if (typeof value === "object" && value !== null) {
      if (seen.has(value)) return "[cycle]";
      seen.add(value);
    }
    return value;
  });
  return redactText(text ?? "null");
}
