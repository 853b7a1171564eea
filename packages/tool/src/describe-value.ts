/**
 * Short, readable renderings of arbitrary values for error messages ("got 5", "got \"table\"").
 * Never throws and never prints more than a line, whatever it is handed.
 */

const MAX_LENGTH = 60;

export function describeValue(value: unknown): string {
  if (value === undefined) return "undefined";
  if (typeof value === "function") return value.name === "" ? "a function" : `function ${value.name}`;
  if (typeof value === "symbol") return value.toString();
  if (typeof value === "bigint") return `${value}n`;
  if (typeof value === "number") return String(value);
  if (value instanceof Date)
    return `Date(${Number.isNaN(value.getTime()) ? "invalid" : value.toISOString()})`;
  if (value instanceof Map) return `Map(${value.size})`;
  if (value instanceof Set) return `Set(${value.size})`;
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = Object.prototype.toString.call(value);
  }
  return text.length > MAX_LENGTH ? `${text.slice(0, MAX_LENGTH)}...` : text;
}

/** Plain objects are the only "maps" a JSON boundary produces: no class instances, no Map. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== "object") return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
