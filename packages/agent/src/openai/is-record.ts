/** Narrows parsed JSON to a plain object, the shape every Chat Completions payload has. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
