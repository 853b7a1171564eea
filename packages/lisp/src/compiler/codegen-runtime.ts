/**
 * What generated code may use: the only names in scope of a generated function are this object
 * (`$`) and its constants (`K`). Nothing else of the host is reachable from generated code, and
 * generated code contains no text taken from a program (see codegen.ts).
 */

import { Groups, ownedMapCopy, ownedVectorCopy } from "../builtins/aggregation.js";
import { overItems } from "../builtins/arithmetic.js";
import {
  assocCharged,
  assocFresh,
  assocNested,
  selectedPairs,
  selectKeywords,
  updateFound,
  updateInBelowOwned,
  updateSlot,
  updateTarget,
} from "../builtins/maps.js";
import { mergeWithEntry, mergeWithPairs } from "../builtins/merge-with.js";
import { mapOfFlatPairs } from "../builtins/support/into-map.js";
import { nestedAt, nestedLeaf, nestedStore } from "../builtins/support/nested-steady-state.js";
import { windowSlots } from "../builtins/support/partition-window.js";
import { MatchCursor, requireRegex } from "../builtins/support/str-regex.js";
import { requireString } from "../builtins/support/str-text.js";
import { isLimitError, isLispError, LispError } from "../errors.js";
import { print } from "../format/print.js";
import { quotedName } from "../quoted-text.js";
import type { Position } from "../reader/form.js";
import { chargeVector, mapBytes, setBytes, VECTOR_BYTES, vectorBytes } from "../runtime/allocation.js";
import { callValue, toCallable } from "../runtime/call.js";
import { callSite } from "../runtime/call-site.js";
import { active, loopLimitError, type RunContext } from "../runtime/context.js";
import { typeName } from "../runtime/describe.js";
import { add, divide, multiply, subtract } from "../runtime/numeric.js";
import { ownedVector } from "../runtime/owned-vector.js";
import { NOT_PURE, pureMode } from "../runtime/pure-mode.js";
import { itemsOf } from "../runtime/sequences.js";
import { FailSignal, ReturnSignal } from "../runtime/signals.js";
import { cellOf, type VarSpec } from "../runtime/var-cell.js";
import { equals } from "../values/equality.js";
import { hashKey } from "../values/hash-key.js";
import type { Keyword } from "../values/keyword.js";
import {
  brandFunction,
  FUNCTION_INFO,
  type FunctionInfo,
  GENERATED_TWIN,
  type LispFunction,
  rememberCaptures,
} from "../values/lisp-function.js";
import { LispMap, MapBuilder } from "../values/lisp-map.js";
import { LispSet } from "../values/lisp-set.js";
import { type AnyMap, getField, isMap, lookup } from "../values/map-access.js";
import { makeFloat, WholeFloat } from "../values/numbers.js";
import { ownedTable } from "../values/owned-table.js";
import { detachAccumulator } from "../values/pin.js";
import { SeenItems } from "../values/seen-items.js";
import { vectorPolicy, vectorTooLongError } from "../values/vector-limit.js";
import { restToMap } from "./closures.js";
import { sequentialItems } from "./destructure.js";
import { fastTierStats } from "./fast-tier.js";
import { order } from "./intrinsics.js";
import { RESUME_AGAIN } from "./resume-nodes.js";

/** What a generated function that captured nothing records (lisp-function.ts, rememberCaptures). */
const NO_CAPTURES: readonly unknown[] = [];

/** How to rebuild a generated function on the general evaluator, for a deoptimization. */
export interface SlowFunctionSpec {
  /** The general evaluator's closure maker for the same fn node. */
  readonly make: (outer: unknown[]) => LispFunction;
  /** Outer slot of each captured value, in the order generated code passes them. */
  readonly outerSlots: readonly number[];
}

/** A stage's items from a value that is not a vector, as its builtin reads them (itemsOf). */
function stageItems(value: unknown, sets: boolean): readonly unknown[] {
  const items = sets || !(value instanceof LispSet) ? itemsOf(value) : undefined;
  if (items === undefined) throw new LispError("type_error", "not a collection a stage reads");
  return items;
}

/**
 * The items of a vector with no undefined among them (a host's array may have holes, or undefined
 * items): a copy with nil in their place, else the vector itself. Generated loops read items as
 * they are: a test per item for undefined would cost them a fifth of their time (V8 merges the
 * item with null, and loses what it knew of the item's type).
 */
function definedItems(items: readonly unknown[]): readonly unknown[] {
  if (!items.includes(undefined)) return items;
  return Array.from(items, (item) => (item === undefined ? null : item));
}

export const codegenRuntime = {
  ctx: (): RunContext => active,
  site: callSite,
  P: pureMode,
  NOT_PURE,
  AGAIN: RESUME_AGAIN,
  INFO: FUNCTION_INFO,
  TWIN: GENERATED_TWIN,
  stats: fastTierStats,
  add,
  subtract,
  multiply,
  divide,
  lt: (a: unknown, b: unknown): boolean => order(a, b) < 0,
  gt: (a: unknown, b: unknown): boolean => order(a, b) > 0,
  le: (a: unknown, b: unknown): boolean => order(a, b) <= 0,
  ge: (a: unknown, b: unknown): boolean => order(a, b) >= 0,
  eq: equals,
  hash: hashKey,
  WholeFloat,
  makeFloat,
  seen: (): SeenItems => new SeenItems(),

  /** `(:k x)` when the inline fast path found nothing: flexible lookup, nil for non-maps. */
  field: (value: unknown, keyword: Keyword): unknown => getField(value, keyword),

  call1(fn: unknown, a: unknown): unknown {
    if (typeof fn === "function" && (fn as Partial<LispFunction>)[FUNCTION_INFO]?.builtin === false)
      return fn(a);
    return callValue(fn, [a]);
  },
  call2(fn: unknown, a: unknown, b: unknown): unknown {
    if (typeof fn === "function" && (fn as Partial<LispFunction>)[FUNCTION_INFO]?.builtin === false)
      return fn(a, b);
    return callValue(fn, [a, b]);
  },
  callN: (fn: unknown, args: unknown[]): unknown => callValue(fn, args),

  readVar(spec: VarSpec): unknown {
    const branch = active.branchDefs;
    if (branch?.has(spec.name)) return branch.get(spec.name);
    const cell = cellOf(spec, active.namespace);
    if (!cell.bound) {
      if (spec.soft) return null;
      throw new LispError(
        "unbound_var",
        `Undefined variable: ${spec.name}. It is not defined yet when this code runs: define it with (def ${spec.name} ...) before using it`,
        spec.position,
      );
    }
    return cell.value;
  },

  data(context: RunContext, key: string): unknown {
    const found = lookup(context.data, key);
    return found === undefined ? null : found;
  },
  history: (context: RunContext, index: number): unknown => context.history[index] ?? null,
  budget: (context: RunContext): unknown => context.budget ?? LispMap.empty(),

  vec(items: unknown[]): unknown[] {
    active.allocate(vectorBytes(items.length));
    return items;
  },
  /** A vector whose slots were charged as it grew (a `for`'s, codegen-for.ts): its header. */
  grownVec(items: unknown[]): unknown[] {
    active.allocate(VECTOR_BYTES);
    return items;
  },
  map(flat: unknown[]): LispMap {
    active.allocate(mapBytes(flat.length / 2));
    // One entry ({(:status o) (:amount o)} per row): no builder.
    if (flat.length === 2) return LispMap.single(flat[0], flat[1]);
    const builder = new MapBuilder();
    for (let i = 0; i < flat.length; i += 2) if (!builder.has(flat[i])) builder.set(flat[i], flat[i + 1]);
    return builder.build();
  },
  /** A map literal whose keys are distinct keywords, at most FLAT_LIMIT of them (codegen.ts). */
  keywordMap(pairs: unknown[]): LispMap {
    active.allocate(mapBytes(pairs.length / 2));
    for (let i = 1; i < pairs.length; i += 2) if (pairs[i] === undefined) pairs[i] = null;
    return LispMap.small(pairs);
  },
  set(items: unknown[]): LispSet {
    active.allocate(setBytes(items.length));
    return LispSet.from(items);
  },

  // Builtin calls of a literal shape (specialized-calls.ts).
  mergeWithEntry,
  mergeWithPairs,
  /** The groups of an inlined group-by (codegen-loops.ts). */
  groups: (): Groups => new Groups(),
  /** The charge of a one-entry map literal (a fused map stage builds none, specialized-calls.ts). */
  chargeSingleMap(): void {
    active.allocate(mapBytes(1));
  },
  selectKeywords,
  selectedPairs,
  updateTarget,
  updateSlot,
  updateFound,
  assocCharged,
  assocFresh,
  assocNested,
  nestedLeaf,
  nestedStore,
  updateInBelowOwned,
  nestedAt,
  /** `(apply f coll)` with f a builtin: + max min folded in place, a short vector as fixed arguments, else apply itself. */
  applyBuiltin(fn: LispFunction, coll: unknown, apply: LispFunction): unknown {
    if (!Array.isArray(coll)) return apply(fn, coll);
    // + max min: folded over the vector itself (what apply does for them too).
    const fold = overItems(fn, coll);
    if (fold !== undefined) return fold(coll);
    if (coll.length <= 3) {
      const info = fn[FUNCTION_INFO];
      const n = coll.length;
      if (n >= info.minArity && n <= info.maxArity) {
        if (n === 3) return fn(coll[0], coll[1], coll[2]);
        if (n === 2) return fn(coll[0], coll[1]);
        if (n === 1) return fn(coll[0]);
        return fn();
      }
    }
    return apply(fn, coll);
  },

  seqItems: sequentialItems,
  rest: (items: readonly unknown[], from: number): unknown[] =>
    items.length > from ? items.slice(from) : [],
  mapCheck(value: unknown, position: Position): void {
    if (value === null || value === undefined || isMap(value)) return;
    throw new LispError(
      "destructure_error",
      `cannot destructure ${typeName(value)} ${print(value, { maxChars: 60 })} with a map pattern; map patterns need a map (or nil)`,
      position,
    );
  },
  lookup(value: unknown, key: unknown): unknown {
    return value === null || value === undefined ? undefined : lookup(value as never, key);
  },
  restMap: restToMap,

  /**
   * The items of a collection argument of an inlined map/filter/reduce (codegen-loops.ts). Anything else
   * is an error, which reruns the unit on the general evaluator: the real builtin then reports it.
   */
  collection(value: unknown): readonly unknown[] {
    if (Array.isArray(value)) return definedItems(value);
    const items = itemsOf(value);
    if (items === undefined) throw new LispError("type_error", "not a collection");
    return items;
  },
  detach: detachAccumulator,
  /**
   * For a reduce whose fn only derives its accumulator: the ownership token the accumulator's kind
   * uses (a vector's or a map's), or null when it is neither (then nothing is owned).
   */
  ownerToken(acc: unknown): { current: unknown } | null {
    if (Array.isArray(acc)) return ownedVector;
    if (acc !== null && typeof acc === "object" && isMap(acc)) return ownedTable;
    return null;
  },
  /** The copy of a reduce's initial vector or map that the reduce owns (as the builtin makes it). */
  ownedCopy(acc: unknown[] | AnyMap): unknown {
    return Array.isArray(acc) ? ownedVectorCopy(acc) : ownedMapCopy(acc as AnyMap);
  },

  // Fused lazy pipelines (codegen-loops.ts): the happy path only; anything else raises an error, and
  // the unit runs again on the general evaluator, where the lazy-pipeline builtin handles it.
  /** A stage's items as its builtin reads them (itemsOf); distinct refuses a set (`sets` false). */
  stageSource(value: unknown, sets: boolean): readonly unknown[] {
    if (Array.isArray(value)) return definedItems(value);
    return stageItems(value, sets);
  },
  /** stageSource for a pipeline that stops early: a vector as it is (no scan of it). */
  lazySource(value: unknown, sets: boolean): readonly unknown[] {
    if (Array.isArray(value)) return value;
    return stageItems(value, sets);
  },
  positive(value: unknown): number {
    if (typeof value === "number" && Number.isInteger(value) && value > 0) return value;
    throw new LispError("type_error", "not a positive integer");
  },
  /** Slots a partition window starts with (lazy-pipeline.ts says why not always its size). */
  windowSlots,
  notFused: (): LispError => new LispError("type_error", "not a count"),
  /** A stage's callback value as a JS function (its errors rerun the unit, as above). */
  callback: (value: unknown): ((...args: unknown[]) => unknown) => toCallable(value),
  answer(result: unknown): unknown {
    if (result instanceof Promise) throw new LispError("type_error", "a callback waited");
    return result === undefined ? null : result;
  },
  /** The matches of a pipeline's `(re-seq re text)`, found one at a time as the loop asks. */
  matchCursor(regex: unknown, text: unknown): MatchCursor {
    return new MatchCursor(requireRegex(regex, "re-seq"), requireString(text, "re-seq"));
  },
  chargeVector,
  /** The vector cap, and its error (values/vector-limit.ts), for the fused pipelines' loops. */
  vectorPolicy,
  vectorTooLong: vectorTooLongError,
  mapOfFlatPairs,

  items(collection: unknown, position: Position, name: string): readonly unknown[] {
    const items = itemsOf(collection);
    if (items === undefined) {
      throw new LispError(
        "type_error",
        `for binding '${name}' expected a collection, got: ${print(collection, { maxChars: 60 })} (${typeName(collection)})`,
        position,
      );
    }
    return items;
  },

  arity(info: FunctionInfo & { position: Position }, count: number): LispError {
    const expected = info.maxArity === Number.POSITIVE_INFINITY ? `${info.minArity}+` : `${info.minArity}`;
    return new LispError(
      "arity_error",
      `${quotedName(info.name ?? "fn")} expects ${expected} argument(s), got ${count}`,
      info.position,
    );
  },
  /**
   * The cold half of a generated function's entry check (codegen-functions.ts), which tests depth
   * and fuel in one condition: past the depth limit, the recursion error; otherwise the fuel ran
   * out, and the clock is read.
   */
  gate(context: RunContext, position: Position): void {
    context.entryCheck(position);
  },
  fn: <F extends (...args: never[]) => unknown>(
    impl: F,
    info: FunctionInfo,
    captured?: readonly unknown[],
  ): F => rememberCaptures(brandFunction(impl as never, info) as F, captured ?? NO_CAPTURES),

  /**
   * Whether an exception from fast code means "run this again on the general evaluator": an
   * effect was reached (NOT_PURE), or an error needs the exact position only that evaluator
   * records. Limits, signals and host failures propagate as they are.
   */
  rerun(error: unknown): boolean {
    if (error === NOT_PURE) {
      fastTierStats.effectFallbacks++;
      return true;
    }
    // A limit is the same wherever it strikes: no point running again to locate it.
    if (isLispError(error) && !isLimitError(error)) {
      fastTierStats.errorReruns++;
      return true;
    }
    return false;
  },

  /** Runs a call again on the general evaluator after the fast version hit an effect. */
  deopt(spec: SlowFunctionSpec, captured: readonly unknown[], args: ArrayLike<unknown>): unknown {
    const outer: unknown[] = [];
    spec.outerSlots.forEach((slot, index) => {
      outer[slot] = captured[index];
    });
    return spec.make(outer)(...Array.from(args));
  },

  ret(value: unknown): ReturnSignal {
    if (active.branchDefs !== undefined) {
      return new LispError(
        "pmap_error",
        "return called inside pmap/pcalls: return the value from the branch function instead",
      ) as never;
    }
    return new ReturnSignal(value);
  },
  fail: (value: unknown): FailSignal => new FailSignal(value),
  /** A generated loop's step passed the context's loopCheckAt (see RunContext.loopCheck). */
  loopCheck(context: RunContext, position: Position): void {
    if (!context.loopCheck()) throw loopLimitError(context.limits.maxIterations).at(position);
  },
};

export type CodegenRuntime = typeof codegenRuntime;
