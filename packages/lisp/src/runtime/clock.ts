/**
 * The monotonic clock that deadlines, time limits and tool durations are measured with, in
 * milliseconds from an arbitrary origin (only differences mean anything).
 *
 * Node builds its `performance` global on first touch: even `typeof performance` loads perf_hooks
 * and ten internal modules, about 1 ms of every cold start (docs/benchmarks.md, "Cold start").
 * `process.hrtime` is already loaded, so where a `process` with one exists (Node, Bun, Deno) it is
 * read instead; browsers and edge runtimes, which have no `process`, read `performance.now()`,
 * and a realm with neither falls back to `Date.now()`. Both globals are looked up on each read, not
 * once at import: nothing is touched until a run starts, and tests can replace either.
 */
export function now(): number {
  const hrtime = (globalThis as { process?: { hrtime?: unknown } }).process?.hrtime;
  if (typeof hrtime === "function") {
    const [seconds, nanoseconds] = (hrtime as () => [number, number])();
    return seconds * 1000 + nanoseconds / 1e6;
  }
  return typeof performance !== "undefined" && typeof performance.now === "function"
    ? performance.now()
    : Date.now();
}
