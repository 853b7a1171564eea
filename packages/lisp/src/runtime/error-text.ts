/**
 * What a thrown value says, for logs and messages. A tool may throw anything: an Error whose
 * `message` is a getter that throws, a revoked Proxy, an object whose `toString` and `toJSON`
 * throw, a string of ten megabytes. So this must never throw, and it keeps at most
 * MAX_ERROR_CHARS characters.
 */
import { headOf } from "../cut-text.js";

/** The longest text kept of what a thrown value says (the rest becomes "..."). */
export const MAX_ERROR_CHARS = 2000;

/** Said of a thrown value none of whose readings works (a revoked Proxy, say). */
const UNREADABLE = "(a value that could not be read)";

function bounded(text: string): string {
  return text.length > MAX_ERROR_CHARS ? `${headOf(text, MAX_ERROR_CHARS)}...` : text;
}

/** The thrown value's message, or its JSON, or its text: the first reading that works. */
function readText(error: unknown): string {
  if (typeof error === "string") return error;
  if (error instanceof Error) {
    const message: unknown = error.message;
    if (typeof message === "string") return message;
  }
  const json: unknown = JSON.stringify(error);
  return typeof json === "string" ? json : String(error);
}

export function errorText(error: unknown): string {
  try {
    return bounded(readText(error));
  } catch {
    // `instanceof` on a revoked Proxy, a throwing getter or toJSON, a cycle: try plain text.
  }
  try {
    return bounded(String(error));
  } catch {
    return UNREADABLE;
  }
}
