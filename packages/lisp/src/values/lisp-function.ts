/**
 * Functions as values. Both closures and builtins are plain JS functions carrying a branded
 * info record. The brand is how the evaluator tells a PTC-Lisp function from any other JS function
 * that might reach a program inside host data: only branded functions can ever be called.
 */
export const FUNCTION_INFO: unique symbol = Symbol("ptc-lisp.function");

/**
 * On a closure of the general evaluator whose fn form the adaptive tier promoted: the generated
 * function it hands its calls to (compiler/closures.ts). Generated code that finds its own
 * function here calls its body directly (a self-recursive `defn` called through its var).
 */
export const GENERATED_TWIN: unique symbol = Symbol("ptc-lisp.generated-twin");

/**
 * On a closure of the general evaluator that is not promoted: its light entry, which a builtin
 * looping over a collection calls in place of the closure (compiler/closures.ts). It reuses one
 * frame across the loop's calls; a call made while one is in progress (recursion, a callback
 * calling its own closure) or with another argument count goes to the closure itself.
 */
export const LIGHT_ENTRY: unique symbol = Symbol("ptc-lisp.light-entry");

/**
 * On a closure that captured values from where it was made (a `let`, an outer fn's parameters):
 * those values, in an array. A closure is a JS function, whose scope no one can look into, so
 * what it keeps alive would otherwise be invisible to a host that measures what a program left
 * behind (an agent's `memoryLimit` over its defs: values/captured-values.ts).
 */
export const CAPTURED_VALUES: unique symbol = Symbol("ptc-lisp.captured-values");

/** Records on `fn` the values it captured (nothing when it captured none). */
export function rememberCaptures<F>(fn: F, captured: readonly unknown[]): F {
  if (captured.length > 0) (fn as unknown as Record<symbol, readonly unknown[]>)[CAPTURED_VALUES] = captured;
  return fn;
}

/** A closure that may carry a light entry. */
// biome-ignore lint/suspicious/noExplicitAny: see LispFunction
export type LightCarrier = { [LIGHT_ENTRY]?: (...args: any[]) => unknown };

/**
 * What a builtin's loop calls for callback `f` with `count` arguments every time: its light entry
 * when it has one taking exactly that many, else `f`. The light entry does not check its argument
 * count (the closure does), so a closure of another arity keeps its own entry and its arity error.
 * Only for a loop that lets nothing else hold the answer.
 */
export function loopEntry<F>(f: F, count: number): F {
  if (typeof f !== "function") return f;
  const light = (f as LightCarrier)[LIGHT_ENTRY];
  if (light === undefined || light.length !== count) return f;
  lightEntryStats.handedOut++;
  return light as F;
}

/** How often builtins' loops got a light entry, and how many frames light entries made (tests read it). */
export const lightEntryStats = { handedOut: 0, frames: 0 };

export interface FunctionInfo {
  /** `defn`/named `fn` name, or the builtin's name. */
  readonly name: string | undefined;
  /** Parameter text of a closure, printed as `#fn[x y]`; undefined for builtins. */
  readonly signature: string | undefined;
  readonly builtin: boolean;
  readonly minArity: number;
  readonly maxArity: number;
  /**
   * A closure whose first parameter is only ever conj'ed onto or returned (compiler/
   * accumulator-use.ts): `reduce` may let `conj` append to its accumulator in place.
   */
  readonly ownedAccumulator?: boolean;
}

// biome-ignore lint/suspicious/noExplicitAny: functions of any arity are stored here
export type LispFunction = ((...args: any[]) => unknown) & { readonly [FUNCTION_INFO]: FunctionInfo };

export function isLispFunction(value: unknown): value is LispFunction {
  return typeof value === "function" && (value as Partial<LispFunction>)[FUNCTION_INFO] !== undefined;
}

// biome-ignore lint/suspicious/noExplicitAny: see LispFunction
export function brandFunction<F extends (...args: any[]) => unknown>(
  fn: F,
  info: FunctionInfo,
): F & LispFunction {
  // A plain assignment: defineProperty costs ~15x more, and functions are branded in hot loops.
  // Symbol keys are invisible to Object.keys and JSON anyway.
  (fn as unknown as Record<symbol, FunctionInfo>)[FUNCTION_INFO] = info;
  return fn as F & LispFunction;
}

export function functionInfo(fn: LispFunction): FunctionInfo {
  return fn[FUNCTION_INFO];
}
