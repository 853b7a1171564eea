/**
 * How the language's own values look to the host's generic tools: `JSON.stringify` (through each
 * class's `toJSON`) and Node's `console.log`/`util.inspect` (through the `nodejs.util.inspect.custom`
 * symbol, taken with `Symbol.for`, so nothing here depends on Node). Maps print like a JS `Map`,
 * keywords as `:name`, so a value logged while debugging reads as what it is, not as the
 * persistent table's internals.
 *
 * The complete, bounded conversion to JSON data is `toJson` (format/to-json.ts): any depth, bigints
 * as decimal strings, a node budget. `toJSON` here converts one level and lets `JSON.stringify`
 * walk the rest. Nothing here may import LispMap or LispSet (they use it).
 */

/** The symbol Node's `util.inspect` looks for. */
export const INSPECT: unique symbol = Symbol.for("nodejs.util.inspect.custom") as never;

/** The options and the `inspect` function Node passes to a custom inspect method. */
export interface InspectOptions {
  readonly depth?: number | null;
  readonly maxArrayLength?: number | null;
  readonly stylize?: (text: string, style: string) => string;
}
export type Inspect = (value: unknown, options?: InspectOptions) => string;

/** A value `JSON.stringify` can write: bigints become their decimal text, undefined nil. */
export function jsonValue(value: unknown): unknown {
  if (typeof value === "bigint") return value.toString();
  return value === undefined ? null : value;
}

/** A map key as an object key: strings as they are, keywords by name, anything else as text. */
export function jsonKey(key: unknown): string {
  if (typeof key === "string") return key;
  if (key === null || key === undefined) return "nil";
  if (typeof key === "object" && typeof (key as { toJSON?: unknown }).toJSON === "function") {
    const json = (key as { toJSON(): unknown }).toJSON();
    return typeof json === "string" ? json : JSON.stringify(json);
  }
  return typeof key === "bigint" || typeof key === "number" || typeof key === "boolean"
    ? String(key)
    : JSON.stringify(key);
}

/**
 * `Label(n) { a, b }` or `Label(n) { k => v }`, inspecting the parts with Node's own `inspect` one
 * level deeper; `[Label]` past the depth Node asked for.
 */
export function inspectCollection(
  label: string,
  size: number,
  items: readonly (readonly [unknown, unknown] | readonly [unknown])[],
  depth: number,
  options: InspectOptions,
  inspect: Inspect | undefined,
): string {
  const stylize = options.stylize ?? ((text: string) => text);
  if (depth < 0) return stylize(`[${label}]`, "special");
  const show: Inspect =
    inspect === undefined
      ? (value) => (typeof value === "string" ? JSON.stringify(value) : String(value))
      : (value) =>
          inspect(value, { ...options, depth: typeof options.depth === "number" ? options.depth - 1 : null });
  const limit = options.maxArrayLength ?? 100;
  const parts = items
    .slice(0, limit)
    .map((item) => (item.length === 2 ? `${show(item[0])} => ${show(item[1])}` : show(item[0])));
  if (items.length > limit)
    parts.push(`... ${items.length - limit} more item${items.length - limit === 1 ? "" : "s"}`);
  return `${stylize(label, "special")}(${size}) ${parts.length === 0 ? "{}" : `{ ${parts.join(", ")} }`}`;
}
