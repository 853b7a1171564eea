/**
 * V8's refusals of a value too large to represent, as run.ts's last net sees them. Every builder
 * of text, vectors and integers refuses sizes past its limit before V8 does (values/text-limit.ts,
 * values/vector-limit.ts, runtime/big-integers.ts), but a refusal that still comes through is the
 * program's doing, not a bug here, and ends the run as memory_exceeded.
 *
 * Maps and sets have no cap of their own: a JS Map or Set refuses a 2^24th entry with "Map
 * maximum size exceeded" (or Set), which a program reaches once a host raises the memory budget
 * past about 700 MB (40 bytes an entry).
 */

/** The RangeError messages V8 gives for a string, array, integer, map or set too large. */
const TOO_LARGE = /string length|array length|BigInt|(Map|Set) maximum size/i;

/** Whether `thrown` is V8 refusing a value too large to represent. */
export function isTooLargeError(thrown: unknown): boolean {
  try {
    return thrown instanceof RangeError && TOO_LARGE.test(thrown.message);
  } catch {
    // Host code may throw anything, a revoked Proxy included, on which instanceof throws.
    return false;
  }
}
