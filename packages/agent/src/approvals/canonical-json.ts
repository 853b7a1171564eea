/**
 * JSON text with object keys in sorted order: the same data gives the same text whatever order
 * its keys were written in, so a signature survives a store that reorders keys (a database's
 * JSON column, another language's parser). Input is JSON data (the paused state); a value JSON
 * cannot hold is written as `JSON.stringify` writes it.
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item ?? null)).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    const keys = Object.keys(value).sort();
    const fields: string[] = [];
    for (const key of keys) {
      const item = (value as Record<string, unknown>)[key];
      if (item === undefined) continue;
      fields.push(`${JSON.stringify(key)}:${canonicalJson(item)}`);
    }
    return `{${fields.join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}
