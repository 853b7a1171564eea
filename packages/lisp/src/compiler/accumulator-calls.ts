/**
 * Two calls that fold a row into a map accumulator, on the general evaluator, without the values
 * the generic call builds only for the builtin to take apart again:
 * - `(merge-with f acc {k v})`: the one-entry literal is not built; builtins/merge-with.ts
 *   (mergeWithEntry) gives the builtin's result, errors and charges, the literal's included.
 * - `(update-in acc [k1 k2 ...] f x ...)`: the path vector is charged where it would have been
 *   built, but not built; `(fnil op default)` of a binary builtin and a constant is not made again
 *   per call (making it has no effect and no charge); and when the enclosing fn only derives its
 *   accumulator with such calls (accumulator-use.ts, nestedUpdateCalls), the maps its reduce's
 *   update-in made below the owned accumulator change in place (builtins/support/nested-in-place.ts),
 *   as they do in generated code.
 * Arguments are evaluated in the order written, each once; one that waits on a tool continues the
 * same evaluation asynchronously.
 */
import type { Node } from "../analyzer/ast.js";
import { updater } from "../builtins/maps.js";
import { mergeWithEntry } from "../builtins/merge-with.js";
import { updatePath } from "../builtins/support/map-paths.js";
import { nestedMadeBelow } from "../builtins/support/nested-in-place.js";
import type { Position } from "../reader/form.js";
import { vectorBytes } from "../runtime/allocation.js";
import { after } from "../runtime/async.js";
import type { Callable } from "../runtime/call.js";
import { callSite } from "../runtime/call-site.js";
import { active } from "../runtime/context.js";
import { nestedUpdateCalls } from "./accumulator-use.js";
import type { Code } from "./code.js";
import { resume } from "./evaluation.js";
import { binaryIntrinsic } from "./intrinsics.js";

/** How often each shape ran, and the update-in calls made with an owned accumulator's set. */
export const accumulatorCallStats = { mergeEntry: 0, updateIn: 0, updateInOwned: 0 };

/** The argument lists of update-in calls whose maps below the accumulator may change in place. */
const ownedNestedCalls = new WeakSet<readonly Node[]>();

/** Notes the qualifying update-in calls of a fn before its body is compiled (compile.ts). */
export function noteNestedUpdates(fn: Extract<Node, { kind: "fn" }>): void {
  const calls = nestedUpdateCalls(fn);
  if (calls !== undefined) for (const args of calls) ownedNestedCalls.add(args);
}

/** The code of one of the two shapes above, or undefined for any other call. */
export function compileAccumulatorCall(
  node: Extract<Node, { kind: "call" }>,
  compile: (node: Node) => Code,
): Code | undefined {
  if (node.callee.kind !== "builtin") return undefined;
  const args = node.args;
  if (node.callee.name === "merge-with") {
    const entry = args[2];
    if (args.length !== 3 || entry?.kind !== "map" || entry.entries.length !== 1) return undefined;
    const [keyNode, valueNode] = entry.entries[0] as readonly [Node, Node];
    return mergeEntryCode(
      [compile(args[0] as Node), compile(args[1] as Node), compile(keyNode), compile(valueNode)],
      node.position,
    );
  }
  if (node.callee.name === "update-in") {
    const path = args[1];
    if (args.length < 3 || path?.kind !== "vector" || path.items.length < 2) return undefined;
    return updateInCode(node.args, path.items, compile, node.position);
  }
  return undefined;
}

/** Evaluates `codes` in order, then `finish` with their values (later, if one waits on a tool). */
function evaluated(codes: readonly Code[], finish: (values: unknown[]) => unknown): Code {
  const count = codes.length;
  const resumed = (values: unknown) => finish(values as unknown[]);
  return (frame) => {
    const values = new Array<unknown>(count);
    for (let i = 0; i < count; i++) {
      const value = (codes[i] as Code)(frame);
      if (value instanceof Promise) return after(resume(codes, frame, values, i, value), resumed);
      values[i] = value;
    }
    return finish(values);
  };
}

/** `(merge-with f acc {k v})`: codes of f, acc, k and v. */
function mergeEntryCode(codes: readonly Code[], position: Position): Code {
  const [fCode, accCode, keyCode, valueCode] = codes as [Code, Code, Code, Code];
  const finish = (values: unknown): unknown => {
    const list = values as unknown[];
    accumulatorCallStats.mergeEntry++;
    callSite.current = position;
    return mergeWithEntry(list[0], list[1], list[2], list[3]);
  };
  return (frame) => {
    const f = fCode(frame);
    if (f instanceof Promise) return after(resume(codes, frame, [], 0, f), finish);
    const acc = accCode(frame);
    if (acc instanceof Promise) return after(resume(codes, frame, [f], 1, acc), finish);
    const key = keyCode(frame);
    if (key instanceof Promise) return after(resume(codes, frame, [f, acc], 2, key), finish);
    const value = valueCode(frame);
    if (value instanceof Promise) return after(resume(codes, frame, [f, acc, key], 3, value), finish);
    accumulatorCallStats.mergeEntry++;
    callSite.current = position;
    return mergeWithEntry(f, acc, key, value);
  };
}

/**
 * `(update-in target [k1 ... kn] f extra...)`. The codes run in the order written: the target, the
 * keys, the path vector's charge, f (unless it is a constant fnil), the extras.
 */
function updateInCode(
  args: readonly Node[],
  keys: readonly Node[],
  compile: (node: Node) => Code,
  position: Position,
): Code {
  const n = keys.length;
  const extraCount = args.length - 3;
  const inPlace = ownedNestedCalls.has(args);
  const fixed = constantFnil(args[2] as Node, extraCount);
  // A path of constants is one shared vector, charged for nothing (compile.ts, compileVector).
  const size = keys.every((key) => key.kind === "const") ? 0 : vectorBytes(n);
  const chargePath: Code = () => {
    active.allocate(size);
    return null;
  };
  const codes: Code[] = [compile(args[0] as Node), ...keys.map(compile), chargePath];
  if (fixed === undefined) codes.push(compile(args[2] as Node));
  for (let i = 3; i < args.length; i++) codes.push(compile(args[i] as Node));
  const extraAt = fixed === undefined ? n + 3 : n + 2;
  if (fixed !== undefined && n === 2 && extraCount === 1)
    return fixedTwoKeyCode(codes, fixed, inPlace, position);
  return updateInCodeOf(codes, n, extraAt, fixed, inPlace, position);
}

/** The general form: the values of `codes` in an array, then the builtin's path walk. */
function updateInCodeOf(
  codes: readonly Code[],
  n: number,
  extraAt: number,
  fixed: Callable | undefined,
  inPlace: boolean,
  position: Position,
): Code {
  const extraCount = codes.length - extraAt;
  return evaluated(codes, (values) => {
    accumulatorCallStats.updateIn++;
    callSite.current = position;
    const fn = fixed ?? updater("update-in", values[n + 2], extraCount);
    const path = values.slice(1, n + 1);
    const extras = extraCount === 0 ? NONE : values.slice(extraAt);
    const top = values[0];
    const made = inPlace ? nestedMadeBelow(top) : undefined;
    if (made !== undefined) accumulatorCallStats.updateInOwned++;
    return updatePath("update-in", top, path, fn, null, extras, false, made);
  });
}

/**
 * `(update-in acc [k1 k2] (fnil + 0) x)`, the commonest shape, without an array per call: the
 * arguments are read one by one, and the path and the extra argument go to the walk in arrays of
 * this node, filled after every argument is evaluated (f, made once, runs no program code, so
 * nothing can enter this node again before the walk is done with them). An argument that waits
 * on a tool continues the evaluation from there.
 */
function fixedTwoKeyCode(codes: readonly Code[], fn: Callable, inPlace: boolean, position: Position): Code {
  const [topCode, firstCode, secondCode, chargeCode, extraCode] = codes as [Code, Code, Code, Code, Code];
  const path: unknown[] = [null, null];
  const extras: unknown[] = [null];
  const rest = (frame: unknown[], values: unknown[], index: number, pending: Promise<unknown>) =>
    after(resume(codes, frame, values, index, pending), (resolved) => finishGeneral(resolved as unknown[]));
  const finishGeneral = (values: unknown[]) => walk(values[0], values[1], values[2], values[4]);
  const walk = (top: unknown, first: unknown, second: unknown, extra: unknown): unknown => {
    callSite.current = position;
    const made = inPlace ? nestedMadeBelow(top) : undefined;
    accumulatorCallStats.updateIn++;
    if (made !== undefined) accumulatorCallStats.updateInOwned++;
    path[0] = first;
    path[1] = second;
    extras[0] = extra;
    const result = updatePath("update-in", top, path, fn, null, extras, false, made);
    path[0] = path[1] = extras[0] = null;
    return result;
  };
  return (frame) => {
    const top = topCode(frame);
    if (top instanceof Promise) return rest(frame, [], 0, top);
    const first = firstCode(frame);
    if (first instanceof Promise) return rest(frame, [top], 1, first);
    const second = secondCode(frame);
    if (second instanceof Promise) return rest(frame, [top, first], 2, second);
    chargeCode(frame);
    const extra = extraCode(frame);
    if (extra instanceof Promise) return rest(frame, [top, first, second, null], 4, extra);
    return walk(top, first, second, extra);
  };
}

const NONE: readonly unknown[] = [];

/**
 * `(fnil op default)` with op a binary builtin (`+`, `-`, `*`...) and a constant default, applied
 * to one extra argument: the function fnil would make, made once. fnil's function replaces a nil
 * first argument by the default and calls op with both; the two-argument form gives op's result.
 */
function constantFnil(f: Node, extraCount: number): Callable | undefined {
  if (extraCount !== 1 || f.kind !== "call" || f.callee.kind !== "builtin" || f.callee.name !== "fnil")
    return undefined;
  const [op, fallback] = f.args;
  if (f.args.length !== 2 || op?.kind !== "builtin" || fallback?.kind !== "const") return undefined;
  const binary = binaryIntrinsic(op.name);
  if (binary === undefined) return undefined;
  const value = fallback.value;
  return ((old: unknown, x: unknown) =>
    binary(old === null || old === undefined ? value : old, x)) as Callable;
}
