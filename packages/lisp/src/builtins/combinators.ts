/**
 * Function combinators: apply, comp, partial, complement, constantly, every-pred, some-fn, fnil,
 * juxt. The functions they return are branded PTC-Lisp functions (printed `#<builtin>`), accept
 * any number of arguments, and pass promises through: a composed function whose parts call tools
 * answers with a promise and still runs its parts in order.
 */
import { LispError } from "../errors.js";
import { after, type MaybePromise, settle } from "../runtime/async.js";
import { type Callable, callValue, toCallable } from "../runtime/call.js";
import { active } from "../runtime/context.js";
import {
  brandFunction,
  FUNCTION_INFO,
  type FunctionInfo,
  type LispFunction,
} from "../values/lisp-function.js";
import { LispSet } from "../values/lisp-set.js";
import { isMap, mapEntries } from "../values/map-access.js";
import { overItems } from "./arithmetic.js";
import { type BuiltinDefinition, builtin } from "./definition.js";
import { callbackOf, describeValue, drive, truthy, vectorBytes } from "./support/hof-common.js";
import { KEY_COLUMNS, type KeyColumns } from "./support/key-columns.js";

/**
 * The info record of the functions one combinator makes. Records are immutable, so every function
 * a combinator makes shares its one: `(fnil + 0)` inside a reduce over 100,000 rows makes 100,000
 * functions but no new records.
 */
function infoOf(name: string, minArity = 0, maxArity = Number.POSITIVE_INFINITY): FunctionInfo {
  return Object.freeze({ name, signature: undefined, builtin: true, minArity, maxArity });
}

const MADE = {
  identity: infoOf("identity", 1, 1),
  comp: infoOf("comp"),
  partial: infoOf("partial"),
  complement: infoOf("complement"),
  constantly: infoOf("constantly"),
  everyPred: infoOf("every-pred"),
  someFn: infoOf("some-fn"),
  fnil: infoOf("fnil"),
  juxt: infoOf("juxt"),
};

// biome-ignore lint/suspicious/noExplicitAny: combinator results take values of any type
function made<F extends (...args: any[]) => unknown>(info: FunctionInfo, fn: F): F & LispFunction {
  return brandFunction(fn, info);
}

function callableOf(value: unknown, who: string): Callable {
  return toCallable(value, `the function given to ${who}`);
}

// ---------------------------------------------------------------- apply

/**
 * Builtins whose (apply f xs) equals folding chunks of xs: used when xs is too long to spread.
 * The number is how many leading arguments every chunk's call repeats (merge-with's function).
 */
const FOLDABLE: ReadonlyMap<string, number> = new Map([
  ["+", 0],
  ["*", 0],
  ["max", 0],
  ["min", 0],
  ["str", 0],
  ["concat", 0],
  ["merge", 0],
  ["conj", 0],
  ["merge-with", 1],
  ["max-key", 1],
  ["min-key", 1],
]);
const MAX_SPREAD = 50_000;

function spreadOf(last: unknown): readonly unknown[] {
  if (Array.isArray(last)) return last;
  if (last instanceof LispSet) return last.members();
  if (last !== null && last !== undefined && typeof last === "object" && isMap(last))
    return mapEntries(last) as unknown as readonly unknown[];
  throw new LispError(
    "type_error",
    `apply expects a collection as its last argument, got ${describeValue(last)}; write (apply f [x y]) or (apply f x [y])`,
  );
}

function apply(fn: unknown, ...rest: unknown[]): unknown {
  const spread = spreadOf(rest[rest.length - 1]);
  if (rest.length === 1) {
    // (apply + xs), (apply max xs): folded over the items in place, however many there are.
    const fold = overItems(fn, spread);
    if (fold !== undefined) return fold(spread);
  }
  const args = rest.length === 1 ? spread : [...rest.slice(0, -1), ...spread];
  if (args.length > MAX_SPREAD) {
    const info = typeof fn === "function" ? (fn as Partial<LispFunction>)[FUNCTION_INFO] : undefined;
    const leading = info?.builtin === true && info.name !== undefined ? FOLDABLE.get(info.name) : undefined;
    if (leading !== undefined) {
      active.work(args.length);
      const fixed = args.slice(0, leading);
      let acc = callValue(fn, args.slice(0, leading + MAX_SPREAD));
      for (let start = leading + MAX_SPREAD; start < args.length; start += MAX_SPREAD) {
        // The charge above is one clock read: each chunk is a call over MAX_SPREAD items.
        active.work(MAX_SPREAD);
        acc = callValue(fn, [...fixed, acc, ...args.slice(start, start + MAX_SPREAD)]);
      }
      return acc;
    }
    throw new LispError(
      "runtime_error",
      `apply: ${args.length} arguments are too many to pass to one call; fold them instead, e.g. (reduce f coll)`,
    );
  }
  return callValue(fn, args);
}

// ---------------------------------------------------------------- comp, partial, complement, constantly

const identity = made(MADE.identity, (x: unknown) => x);

function composeFrom(calls: readonly Callable[], index: number, value: unknown): unknown {
  let current = value;
  for (let i = index; i >= 0; i--) {
    if (current instanceof Promise) {
      const next = i;
      return after(current, (resolved) => composeFrom(calls, next, resolved));
    }
    current = (calls[i] as Callable)(current);
  }
  return current;
}

function comp(...fns: unknown[]): unknown {
  if (fns.length === 0) return identity;
  if (fns.length === 1) return fns[0];
  const calls = fns.map((f) => callableOf(f, "comp"));
  const last = calls[calls.length - 1] as Callable;
  const start = calls.length - 2;
  return made(MADE.comp, (...args: unknown[]) => composeFrom(calls, start, last(...args)));
}

function partial(fn: unknown, ...fixed: unknown[]): unknown {
  const call = callableOf(fn, "partial");
  if (fixed.length === 0) return made(MADE.partial, (...args: unknown[]) => call(...args));
  return made(MADE.partial, (...args: unknown[]) => call(...fixed, ...args));
}

function complement(fn: unknown): unknown {
  const call = callableOf(fn, "complement");
  return made(MADE.complement, (...args: unknown[]) => after(call(...args), (result) => !truthy(result)));
}

function constantly(value: unknown): unknown {
  return made(MADE.constantly, () => value);
}

// ---------------------------------------------------------------- every-pred, some-fn

function* everyPredicate(
  preds: readonly Callable[],
  values: readonly unknown[],
): Generator<unknown, boolean, unknown> {
  for (const pred of preds) {
    for (const value of values) {
      if (!truthy(yield pred(value))) return false;
    }
  }
  return true;
}

function everyPred(...preds: unknown[]): unknown {
  const calls = preds.map((p) => callbackOf(p, 1, "every-pred", "predicate"));
  return made(MADE.everyPred, (...values: unknown[]) => drive(everyPredicate(calls, values)));
}

function* firstTruthy(
  fns: readonly Callable[],
  values: readonly unknown[],
): Generator<unknown, unknown, unknown> {
  let last: unknown = null;
  for (const fn of fns) {
    for (const value of values) {
      const result = yield fn(value);
      if (truthy(result)) return result;
      last = result ?? null;
    }
  }
  return last;
}

function someFn(...fns: unknown[]): unknown {
  const calls = fns.map((f) => callbackOf(f, 1, "some-fn"));
  return made(MADE.someFn, (...values: unknown[]) => drive(firstTruthy(calls, values)));
}

// ---------------------------------------------------------------- fnil, juxt

function fnil(fn: unknown, ...defaults: unknown[]): unknown {
  callableOf(fn, "fnil");
  const count = defaults.length;
  return made(MADE.fnil, (...args: unknown[]) => {
    const n = Math.min(count, args.length);
    for (let i = 0; i < n; i++) if (args[i] === null || args[i] === undefined) args[i] = defaults[i];
    // callValue checks a builtin's arity and spreads the arguments once.
    return callValue(fn, args);
  });
}

async function juxtRest(
  calls: readonly Callable[],
  args: readonly unknown[],
  out: unknown[],
  index: number,
  pending: Promise<unknown>,
): Promise<unknown[]> {
  out[index] = (await settle(pending)) ?? null;
  for (let i = index + 1; i < calls.length; i++) {
    let result = args.length === 1 ? (calls[i] as Callable)(args[0]) : (calls[i] as Callable)(...args);
    if (result instanceof Promise) result = await settle(result);
    out[i] = result ?? null;
  }
  return out;
}

function juxt(...fns: unknown[]): unknown {
  const unary = fns.map((f) => callbackOf(f, 1, "juxt"));
  const general = fns.map((f) => callableOf(f, "juxt"));
  const n = fns.length;
  const fn = made(MADE.juxt, (...args: unknown[]): MaybePromise<unknown[]> => {
    const calls = args.length === 1 ? unary : general;
    active.allocate(vectorBytes(n));
    const out = new Array<unknown>(n);
    for (let i = 0; i < n; i++) {
      const result = args.length === 1 ? (calls[i] as Callable)(args[0]) : (calls[i] as Callable)(...args);
      if (result instanceof Promise) return juxtRest(calls, args, out, i, result);
      out[i] = result ?? null;
    }
    return out;
  });
  // The same as a call with one argument, its values written to columns (support/key-columns.ts).
  const columns: KeyColumns = {
    width: n,
    write(item, columns, index) {
      active.allocate(vectorBytes(n));
      for (let i = 0; i < n; i++) {
        const result = (unary[i] as Callable)(item);
        if (result instanceof Promise) {
          const out = new Array<unknown>(n);
          for (let k = 0; k < i; k++) out[k] = (columns[k] as unknown[])[index];
          return juxtRest(unary, [item], out, i, result);
        }
        (columns[i] as unknown[])[index] = result ?? null;
      }
      return undefined;
    },
  };
  // A plain assignment, as brandFunction does: symbol keys stay out of Object.keys and JSON.
  (fn as unknown as Record<symbol, KeyColumns>)[KEY_COLUMNS] = columns;
  return fn;
}

// ---------------------------------------------------------------- definitions

const CATEGORY = "Functions";

export const combinatorsBuiltins: BuiltinDefinition[] = [
  builtin(
    "apply",
    [2, Infinity],
    ["[f coll]", "[f x & more]"],
    "Calls f with the given arguments followed by the items of the last one, which must be a collection.",
    CATEGORY,
    apply,
    [
      ["(apply + [1 2 3])", "6"],
      ["(apply max 1 [5 3])", "5"],
    ],
  ),
  builtin(
    "comp",
    [0, Infinity],
    ["[]", "[f]", "[f g & more]"],
    "Composes functions right to left: ((comp f g) x) is (f (g x)); the rightmost takes all the arguments.",
    CATEGORY,
    comp,
    [
      ["((comp inc inc) 1)", "3"],
      ["((comp str +) 1 2)", '"3"'],
    ],
  ),
  builtin(
    "partial",
    [1, Infinity],
    ["[f & args]"],
    "A function that calls f with args followed by its own arguments.",
    CATEGORY,
    partial,
    [["((partial + 10) 5)", "15"]],
  ),
  builtin(
    "complement",
    [1, 1],
    ["[f]"],
    "A function that returns the logical opposite of f.",
    CATEGORY,
    complement,
    [["((complement even?) 3)", "true"]],
  ),
  builtin(
    "constantly",
    [1, 1],
    ["[x]"],
    "A function that ignores its arguments and returns x.",
    CATEGORY,
    constantly,
    [["((constantly 7) 1 2)", "7"]],
  ),
  builtin(
    "every-pred",
    [1, Infinity],
    ["[p & preds]"],
    "A function that is true when every predicate holds for every argument.",
    CATEGORY,
    everyPred,
    [["((every-pred pos? even?) 4 6)", "true"]],
  ),
  builtin(
    "some-fn",
    [1, Infinity],
    ["[f & fns]"],
    "A function that returns the first truthy (f arg) over the functions and arguments, else the last falsy one.",
    CATEGORY,
    someFn,
    [['((some-fn :email :phone) {:phone "555"})', '"555"']],
  ),
  builtin(
    "fnil",
    [2, 4],
    ["[f x]", "[f x y]", "[f x y z]"],
    "A function that calls f with nil first (second, third) arguments replaced by the defaults.",
    CATEGORY,
    fnil,
    [
      ["((fnil inc 0) nil)", "1"],
      ["((fnil + 0) nil 5)", "5"],
    ],
  ),
  builtin(
    "juxt",
    [0, Infinity],
    ["[& fns]"],
    "A function that returns the vector of each function applied to its arguments.",
    CATEGORY,
    juxt,
    [['((juxt :id :name) {:id 1 :name "Ann"})', '[1 "Ann"]']],
  ),
];
