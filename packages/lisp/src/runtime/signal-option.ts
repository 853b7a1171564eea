/** The `signal` option of run and runIsolated, checked once for both. */
import { LispError } from "../errors.js";

/** The signal, checked to look like an AbortSignal (any realm's, or a polyfill). */
export function checkSignal(signal: unknown): AbortSignal | undefined {
  if (signal === undefined) return undefined;
  const candidate = signal as Partial<AbortSignal> | null;
  if (
    typeof candidate !== "object" ||
    candidate === null ||
    typeof candidate.aborted !== "boolean" ||
    typeof candidate.addEventListener !== "function" ||
    typeof candidate.removeEventListener !== "function"
  ) {
    throw new LispError(
      "invalid_options",
      "signal must be an AbortSignal (e.g. new AbortController().signal)",
    );
  }
  return signal as AbortSignal;
}
