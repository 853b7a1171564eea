/**
 * JSON text whose object keys are written in sorted order (plain `<` on the key strings, as
 * `Array.prototype.sort` orders them), so that data equal up to key order gives equal text.
 *
 * Cache keys are built from it (cache-key.ts). It writes exactly what fast-json-stable-stringify
 * writes, which the keys were built with before: kept here as a few lines instead of a dependency,
 * because that package is CommonJS, and the first CommonJS module an ES module process imports
 * makes Node load its CommonJS interop (several milliseconds of every cold start of @ptc/agent).
 *
 * Like `JSON.stringify`: `toJSON` is honoured, numbers that are not finite are `null`, entries whose
 * value has no JSON form (undefined, functions, symbols) are left out of objects and are `null` in
 * arrays, and a value that contains itself throws a TypeError.
 */
export function stableJson(value: unknown): string | undefined {
  return write(value, []);
}

function write(value: unknown, ancestors: object[]): string | undefined {
  let node = value;
  const toJSON = (node as { toJSON?: unknown } | null | undefined)?.toJSON;
  if (typeof toJSON === "function") node = toJSON.call(node);
  if (node === undefined) return undefined;
  if (typeof node === "number") return Number.isFinite(node) ? String(node) : "null";
  if (typeof node !== "object") return JSON.stringify(node);
  if (node === null) return "null";
  if (Array.isArray(node)) {
    const parts: string[] = [];
    for (const element of node) parts.push(write(element, ancestors) ?? "null");
    return `[${parts.join(",")}]`;
  }
  if (ancestors.includes(node)) throw new TypeError("Converting circular structure to JSON");
  ancestors.push(node);
  const record = node as Record<string, unknown>;
  const parts: string[] = [];
  for (const key of Object.keys(record).sort()) {
    const text = write(record[key], ancestors);
    // An empty text cannot be JSON; the reference skips it the same way as a missing one.
    if (text) parts.push(`${JSON.stringify(key)}:${text}`);
  }
  ancestors.pop();
  return `{${parts.join(",")}}`;
}
