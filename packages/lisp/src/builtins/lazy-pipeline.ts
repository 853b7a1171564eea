/**
 * The internal `lazy-pipeline` builtin: runs `(take n (map f (partition 2 xs)))`, `(first (filter
 * p xs))`, `(reduce + 0 (map :amount (filter p rows)))` and their kin (analyzer/pipelines.ts)
 * pulling one item at a time through the stages, so that `take 10` does the work of ten items, not
 * of the whole input, and a consumer of the whole stream gets one vector, not one per stage.
 *
 * The lazy run covers the ordinary case only: collections the stages read as their builtins do,
 * callbacks that answer at once, well-formed counts. It runs in pure mode, so a callback that
 * would have an effect stops it before acting (runtime/pure-mode.ts). Whenever it cannot go on
 * exactly (an effect, an error, a `return` or `fail`, a collection of another kind), the
 * pipeline runs again on the eager builtins, which is what the program wrote: the same values,
 * effects, errors and positions. What laziness changes is only what Clojure's laziness changes:
 * items past the last one taken are never computed, so an error one of them would have raised
 * does not happen; and the stages' vectors that a consumer never sees are not built (nor charged
 * to the memory budget). A consumer of the whole stream (reduce, count, into...) is then called
 * as written, outside pure mode, with the collected vector.
 * Limits (time, memory) are not retried: they stop the run.
 */
import { isPipelinePlan, type PipelinePlan, pullsPrefix, unboundedStream } from "../analyzer/pipelines.js";
import { isLimitError, LispError } from "../errors.js";
import { vectorBytes } from "../runtime/allocation.js";
import { after, type MaybePromise } from "../runtime/async.js";
import { type Callable, callValue } from "../runtime/call.js";
import { callSite } from "../runtime/call-site.js";
import { active } from "../runtime/context.js";
import { NOT_PURE, pureMode } from "../runtime/pure-mode.js";
import { itemsOf } from "../runtime/sequences.js";
import { type FieldReader, readerOf } from "../values/field-reader.js";
import { Keyword } from "../values/keyword.js";
import { loopEntry } from "../values/lisp-function.js";
import { LispSet } from "../values/lisp-set.js";
import { getField } from "../values/map-access.js";
import type { Regex } from "../values/regex.js";
import { SeenItems } from "../values/seen-items.js";
import { checkVectorLength, vectorPolicy, vectorTooLongError } from "../values/vector-limit.js";
import { type BuiltinDefinition, builtin } from "./definition.js";
import { callbackOf, truthy } from "./support/hof-common.js";
import { windowSlots } from "./support/partition-window.js";
import { MatchCursor, requireRegex } from "./support/str-regex.js";
import { requireString } from "./support/str-text.js";

/** What the lazy runs did, for tests that prove the lazy path ran (or fell back). */
export const lazyPipelineStats = {
  lazyRuns: 0,
  eagerFallbacks: 0,
  fieldStages: 0,
  zipStages: 0,
  /** Field stages that found their keyword's dedicated reader and called it straight. */
  stageReaders: 0,
};

/**
 * Lazy runs whose stream was collected by one loop over its source: whole (collectPushed) or its
 * first items, for take and first (pushedPrefix).
 */
export const pushedStats = { pushedRuns: 0, pushedPrefixRuns: 0, pushedWindowRuns: 0 };

/** The lazy run cannot go on exactly: run the pipeline eagerly. Never seen by a program. */
const GIVE_UP: unique symbol = Symbol("lazy pipeline gives up");

const DONE: unique symbol = Symbol("end of stream");
type Pull = () => unknown;

// ---------------------------------------------------------------- lazy stages

/**
 * The items a stage reads from a value, as its eager builtin reads them (runtime/sequences.ts,
 * itemsOf): a vector, nil, a string's characters, a map's entries, a set's members. The one
 * exception is distinct, which refuses a set (its order is not the program's to rely on).
 */
function sourceInput(value: unknown, op: string): Pull {
  if (op === "distinct" && value instanceof LispSet) throw GIVE_UP;
  const items = itemsOf(value);
  if (items === undefined) throw GIVE_UP;
  let index = 0;
  return () => {
    if (index >= items.length) return DONE;
    // One unit of work per item, so a long pull reads the clock.
    if (--active.fuel <= 0) active.refuel();
    const item = items[index++];
    return item === undefined ? null : item;
  };
}

/** The matches of a re-seq, pulled one at a time (MatchCursor charges each as re-seq does). */
function matchInput(matches: MatchCursor): Pull {
  return () => {
    const match = matches.next();
    if (match === undefined) return DONE;
    // One unit of work per match, as sourceInput counts an item of re-seq's vector.
    if (--active.fuel <= 0) active.refuel();
    return match;
  };
}

function positiveInteger(value: unknown): number {
  if (typeof value === "number" && Number.isInteger(value) && value > 0) return value;
  throw GIVE_UP;
}

function answer(result: unknown): unknown {
  // A promise means a tool call, which pure mode forbids; never expected, but never wrong.
  if (result instanceof Promise) throw GIVE_UP;
  return result === undefined ? null : result;
}

function mapStage(f: Callable, inputs: readonly Pull[]): Pull {
  if (inputs.length === 1) {
    const [input] = inputs as [Pull];
    return () => {
      const item = input();
      return item === DONE ? DONE : answer(f(item));
    };
  }
  if (inputs.length === 2) {
    // Two collections, the usual case: no array of arguments per item.
    const [left, right] = inputs as [Pull, Pull];
    return () => {
      const a = left();
      if (a === DONE) return DONE;
      const b = right();
      return b === DONE ? DONE : answer(f(a, b));
    };
  }
  return () => {
    const items: unknown[] = [];
    for (const input of inputs) {
      const item = input();
      if (item === DONE) return DONE;
      items.push(item);
    }
    return answer(f(...items));
  };
}

/**
 * Checked every this many items: whether the keyword of a field stage has its dedicated reader yet
 * (values/field-reader.ts). One more read counted towards making it, every so often, is nothing.
 */
const READER_CHECK_MASK = 255;

/** The keyword's dedicated reader, if it has one yet (counted, for the tests). */
function stageReader(keyword: Keyword): FieldReader | undefined {
  const reader = readerOf(keyword);
  if (reader !== undefined) lazyPipelineStats.stageReaders++;
  return reader;
}

/**
 * `(map :amount rows)` straight over a collection: the field read where the item is, one pull for
 * both (sourceInput then fieldStage would be two calls per item, for the same reads and work).
 * Once the keyword has its reader, the stage calls it straight, with getField for what it does
 * not answer (a program map, a missing field...): getField's own checks are skipped per item.
 */
function sourceFieldStage(keyword: Keyword, value: unknown): Pull {
  const items = itemsOf(value);
  if (items === undefined) throw GIVE_UP;
  let index = 0;
  let reader: FieldReader | undefined;
  return () => {
    if (index >= items.length) return DONE;
    if (--active.fuel <= 0) active.refuel();
    const raw = items[index++];
    const item = raw === undefined ? null : raw;
    if (reader !== undefined) return reader(item, getField);
    if ((index & READER_CHECK_MASK) === 1) reader = stageReader(keyword);
    return getField(item, keyword);
  };
}

function fieldStage(keyword: Keyword, input: Pull): Pull {
  let pulled = 0;
  let reader: FieldReader | undefined;
  return () => {
    const item = input();
    if (item === DONE) return DONE;
    if (reader !== undefined) return reader(item, getField);
    if ((++pulled & READER_CHECK_MASK) === 1) reader = stageReader(keyword);
    return getField(item, keyword);
  };
}

function selectStage(pred: Callable, input: Pull, wanted: boolean): Pull {
  return () => {
    for (;;) {
      const item = input();
      if (item === DONE) return DONE;
      if (truthy(answer(pred(item))) === wanted) return item;
    }
  };
}

function keepStage(f: Callable, input: Pull): Pull {
  return () => {
    for (;;) {
      const item = input();
      if (item === DONE) return DONE;
      const result = answer(f(item));
      if (result !== null) return result;
    }
  };
}

function mapIndexedStage(f: Callable, input: Pull): Pull {
  let index = 0;
  return () => {
    const item = input();
    return item === DONE ? DONE : answer(f(index++, item));
  };
}

/**
 * Chunks of `size` items starting every `step` items, as the eager partition makes them: full
 * chunks, then (unless `pad` is "discard") the incomplete chunk where the next one would start,
 * filled up from `pad`.
 */
function partitionStage(size: number, step: number, pad: readonly unknown[] | "discard", input: Pull): Pull {
  // One buffer for the whole stream, each chunk an exact copy of it: a chunk grown by push from an
  // empty array would get room for 17 items, several times what a pair or a triple needs. Only
  // the first slots are made up front (windowSlots): the window grows past them as items come.
  const window: unknown[] = [];
  for (let i = windowSlots(size); i > 0; i--) window.push(null);
  let filled = 0;
  let ended = false;
  let finished = false;
  return () => {
    if (finished) return DONE;
    while (filled < size && !ended) {
      const item = input();
      if (item === DONE) ended = true;
      else window[filled++] = item;
    }
    if (filled === size) {
      active.allocate(vectorBytes(size));
      // Each chunk copies up to `size` items (the next window): work the pulls above do not count.
      active.work(size);
      const chunk = chunkOf(window, size);
      if (step >= size) {
        // The next chunk starts afresh, past any skipped items.
        filled = 0;
        for (let skip = step - size; skip > 0 && !ended; skip--) if (input() === DONE) ended = true;
        return chunk;
      }
      // Overlapping chunks: the next window starts as this one's last size - step items. Moved by
      // hand: copyWithin is a call into the runtime that costs more than a short window's slice.
      filled = size - step;
      for (let i = 0; i < filled; i++) window[i] = window[i + step];
      return chunk;
    }
    finished = true;
    if (pad === "discard" || filled === 0) return DONE;
    const tail = window.slice(0, filled);
    for (let i = 0; i < pad.length && tail.length < size; i++) tail.push(pad[i]);
    active.allocate(vectorBytes(tail.length));
    return tail;
  };
}

/**
 * The first `size` items of `window` as a new vector of exactly that many slots. Pairs and
 * triples, the usual chunks, are copied by hand: slice's call costs more than the copy.
 */
function chunkOf(window: readonly unknown[], size: number): unknown[] {
  // Made as [null, null] then filled, not as [a, b]: a literal of numbers would be an array of
  // unboxed doubles (or small integers), and code reading chunks would meet one more kind of
  // array, where slice's copies of the window are all of the window's kind.
  if (size === 2) {
    const pair = [null, null] as unknown[];
    pair[0] = window[0];
    pair[1] = window[1];
    return pair;
  }
  if (size === 3) {
    const triple = [null, null, null] as unknown[];
    triple[0] = window[0];
    triple[1] = window[1];
    triple[2] = window[2];
    return triple;
  }
  return window.slice(0, size);
}

/** Items not seen before (by `=`, through their hash keys, as the eager distinct compares them). */
function distinctStage(input: Pull): Pull {
  const seen = new SeenItems();
  return () => {
    for (;;) {
      const item = input();
      if (item === DONE) return DONE;
      if (seen.add(item)) return item;
    }
  };
}

/** The first `count` items, pulling none past them. */
function takeStage(count: number, input: Pull): Pull {
  let taken = 0;
  return () => {
    if (taken >= count) return DONE;
    const item = input();
    if (item === DONE) return DONE;
    taken++;
    return item;
  };
}

/**
 * `(partition 2 (interleave xs ys))`: the pairs [x y], pulled as the two stages pull them (x, then
 * y; an x whose y is missing is pulled and dropped) and charged as partition charges its chunks,
 * without the interleaved stream between them or partition's window.
 */
function zipStage(left: Pull, right: Pull): Pull {
  let ended = false;
  return () => {
    if (ended) return DONE;
    const a = left();
    const b = a === DONE ? DONE : right();
    if (b === DONE) {
      ended = true;
      return DONE;
    }
    active.allocate(vectorBytes(2));
    active.work(2);
    // Made as [null, null] then filled, as chunkOf makes pairs (one kind of array for readers).
    const pair = [null, null] as unknown[];
    pair[0] = a;
    pair[1] = b;
    return pair;
  };
}

function interleaveStage(left: Pull, right: Pull): Pull {
  let pending: unknown = DONE;
  let ended = false;
  return () => {
    if (pending !== DONE) {
      const item = pending;
      pending = DONE;
      return item;
    }
    if (ended) return DONE;
    const a = left();
    const b = a === DONE ? DONE : right();
    if (b === DONE) {
      ended = true;
      return DONE;
    }
    pending = b;
    return a;
  };
}

/** The stream of a stage, from the call's values. */
function stream(plan: PipelinePlan, values: readonly unknown[]): Pull {
  const arg = (index: number): unknown => values[plan.args[index] as number];
  const input = (index: number): Pull => {
    const source = plan.args[index] as number | PipelinePlan;
    return typeof source === "number" ? sourceInput(values[source], plan.op) : stream(source, values);
  };
  const n = plan.args.length;
  switch (plan.op) {
    case "map": {
      const f = arg(0);
      // `(map :amount rows)`: the field read straight from the stage, as the keyword's lookup
      // function reads it (getField answers nil, never undefined or a promise).
      if (n === 2 && f instanceof Keyword) {
        lazyPipelineStats.fieldStages++;
        const source = plan.args[1] as number | PipelinePlan;
        return typeof source === "number" ? sourceFieldStage(f, values[source]) : fieldStage(f, input(1));
      }
      const inputs: Pull[] = [];
      for (let i = 1; i < n; i++) inputs.push(input(i));
      return mapStage(loopEntry(callbackOf(arg(0), n - 1, "map"), n - 1), inputs);
    }
    case "filter":
    case "remove":
      return selectStage(
        loopEntry(callbackOf(arg(0), 1, plan.op, "predicate"), 1),
        input(1),
        plan.op === "filter",
      );
    case "keep":
      return keepStage(loopEntry(callbackOf(arg(0), 1, "keep"), 1), input(1));
    case "map-indexed":
      return mapIndexedStage(callbackOf(arg(0), 2, "map-indexed"), input(1));
    case "partition":
    case "partition-all": {
      const size = positiveInteger(arg(0));
      const step = n >= 3 ? positiveInteger(arg(1)) : size;
      const source = plan.args[n - 1] as number | PipelinePlan;
      if (
        plan.op === "partition" &&
        n === 2 &&
        size === 2 &&
        typeof source === "object" &&
        source.op === "interleave"
      ) {
        lazyPipelineStats.zipStages++;
        const zipped = (index: number): Pull => {
          const from = source.args[index] as number | PipelinePlan;
          return typeof from === "number" ? sourceInput(values[from], "interleave") : stream(from, values);
        };
        return zipStage(zipped(0), zipped(1));
      }
      let pad: readonly unknown[] | "discard" = plan.op === "partition" ? "discard" : [];
      if (n === 4) {
        const given = arg(2);
        if (!Array.isArray(given)) throw GIVE_UP;
        pad = given;
      }
      return partitionStage(size, step, pad, input(n - 1));
    }
    case "interleave":
      return interleaveStage(input(0), input(1));
    case "distinct":
      return distinctStage(input(0));
    case "re-seq":
      // Pulled through a stage that is not pushed (partition, take...): each match found as it is
      // pulled, as the pushed chains find them, so that none is looked for past the last one taken.
      return matchInput(new MatchCursor(requireRegex(arg(0), "re-seq"), requireString(arg(1), "re-seq")));
    case "take": {
      const count = arg(0);
      if (typeof count !== "number" || !Number.isInteger(count)) throw GIVE_UP;
      return takeStage(count, input(1));
    }
    default:
      throw GIVE_UP;
  }
}

/** The answer of `take` or `first` over its stream. */
function consumePrefix(plan: PipelinePlan, values: readonly unknown[]): unknown {
  const source = plan.args[plan.args.length - 1] as PipelinePlan;
  switch (plan.op) {
    case "take": {
      const count = values[plan.args[0] as number];
      if (typeof count !== "number" || !Number.isInteger(count)) throw GIVE_UP;
      const pushed = pushedPrefix(source, values, count) ?? pushedWindow(source, values, count);
      if (pushed !== undefined) {
        active.allocate(vectorBytes(pushed.length));
        return pushed;
      }
      const pull = stream(source, values);
      const out: unknown[] = [];
      // A stream longer than its inputs stops at the vector cap (values/vector-limit.ts).
      const cap = unboundedStream(source) ? vectorPolicy.maxLength : Number.POSITIVE_INFINITY;
      while (out.length < count) {
        const item = pull();
        if (item === DONE) break;
        if (out.push(item) > cap) throw vectorTooLongError(out.length);
      }
      active.allocate(vectorBytes(out.length));
      return out;
    }
    case "first": {
      const pushed = pushedPrefix(source, values, 1) ?? pushedWindow(source, values, 1);
      if (pushed !== undefined) return pushed.length === 0 ? null : pushed[0];
      const item = stream(source, values)();
      return item === DONE ? null : item;
    }
    default:
      throw GIVE_UP;
  }
}

/** A stage of a pushed chain (collectPushed): what it does to each item. */
interface PushedStage {
  readonly kind: "select" | "map" | "keep";
  readonly f: Callable;
  /** select: whether filter (keep the truthy) or remove (keep the falsy). */
  readonly wanted: boolean;
}

/** The kind of pushed stage a one-collection stage op makes, or undefined for other ops. */
function pushedKind(op: string): PushedStage["kind"] | undefined {
  if (op === "filter" || op === "remove") return "select";
  if (op === "keep") return "keep";
  return op === "map" ? "map" : undefined;
}

/** `stage` (a filter, remove, keep or map of one collection) as a pushed stage of `kind`. */
function pushedStage(
  stage: PipelinePlan,
  kind: PushedStage["kind"],
  values: readonly unknown[],
): PushedStage {
  const role = kind === "select" ? "predicate" : "function";
  return {
    kind,
    f: loopEntry(callbackOf(values[stage.args[0] as number], 1, stage.op, role), 1),
    wanted: stage.op !== "remove",
  };
}

/** An item a select or keep stage dropped (throughStages). */
const SKIPPED: unique symbol = Symbol("dropped by a stage");

/** `item` through the stages (innermost first), or SKIPPED once one of them drops it. */
function throughStages(stages: readonly PushedStage[], item: unknown): unknown {
  for (const stage of stages) {
    if (stage.kind === "select") {
      if (truthy(answer(stage.f(item))) !== stage.wanted) return SKIPPED;
    } else {
      const result = answer(stage.f(item));
      if (stage.kind === "keep" && result === null) return SKIPPED;
      item = result;
    }
  }
  return item;
}

/**
 * The stream of `plan` collected with one loop over its source, when every stage is a filter,
 * remove, keep or one-collection map (`(count (filter p rows))`, `(apply max (map :amount (filter p
 * rows)))`): each item goes through the stages in turn, as the pulls would take it (the same
 * callbacks, called in the same order, the same work counted per source item), without the two
 * or three closure calls per item that pulling through the stages costs. Undefined for other plans.
 */
function collectPushed(plan: PipelinePlan, values: readonly unknown[]): unknown[] | undefined {
  const chain = pushedChain(plan, values);
  if (chain === undefined) return undefined;
  pushedStats.pushedRuns++;
  return pushChain(chain, Number.POSITIVE_INFINITY);
}

/**
 * collectPushed for `take` and `first`: the first `limit` items of the stream, the loop stopping
 * at the source item that gave the last of them, so that no callback runs on an item the pulls
 * would not have reached (`(take 3 (filter p (range)))`... over a vector; `(first (map f rows))`).
 */
function pushedPrefix(plan: PipelinePlan, values: readonly unknown[], limit: number): unknown[] | undefined {
  const chain = pushedChain(plan, values);
  if (chain === undefined) return undefined;
  pushedStats.pushedPrefixRuns++;
  return pushChain(chain, limit);
}

/**
 * A pushed chain's source: a collection's items, or the matches of `(re-seq re text)`, found as
 * the stages take them (so that a long text's matches are never all alive at once).
 */
type PushedSource =
  | { readonly items: readonly unknown[] }
  | { readonly items: undefined; readonly regex: Regex; readonly text: string };

function pushChain(chain: { stages: PushedStage[]; source: PushedSource }, limit: number): unknown[] {
  const { stages, source } = chain;
  if (source.items !== undefined) return pushStages(stages, source.items, limit);
  return pushMatches(stages, source.regex, source.text, limit);
}

/** The stages of `plan` (innermost first) and its source's items, when collectPushed applies. */
function pushedChain(
  plan: PipelinePlan,
  values: readonly unknown[],
): { stages: PushedStage[]; source: PushedSource } | undefined {
  if (!pushable(plan)) return undefined;
  const stages: PushedStage[] = [];
  // `(take 3 (re-seq re text))`: the source alone, no stage between it and the consumer.
  if (plan.op === "re-seq") return { stages, source: reSeqSource(plan, values) };
  let stage = plan;
  for (;;) {
    const kind = pushedKind(stage.op);
    if (kind === undefined || stage.args.length !== 2) return undefined;
    stages.push(pushedStage(stage, kind, values));
    const source = stage.args[1] as number | PipelinePlan;
    if (typeof source === "number") {
      const items = itemsOf(values[source]);
      if (items === undefined) throw GIVE_UP;
      // Innermost first: the order an item meets the stages.
      stages.reverse();
      return { stages, source: { items } };
    }
    if (source.op === "re-seq") {
      stages.reverse();
      return { stages, source: reSeqSource(source, values) };
    }
    stage = source;
  }
}

/** The regex and text of a re-seq source, checked as re-seq checks them, before any match is looked for. */
function reSeqSource(plan: PipelinePlan, values: readonly unknown[]): PushedSource {
  const regex = requireRegex(values[plan.args[0] as number], "re-seq");
  const text = requireString(values[plan.args[1] as number], "re-seq");
  return { items: undefined, regex, text };
}

/**
 * Whether every stage of `plan` down to its source is one pushedChain takes, checked before any
 * callback is looked up: `(take 5 (filter p (partition 3 1 xs)))` pulls, and should pay nothing
 * for having looked.
 */
function pushable(plan: PipelinePlan): boolean {
  if (plan.op === "re-seq") return true;
  for (let stage = plan; ; ) {
    if (stage.args.length !== 2) return false;
    const op = stage.op;
    if (op !== "filter" && op !== "remove" && op !== "keep" && op !== "map") return false;
    const source = stage.args[1] as number | PipelinePlan;
    if (typeof source === "number" || source.op === "re-seq") return true;
    stage = source;
  }
}

/**
 * The one loop of collectPushed and pushedPrefix: the items of the stream, up to `limit` of them
 * (infinite for a whole stream; the test of the count then never stops it, and measured as
 * nothing beside a callback per item). One stage, the commonest chain (`(filter p xs)`, `(map f
 * xs)`), is looped without a loop over the stages per item.
 */
function pushStages(stages: readonly PushedStage[], items: readonly unknown[], limit: number): unknown[] {
  const out: unknown[] = [];
  if (limit <= 0) return out;
  const n = items.length;
  if (stages.length === 1) {
    const { kind, f, wanted } = stages[0] as PushedStage;
    if (kind === "select") {
      for (let i = 0; i < n; i++) {
        if (--active.fuel <= 0) active.refuel();
        const raw = items[i];
        const item = raw === undefined ? null : raw;
        if (truthy(answer(f(item))) === wanted && out.push(item) >= limit) break;
      }
      return out;
    }
    for (let i = 0; i < n; i++) {
      if (--active.fuel <= 0) active.refuel();
      const raw = items[i];
      const result = answer(f(raw === undefined ? null : raw));
      if ((kind === "map" || result !== null) && out.push(result) >= limit) break;
    }
    return out;
  }
  for (let i = 0; i < n; i++) {
    if (--active.fuel <= 0) active.refuel();
    const raw = items[i];
    const item = throughStages(stages, raw === undefined ? null : raw);
    if (item !== SKIPPED && out.push(item) >= limit) break;
  }
  return out;
}

/**
 * pushStages over the matches of `(re-seq regex text)`: each match goes through the stages as it
 * is found (MatchCursor charges it as re-seq does), and no match is looked for past the one
 * that gave the last of `limit` items.
 */
function pushMatches(stages: readonly PushedStage[], regex: Regex, text: string, limit: number): unknown[] {
  const out: unknown[] = [];
  if (limit <= 0) return out;
  // The matches of a long text can outnumber what a vector may hold (values/vector-limit.ts):
  // the loop stops one item past the cap, and the check after it refuses that length. The test
  // against `limit` the loop makes anyway is the only one per item.
  const stop = Math.min(limit, vectorPolicy.maxLength + 1);
  const matches = new MatchCursor(regex, text);
  for (let match = matches.next(); match !== undefined; match = matches.next()) {
    if (--active.fuel <= 0) active.refuel();
    const item = throughStages(stages, match);
    if (item !== SKIPPED && out.push(item) >= stop) break;
  }
  checkVectorLength(out.length);
  return out;
}

// ---------------------------------------------------------------- pushed windows

/**
 * A collection and the pushed stages over it (innermost first), read one surviving item at a
 * time: the input of a pushed partition, or one side of a pushed zip. `(map :k coll)`, the usual
 * input, is a field read here, with the keyword's dedicated reader once it has one, as
 * sourceFieldStage reads it. Each collection item costs one unit of work, as sourceInput counts it.
 */
class PushedCursor {
  private index = 0;
  private reader: FieldReader | undefined;

  constructor(
    private readonly items: readonly unknown[],
    private readonly stages: readonly PushedStage[],
    private readonly field: Keyword | undefined,
  ) {}

  /** The next item that passes every stage, or DONE once the collection is used up. */
  next(): unknown {
    const items = this.items;
    const stages = this.stages;
    while (this.index < items.length) {
      if (--active.fuel <= 0) active.refuel();
      const raw = items[this.index++];
      const item = raw === undefined ? null : raw;
      if (this.field !== undefined) {
        if (this.reader !== undefined) return this.reader(item, getField);
        if ((this.index & READER_CHECK_MASK) === 1) this.reader = stageReader(this.field);
        return getField(item, this.field);
      }
      const passed = throughStages(stages, item);
      if (passed !== SKIPPED) return passed;
    }
    return DONE;
  }
}

/** The cursor over an input of a window: a collection, or pushable stages over one. */
function pushedCursor(source: number | PipelinePlan, values: readonly unknown[]): PushedCursor | undefined {
  if (typeof source === "number") {
    const items = itemsOf(values[source]);
    if (items === undefined) throw GIVE_UP;
    return new PushedCursor(items, [], undefined);
  }
  // `(map :amount coll)`: counted as the pulled field stage is, for the tests that look for it.
  const f = values[source.args[0] as number];
  const from = source.args[1];
  if (source.op === "map" && source.args.length === 2 && f instanceof Keyword && typeof from === "number") {
    const items = itemsOf(values[from]);
    if (items === undefined) throw GIVE_UP;
    lazyPipelineStats.fieldStages++;
    return new PushedCursor(items, [], f);
  }
  const chain = pushedChain(source, values);
  if (chain === undefined || chain.source.items === undefined) return undefined;
  return new PushedCursor(chain.source.items, chain.stages, undefined);
}

/** The one-collection stages (filter, remove, keep, map) of `plan` down to the first other one. */
function outerStages(plan: PipelinePlan): { readonly outer: PipelinePlan[]; readonly inner: PipelinePlan } {
  const outer: PipelinePlan[] = [];
  let stage = plan;
  for (;;) {
    const op = stage.op;
    const source = stage.args[1];
    if (stage.args.length !== 2 || source === undefined || typeof source === "number") break;
    if (pushedKind(op) === undefined) break;
    outer.push(stage);
    stage = source;
  }
  return { outer, inner: stage };
}

/**
 * The stream of `plan` with one loop, when it is one-collection stages (filter, remove, keep, map)
 * over `(partition n xs)` or `(partition n step xs)` with a step no longer than n, or over the
 * pairs of `(partition 2 (interleave xs ys))`, whose inputs are collections or pushable stages
 * over them (`(->> rows (map :amount) (partition 3 1) (map avg) (filter big?) (take 5))`). Each
 * input item, chunk and callback is met in the order the pulled stages meet them, and charged as
 * they charge it, but one loop replaces the four or five closures each item went through. The
 * loop stops at the item that gives the last of `limit` items. Undefined for other plans.
 */
function pushedWindow(plan: PipelinePlan, values: readonly unknown[], limit: number): unknown[] | undefined {
  const { outer, inner } = outerStages(plan);
  if (inner.op !== "partition" || inner.args.length > 3) return undefined;
  const size = positiveInteger(values[inner.args[0] as number]);
  const step = inner.args.length === 3 ? positiveInteger(values[inner.args[1] as number]) : size;
  // A step past the chunk skips items after each chunk, before the chunk reaches the stages
  // above: left to the pulls.
  if (step > size) return undefined;
  const source = inner.args[inner.args.length - 1] as number | PipelinePlan;
  const zip =
    size === 2 && inner.args.length === 2 && typeof source === "object" && source.op === "interleave";
  let left: PushedCursor | undefined;
  let right: PushedCursor | undefined;
  if (zip) {
    left = pushedCursor(source.args[0] as number | PipelinePlan, values);
    if (left === undefined) return undefined;
    right = pushedCursor(source.args[1] as number | PipelinePlan, values);
    if (right === undefined) return undefined;
  } else {
    left = pushedCursor(source, values);
    if (left === undefined) return undefined;
  }
  // The stages' callbacks, innermost first (the order a chunk meets them).
  const stages: PushedStage[] = [];
  for (let i = outer.length - 1; i >= 0; i--) {
    const stage = outer[i] as PipelinePlan;
    stages.push(pushedStage(stage, pushedKind(stage.op) as PushedStage["kind"], values));
  }
  pushedStats.pushedWindowRuns++;
  if (zip) lazyPipelineStats.zipStages++;
  const out: unknown[] = [];
  if (limit <= 0) return out;
  // A stream longer than its inputs stops at the vector cap (values/vector-limit.ts).
  const cap = unboundedStream(plan) ? vectorPolicy.maxLength : Number.POSITIVE_INFINITY;
  const window: unknown[] = [];
  for (let i = zip ? 0 : windowSlots(size); i > 0; i--) window.push(null);
  let filled = 0;
  for (;;) {
    let chunk: unknown[];
    if (zip) {
      // x, then y; an x whose y is missing is read and dropped, as zipStage pulls them.
      const a = left.next();
      if (a === DONE) break;
      const b = (right as PushedCursor).next();
      if (b === DONE) break;
      active.allocate(vectorBytes(2));
      active.work(2);
      // Made as [null, null] then filled, as chunkOf makes pairs (one kind of array for readers).
      chunk = [null, null];
      chunk[0] = a;
      chunk[1] = b;
    } else {
      const item = left.next();
      if (item === DONE) break;
      window[filled++] = item;
      if (filled < size) continue;
      active.allocate(vectorBytes(size));
      active.work(size);
      chunk = chunkOf(window, size);
      filled = size - step;
      for (let i = 0; i < filled; i++) window[i] = window[i + step];
    }
    const value = throughStages(stages, chunk);
    if (value === SKIPPED) continue;
    const length = out.push(value);
    if (length > cap) throw vectorTooLongError(length);
    if (length >= limit) break;
  }
  return out;
}

/** pushedWindow for a consumer of the whole stream, whose stream may end in `(take n ...)`. */
function pushedWholeWindow(plan: PipelinePlan, values: readonly unknown[]): unknown[] | undefined {
  if (plan.op !== "take") return pushedWindow(plan, values, Number.POSITIVE_INFINITY);
  const count = values[plan.args[0] as number];
  if (typeof count !== "number" || !Number.isInteger(count)) throw GIVE_UP;
  const source = plan.args[1];
  if (source === undefined || typeof source === "number") return undefined;
  return pushedWindow(source, values, count);
}

/** Every item of the consumer's stream, in one vector (charged as one). */
function collectAll(plan: PipelinePlan, values: readonly unknown[]): unknown[] {
  const pushed =
    collectPushed(plan.args[plan.args.length - 1] as PipelinePlan, values) ??
    pushedWholeWindow(plan.args[plan.args.length - 1] as PipelinePlan, values);
  if (pushed !== undefined) {
    active.allocate(vectorBytes(pushed.length));
    return pushed;
  }
  const pull = stream(plan.args[plan.args.length - 1] as PipelinePlan, values);
  const out: unknown[] = [];
  // A stream longer than its inputs stops at the vector cap (values/vector-limit.ts).
  const source = plan.args[plan.args.length - 1] as PipelinePlan;
  const cap = unboundedStream(source) ? vectorPolicy.maxLength : Number.POSITIVE_INFINITY;
  for (let item = pull(); item !== DONE; item = pull()) {
    if (out.push(item) > cap) throw vectorTooLongError(out.length);
  }
  active.allocate(vectorBytes(out.length));
  return out;
}

/** The consumer called as written, with the collected stream in place of its last argument. */
function consumeAll(plan: PipelinePlan, values: readonly unknown[], items: unknown[]): MaybePromise<unknown> {
  const args = plan.args.map((arg, index) =>
    index === plan.args.length - 1 ? items : values[arg as number],
  );
  callSite.current = plan.position;
  return callValue(values[plan.fn], args);
}

// ---------------------------------------------------------------- the eager way

/** The pipeline as the program wrote it: each builtin over the previous one's vector. */
function eager(plan: PipelinePlan, values: readonly unknown[]): MaybePromise<unknown> {
  const args: unknown[] = [];
  const collect = (index: number): MaybePromise<unknown> => {
    for (; index < plan.args.length; index++) {
      const source = plan.args[index] as number | PipelinePlan;
      if (typeof source === "number") {
        args.push(values[source]);
        continue;
      }
      const inner = eager(source, values);
      if (inner instanceof Promise) {
        const next = index + 1;
        return after(inner, (resolved) => {
          args.push(resolved);
          return collect(next);
        });
      }
      args.push(inner);
    }
    callSite.current = plan.position;
    return callValue(values[plan.fn], args);
  };
  return collect(0);
}

function lazyPipeline(plan: unknown, ...values: unknown[]): MaybePromise<unknown> {
  if (!isPipelinePlan(plan)) {
    throw new LispError(
      "invalid_form",
      "lazy-pipeline is internal: write (take n (map f coll)) and the like instead",
    );
  }
  const wasPure = pureMode.on;
  pureMode.on = true;
  const context = active;
  const { depth, iterations, memory, copied, loopCheckAt } = context;
  let collected: unknown[] | undefined;
  try {
    if (pullsPrefix(plan.op)) {
      const value = consumePrefix(plan, values);
      lazyPipelineStats.lazyRuns++;
      return value;
    }
    collected = collectAll(plan, values);
    lazyPipelineStats.lazyRuns++;
  } catch (error) {
    // Inside generated code an effect belongs to the enclosing unit, which runs again itself.
    if (error === NOT_PURE && wasPure) throw error;
    // Limits stop the run wherever they strike: rerunning eagerly would only hit them harder.
    if (isLimitError(error)) throw error;
    if (error instanceof RangeError) throw error;
    // Closures unwound by the throw left the depth count raised (compiler/closures.ts), and the
    // eager run below does the lazy run's work again: the meters go back to where it started.
    context.depth = depth;
    context.rewind(iterations, memory, copied, loopCheckAt);
  } finally {
    pureMode.on = wasPure;
  }
  // The consumer runs outside pure mode, as written: its own effects (a println in a reduce fn,
  // a tool call) happen once, in order, over the vector the eager stages would have made.
  if (collected !== undefined) return consumeAll(plan, values, collected);
  lazyPipelineStats.eagerFallbacks++;
  return eager(plan, values);
}

export const lazyPipelineBuiltins: BuiltinDefinition[] = [
  builtin(
    "lazy-pipeline",
    [1, Number.POSITIVE_INFINITY],
    ["[plan & values]"],
    "Runs (take n (stage ... coll)), (reduce f init (stage ... coll)) and their kin one item at a time (inserted by the analyzer).",
    "Internal",
    lazyPipeline,
  ),
];
