/**
 * A tool result as the JSON text a model reads. Tools return whatever JavaScript hands them, so
 * values JSON cannot hold are made readable instead of crashing the run: dates as ISO text,
 * BigInt as decimal text, Map as an object, Set as an array. Cycles, functions and symbols make
 * the result unserializable, reported as a tool error the model can react to.
 */
export type JsonText =
  | { readonly ok: true; readonly text: string }
  | { readonly ok: false; readonly error: string };

export function toJsonText(value: unknown): JsonText {
  const ancestors: unknown[] = [];
  let problem: string | undefined;
  const replacer = function (this: unknown, _key: string, item: unknown): unknown {
    // JSON.stringify calls toJSON before the replacer, so Dates arrive as strings already.
    while (ancestors.length > 0 && ancestors[ancestors.length - 1] !== this) ancestors.pop();
    if (typeof item === "bigint") return item.toString();
    if (typeof item === "function" || typeof item === "symbol") {
      problem ??= `the tool returned a ${typeof item}, which is not JSON data`;
      return undefined;
    }
    if (typeof item === "number" && !Number.isFinite(item)) return null;
    if (typeof item !== "object" || item === null) return item;
    if (ancestors.includes(item)) {
      problem ??= "the tool returned a value that contains itself (a cycle), which is not JSON data";
      return undefined;
    }
    ancestors.push(item);
    if (item instanceof Map) return Object.fromEntries([...item.entries()].map(([k, v]) => [String(k), v]));
    if (item instanceof Set) return [...item];
    return item;
  };
  try {
    const text = JSON.stringify(value === undefined ? null : value, replacer);
    if (problem !== undefined) return { ok: false, error: problem };
    return { ok: true, text: text ?? "null" };
  } catch (error) {
    return { ok: false, error: `the tool result is not JSON data: ${(error as Error).message}` };
  }
}
