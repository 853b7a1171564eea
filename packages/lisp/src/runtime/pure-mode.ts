/**
 * Pure mode: while generated fast code runs (compiler/codegen.ts), nothing with a side effect may
 * happen, so that the code can be abandoned at any point and run again by the general evaluator.
 * Every side-effecting entry point (closures of the general evaluator, tool calls, println)
 * checks the flag and throws NOT_PURE instead of acting; the outermost fast entry catches it and
 * re-runs its whole unit the general way. Since nothing observable happened, re-running is exact.
 */
export const pureMode: { on: boolean } = { on: false };

/** Thrown (never returned) to leave fast code; not an error a program can see. */
export const NOT_PURE: unique symbol = Symbol("not pure");

/** Called by side-effecting entry points. */
export function assertEffectsAllowed(): void {
  if (pureMode.on) throw NOT_PURE;
}
