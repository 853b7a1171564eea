/**
 * Helpers for tests: run a program and get its printed value, or its error; see what the
 * analyzer and the code generator make of a program. Test files only;
 * never exported from the package.
 */
import { analyzeProgram } from "./analyzer/analyze.js";
import type { Node } from "./analyzer/ast.js";
import { registry } from "./builtins/index.js";
import { generateUnitSource } from "./compiler/codegen-units.js";
import { format } from "./format/format.js";
import { read } from "./reader/reader.js";
import { type RunError, type RunOptions, run } from "./run.js";
import { Keyword } from "./values/keyword.js";

/**
 * Whether this process lets code be generated from strings: false under `node
 * --disallow-code-generation-from-strings`, the CI leg that runs the suites as an edge runtime or a
 * strict-CSP page would. Tests that prove generated code runs are skipped where it cannot, and
 * no-eval.test.ts proves the opposite there. Probed by the test code itself, not through the
 * package, so that the package's own probe stays observable.
 */
export const codeGenerationWorks: boolean = (() => {
  try {
    return new Function("return 1")() === 1;
  } catch {
    return false;
  }
})();

/** Runs a program and returns its value printed as Clojure text; throws if the program fails. */
export async function evaluate(source: string, options?: RunOptions): Promise<string> {
  const result = await run(source, options);
  if (!result.ok)
    throw new Error(`program failed: ${result.error.reason}: ${result.error.message}\n  ${source}`);
  return format(result.value);
}

/** Runs a program that must fail and returns its error. */
export async function failure(source: string, options?: RunOptions): Promise<RunError> {
  const result = await run(source, options);
  if (result.ok) throw new Error(`expected a failure, got ${format(result.value)}\n  ${source}`);
  return result.error;
}

/** The analyzed body of a program with no session names and no tools. */
export function analyzedBody(source: string): Node {
  return analyzeProgram(read(source), {
    isBuiltin: (name) => registry.has(name),
    userNames: new Set(),
    toolNames: new Set(),
  }).body;
}

/** The fn form a program is made of (a test's error when the program is something else). */
export function analyzedFn(source: string): Extract<Node, { kind: "fn" }> {
  const body = analyzedBody(source);
  if (body.kind !== "fn") throw new Error(`not a fn: ${source}`);
  return body;
}

/** The JavaScript the fast tier generates for a program (see compiler/codegen.ts). */
export function generatedSource(source: string): string {
  return generateUnitSource(analyzedBody(source), (name) => registry.get(name));
}

/**
 * Runs `body` with a clock that moves only when it is read, one millisecond per read: a run's
 * deadline then passes after `timeoutMs` reads of the clock, however fast or loaded the machine.
 * Tests of "this work reads the clock as it goes" use it instead of measuring wall time. Under
 * Node the runtime's clock reads `process.hrtime` (runtime/clock.ts), so that is what ticks.
 */
export async function withTickingClock<T>(body: () => Promise<T>): Promise<T> {
  const real = process.hrtime;
  let milliseconds = 0;
  const ticking = (): [number, number] => {
    milliseconds += 1;
    const seconds = Math.floor(milliseconds / 1000);
    return [seconds, (milliseconds - seconds * 1000) * 1e6];
  };
  process.hrtime = Object.assign(ticking, { bigint: real.bigint }) as typeof process.hrtime;
  try {
    return await body();
  } finally {
    process.hrtime = real;
  }
}

/**
 * Runs `body` with the named keywords hot on the general evaluator: each gets a pooled field reader
 * (values/field-reader.ts) that counts its calls and reads as the pool's readers do, so a test can
 * prove that a builtin or binder read through the keyword's own reader, whatever the keyword's
 * history in this process. The keywords' readers are put back afterwards.
 */
export async function withCountedReaders<T>(
  names: readonly string[],
  body: (calls: Record<string, number>) => Promise<T>,
): Promise<T> {
  type Reader = (item: unknown, fallback: (item: unknown, keyword: Keyword) => unknown) => unknown;
  type Hot = { pooled: Reader | undefined | null };
  const calls: Record<string, number> = {};
  const saved = names.map((name) => {
    const keyword = Keyword.of(name);
    const hot = keyword as unknown as Hot;
    const before = hot.pooled;
    calls[name] = 0;
    hot.pooled = (item, fallback) => {
      calls[name] = (calls[name] ?? 0) + 1;
      if (typeof item === "object" && item !== null && item.constructor === Object) {
        if (Object.getPrototypeOf(item) === Object.prototype) {
          const found = (item as Record<string, unknown>)[name];
          if (found !== undefined) return found;
        }
      }
      return fallback(item, keyword);
    };
    return () => {
      hot.pooled = before;
    };
  });
  try {
    return await body(calls);
  } finally {
    for (const restore of saved) restore();
  }
}
