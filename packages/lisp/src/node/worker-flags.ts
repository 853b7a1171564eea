/**
 * The Node flags an isolation worker starts with: only those of the host's that change how the
 * worker reports warnings and errors, plus --frozen-intrinsics (a hardening the host chose).
 *
 * Why not inherit them all (Node's default): Node refuses to start a worker whose execArgv holds
 * a V8 flag or a per-process flag (`node --max-old-space-size=512 app.js` could not isolate
 * anything: ERR_WORKER_INVALID_EXEC_ARGV), and those flags apply to the whole process, workers
 * included, anyway. Flags for the main script (--input-type, --eval) make a worker fail to load.
 * Loaders and preloads (--import, --require, --loader) are not needed to load the worker, which is
 * plain JavaScript, and would run the host's own startup code in every worker.
 */

const PASSED_ON = new Set([
  "--enable-source-maps",
  "--no-warnings",
  "--no-deprecation",
  "--trace-warnings",
  "--trace-deprecation",
  "--throw-deprecation",
  "--pending-deprecation",
  "--trace-uncaught",
  "--frozen-intrinsics",
]);

/** The flags of `hostFlags` (the host's `process.execArgv`) that a worker is given. */
export function workerFlags(hostFlags: readonly string[]): string[] {
  return hostFlags.filter((flag) => PASSED_ON.has(flag) || flag.startsWith("--unhandled-rejections="));
}
