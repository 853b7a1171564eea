/**
 * Closures of the general evaluator. A closure copies the values it captures when it is created
 * (locals never change, so this is exact), gets a fresh frame per call, counts recursion depth and
 * fuel, loops on `recur`, and refuses to run in pure mode (it might have effects; pure-mode.ts).
 */
import type { Node } from "../analyzer/ast.js";
import { LispError } from "../errors.js";
import { quotedName } from "../quoted-text.js";
import { after } from "../runtime/async.js";
import { active } from "../runtime/context.js";
import { assertEffectsAllowed } from "../runtime/pure-mode.js";
import { RECUR } from "../runtime/signals.js";
import {
  brandFunction,
  type FunctionInfo,
  GENERATED_TWIN,
  LIGHT_ENTRY,
  type LightCarrier,
  type LispFunction,
  lightEntryStats,
  rememberCaptures,
} from "../values/lisp-function.js";
import { MapBuilder } from "../values/lisp-map.js";
import { isMap } from "../values/map-access.js";
import { ownedAccumulator } from "./accumulator-use.js";
import type { Code } from "./code.js";
import { iterateAt } from "./evaluation.js";
import { promotionPolicy } from "./promotion.js";

/** Makes generated code for a fn node (the adaptive tier), or undefined when there is none. */
export type Promote = () => Code | undefined;

/**
 * What a closure tells about itself (FunctionInfo). Only `reduce` asks whether the accumulator is
 * owned, and most fns are never reduced with: the walk of the body waits for the question. The
 * getter lives on the class, not in an object literal: a literal with an accessor takes V8's slow
 * path on every fn form compiled (about 0.6 us each, and a dictionary-mode object to collect).
 * The data a function is transferred as still carries ownedAccumulator (values/transfer.ts, infoData).
 */
type FnNode = Extract<Node, { kind: "fn" }>;

class ClosureInfo implements FunctionInfo {
  // Declared in the order the fields are listed when a function is transferred (infoData).
  readonly name: string | undefined;
  readonly signature: string | undefined;
  readonly builtin = false;
  readonly minArity: number;
  readonly maxArity: number;
  // Private fields, so that Object.entries (infoData) sees only what FunctionInfo names.
  readonly #node: FnNode;
  #owned: boolean | undefined;

  constructor(node: FnNode, minArity: number, maxArity: number) {
    this.name = node.name;
    this.signature = node.signature;
    this.minArity = minArity;
    this.maxArity = maxArity;
    this.#node = node;
  }

  get ownedAccumulator(): boolean {
    this.#owned ??= ownedAccumulator(this.#node);
    return this.#owned;
  }
}

/**
 * A fn node as a maker of closures: given the frame where the fn expression is evaluated, a
 * branded JS function with fixed-arity entry points (0, 1, 2 parameters) and a general one.
 * Whoever catches an exception and carries on (the fallbacks of generated code and of lazy
 * pipelines) restores the depth count, which a closure leaves raised when something is thrown.
 *
 * With `promote` (a pure fn under the adaptive tier), the fn form counts how much its closures run;
 * past the threshold (promotion.ts) it gets generated code once, and from then on each closure
 * hands its calls to a generated twin made from the same captured values. The twin checks arity,
 * depth and fuel itself, and falls back to the general evaluator on an effect, as any generated
 * function does.
 */
export function compileClosure(
  node: Extract<Node, { kind: "fn" }>,
  body: Code,
  promote?: Promote,
  /**
   * The fn form has no effect of its own (purity.ts), so its closures may run in pure mode: an
   * effect they reach through a call stops at that callee's own check. Others refuse pure mode.
   */
  pure = false,
): Code {
  // Destructuring parameters need nothing here, on entry or on recur: the analyzer wraps the body
  // in a `let` that binds them from their raw slots.
  const captures = node.captures;
  const frameSize = node.frameSize;
  const selfSlot = node.selfSlot;
  const raw = node.target.rawSlots;
  const fixed = node.params.length;
  const variadic = node.rest !== undefined;
  const restAsMap = node.restAsMap;
  const info = new ClosureInfo(node, fixed, variadic ? Number.POSITIVE_INFINITY : fixed);
  const position = node.position;
  const label = quotedName(node.name ?? "fn");

  const arityError = (count: number): LispError =>
    new LispError(
      "arity_error",
      `${label} expects ${variadic ? `${fixed}+` : fixed} argument(s), got ${count}`,
      position,
    );

  // Adaptive tier: how much the closures of this form ran, and their generated maker once hot
  // (null: promotion was tried and the generator had no code for it).
  let heat = 0;
  let maker: Code | null | undefined;
  const promoted = (env: readonly unknown[]): LispFunction | undefined => {
    if (maker === undefined) {
      if (++heat <= promotionPolicy.threshold) return undefined;
      maker = (promote as Promote)() ?? null;
    }
    if (maker === null) return undefined;
    const outer: unknown[] = [];
    for (let i = 0; i < captures.length; i++) outer[(captures[i] as { outer: number }).outer] = env[i];
    return maker(outer) as LispFunction;
  };

  /** The generated twin of `closure` once its fn form is hot, also left on the closure itself. */
  const adopt = (closure: LispFunction, env: readonly unknown[]): LispFunction | undefined => {
    const made = promoted(env);
    if (made !== undefined) (closure as unknown as Record<symbol, LispFunction>)[GENERATED_TWIN] = made;
    return made;
  };

  /** Runs the body with the frame filled, looping on recur, counting depth. */
  const enter = (frame: unknown[]): unknown => {
    // Pure mode (generated code, a lazy pipeline) may not run this closure if it could have
    // effects. See pure-mode.ts.
    if (!pure) assertEffectsAllowed();
    const context = active;
    // One test on the way in; its rare halves out of line (past the depth limit the fuel is
    // not spent, as the error ends the call anyway).
    if (++context.depth > context.limits.maxDepth || --context.fuel <= 0) context.entryCheck(position);
    let result: unknown;
    for (;;) {
      result = body(frame);
      if (result !== RECUR) break;
      iterateAt(position);
      if (promote !== undefined && maker === undefined) heat++;
    }
    context.depth--;
    return result instanceof Promise ? finish(frame, result) : result;
  };

  /** A body that waits on a promise: the rest of the call once it resolves, recur included. */
  const finish = (frame: unknown[], pending: Promise<unknown>): unknown =>
    after(pending, function resume(resolved): unknown {
      if (resolved !== RECUR) return resolved;
      iterateAt(position);
      return after(body(frame), resume);
    });

  return (outer) => {
    const env = new Array<unknown>(captures.length);
    for (let i = 0; i < captures.length; i++) env[i] = outer[(captures[i] as { outer: number }).outer];
    // The frame of this closure's last call that returned a value, kept for its next call. Only a
    // call that has returned gives its frame back (a call in progress, a recursive one included,
    // holds its own; one that threw or is waiting on a promise never gives it back), and nothing
    // keeps a frame past its call but a promise's continuation: closures made in the body copy
    // what they capture. Slots other than parameters, captures and self are written before they
    // are read, so a frame needs no clearing.
    let spare: unknown[] | undefined;
    // Frames given back while `spare` was taken: a recursive closure's calls return while their
    // caller still holds its own frame, so one spare would leave every first call below a caller
    // to make a new frame (half the calls of fib). At most FRAME_POOL_LIMIT are kept, and only
    // once some call has given back a second frame.
    let pool: unknown[][] | undefined;
    const giveBack = (frame: unknown[]): void => {
      if (spare === undefined) spare = frame;
      else if (pool === undefined) pool = [frame];
      else if (pool.length < FRAME_POOL_LIMIT) pool.push(frame);
    };
    const fresh = (): unknown[] => {
      const frame = new Array<unknown>(frameSize);
      for (let i = 0; i < captures.length; i++) frame[(captures[i] as { inner: number }).inner] = env[i];
      if (selfSlot !== undefined) frame[selfSlot] = closure;
      return frame;
    };
    const prepare = (): unknown[] => {
      const reused = spare;
      if (reused === undefined) {
        if (pool !== undefined && pool.length > 0) {
          frameStats.pooled++;
          return pool.pop() as unknown[];
        }
        return fresh();
      }
      spare = undefined;
      return reused;
    };
    let closure: LispFunction;
    // The generated twin of this closure, once its fn form is hot (adaptive tier only). It is also
    // left on the closure, where the twin's own calls through a var or a local find it.
    let twin: LispFunction | undefined;
    if (!variadic && fixed === 0) {
      closure = brandFunction(function zero(this: unknown): unknown {
        // biome-ignore lint/complexity/noArguments: the only way to see extra arguments without a rest array
        if (arguments.length !== 0) throw arityError(arguments.length);
        if (promote !== undefined) {
          twin ??= adopt(closure, env);
          if (twin !== undefined) return twin();
        }
        const frame = prepare();
        const result = enter(frame);
        if (!(result instanceof Promise)) giveBack(frame);
        return result;
      }, info);
    } else if (!variadic && fixed === 1) {
      const r0 = raw[0] as number;
      closure = brandFunction(function one(this: unknown, a: unknown): unknown {
        // biome-ignore lint/complexity/noArguments: the only way to see extra arguments without a rest array
        if (arguments.length !== 1) throw arityError(arguments.length);
        if (promote !== undefined) {
          twin ??= adopt(closure, env);
          if (twin !== undefined) return twin(a);
        }
        const frame = prepare();
        frame[r0] = a === undefined ? null : a;
        const result = enter(frame);
        if (!(result instanceof Promise)) giveBack(frame);
        return result;
      }, info);
      // The light entry (values/lisp-function.ts, LIGHT_ENTRY), for a builtin's loop, which calls
      // it with the right argument count. It runs every call of the loop in one frame of its own;
      // a call while one is in progress (recursion, a callback that calls its own closure) goes
      // to the closure. It checks effects, depth and fuel as enter does, inline (a call of enter
      // measured about 6% more instructions on `destructuring reduce`). A call that throws leaves
      // it busy, so later calls take the closure's entry. Not for a promoted fn, whose calls go
      // to its generated twin.
      if (promote === undefined) {
        let busy = false;
        let own: unknown[] | undefined;
        (closure as LightCarrier)[LIGHT_ENTRY] = function lightOne(a: unknown): unknown {
          if (busy) return closure(a);
          if (!pure) assertEffectsAllowed();
          const context = active;
          if (++context.depth > context.limits.maxDepth || --context.fuel <= 0) context.entryCheck(position);
          busy = true;
          if (own === undefined) {
            own = fresh();
            lightEntryStats.frames++;
          }
          const frame = own;
          frame[r0] = a === undefined ? null : a;
          let result = body(frame);
          while (result === RECUR) {
            iterateAt(position);
            result = body(frame);
          }
          context.depth--;
          busy = false;
          if (!(result instanceof Promise)) return result;
          // The call goes on after the promise, in this frame: the next call gets a new one.
          own = undefined;
          return finish(frame, result);
        };
      }
    } else if (!variadic && fixed === 2) {
      const r0 = raw[0] as number;
      const r1 = raw[1] as number;
      closure = brandFunction(function two(this: unknown, a: unknown, b: unknown): unknown {
        // biome-ignore lint/complexity/noArguments: the only way to see extra arguments without a rest array
        if (arguments.length !== 2) throw arityError(arguments.length);
        if (promote !== undefined) {
          twin ??= adopt(closure, env);
          if (twin !== undefined) return twin(a, b);
        }
        const frame = prepare();
        frame[r0] = a === undefined ? null : a;
        frame[r1] = b === undefined ? null : b;
        const result = enter(frame);
        if (!(result instanceof Promise)) giveBack(frame);
        return result;
      }, info);
      // The light entry, as for one argument.
      if (promote === undefined) {
        let busy = false;
        let own: unknown[] | undefined;
        (closure as LightCarrier)[LIGHT_ENTRY] = function lightTwo(a: unknown, b: unknown): unknown {
          if (busy) return closure(a, b);
          if (!pure) assertEffectsAllowed();
          const context = active;
          if (++context.depth > context.limits.maxDepth || --context.fuel <= 0) context.entryCheck(position);
          busy = true;
          if (own === undefined) {
            own = fresh();
            lightEntryStats.frames++;
          }
          const frame = own;
          frame[r0] = a === undefined ? null : a;
          frame[r1] = b === undefined ? null : b;
          let result = body(frame);
          while (result === RECUR) {
            iterateAt(position);
            result = body(frame);
          }
          context.depth--;
          busy = false;
          if (!(result instanceof Promise)) return result;
          // The call goes on after the promise, in this frame: the next call gets a new one.
          own = undefined;
          return finish(frame, result);
        };
      }
    } else {
      closure = brandFunction(function many(this: unknown, ...args: unknown[]): unknown {
        if (variadic ? args.length < fixed : args.length !== fixed) throw arityError(args.length);
        if (promote !== undefined) {
          twin ??= adopt(closure, env);
          if (twin !== undefined) return twin(...args);
        }
        const frame = prepare();
        for (let i = 0; i < fixed; i++) frame[raw[i] as number] = args[i] ?? null;
        if (variadic) {
          const rest = args.length > fixed ? args.slice(fixed) : [];
          frame[raw[fixed] as number] = restAsMap ? restToMap(rest, position) : rest;
        }
        const result = enter(frame);
        if (!(result instanceof Promise)) giveBack(frame);
        return result;
      }, info);
    }
    return rememberCaptures(closure, env);
  };
}

/** The most frames a closure keeps for its recursive calls (see giveBack in compileClosure). */
const FRAME_POOL_LIMIT = 64;

/** Calls that took a frame from a closure's pool instead of making one (the tests read it). */
export const frameStats = { pooled: 0 };

/** `[& {:keys [a]}]`: rest arguments read as alternating keys and values. */
export function restToMap(rest: readonly unknown[], position: { line: number; column: number }): unknown {
  if (rest.length === 0) return null;
  if (rest.length === 1 && isMap(rest[0])) return rest[0];
  if (rest.length % 2 !== 0) {
    throw new LispError(
      "destructure_error",
      `keyword arguments must come in pairs, got an odd count (${rest.length})`,
      position,
    );
  }
  const builder = new MapBuilder();
  for (let i = 0; i < rest.length; i += 2) builder.set(rest[i], rest[i + 1]);
  return builder.build();
}
