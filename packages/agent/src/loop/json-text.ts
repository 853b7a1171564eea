/**
 * A tool result as the JSON text a model reads natively. It is the same data a program would get
 * (see program-value.ts: Dates, Maps, Sets and class instances made readable; cycles, functions and
 * symbols an error the model can react to), written as JSON with BigInts as their decimal text and
 * non-finite numbers as null.
 */
import { toProgramValue } from "./program-value.js";

export type JsonText =
  | { readonly ok: true; readonly text: string }
  | { readonly ok: false; readonly error: string };

export function toJsonText(value: unknown): JsonText {
  const data = toProgramValue(value);
  if (!data.ok) return data;
  try {
    const text = JSON.stringify(data.value === undefined ? null : data.value, (_key, item: unknown) =>
      typeof item === "bigint" ? item.toString() : item,
    );
    return { ok: true, text: text ?? "null" };
  } catch (error) {
    return { ok: false, error: `the tool result is not JSON data: ${(error as Error).message}` };
  }
}
