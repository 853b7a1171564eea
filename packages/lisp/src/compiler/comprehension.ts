/**
 * `for` and `doseq` on the general evaluator: nested iteration over binding clauses with :let,
 * :when and :while. Every element visited, at every level, is a step of work that reads the clock
 * when due, whether the body runs for it or a :when filters it out: a product of collections whose
 * elements are all filtered out is as long as one that keeps them. Elements are not iterations:
 * only `recur` counts against maxIterations (docs/sandbox.md, "Iterations", says why).
 */
import type { ForClause, Node, Pattern } from "../analyzer/ast.js";
import { LispError } from "../errors.js";
import { print } from "../format/print.js";
import { VECTOR_BYTES, VECTOR_SLOT_BYTES, vectorBytes } from "../runtime/allocation.js";
import { after } from "../runtime/async.js";
import { active } from "../runtime/context.js";
import { typeName } from "../runtime/describe.js";
import { itemsOf } from "../runtime/sequences.js";
import { vectorPolicy, vectorTooLongError } from "../values/vector-limit.js";
import { type Code, isTruthy } from "./code.js";
import type { Binder } from "./destructure.js";
import { resume } from "./evaluation.js";
import { promotionPolicy } from "./promotion.js";

export function compileComprehension(
  compile: (node: Node) => Code,
  binder: (pattern: Pattern) => Binder,

  clauseNodes: readonly ForClause[],
  bodyNode: Node,
  collect: boolean,
  /**
   * Adaptive tier: generated code for this `for` with its first collection read from a slot past
   * the end of the frame (resume-nodes.ts). Used when that collection is large.
   */
  promoteLarge?: (itemsSlot: number) => Code | undefined,
): Code {
  type Step =
    | {
        kind: "bind";
        init: Code;
        bind: Binder;
        /** The frame slot of a plain name (`o` in `[o rows]`), else -1: written without the binder. */
        slot: number;
        name: string;
        position: { line: number; column: number };
        /** The two items of a vector written in the clause (`x [a b]`) bound to a plain name. */
        pair: readonly [Code, Code] | undefined;
      }
    | { kind: "when" | "while"; test: Code }
    | { kind: "let"; inits: Code[]; binders: Binder[] };
  const steps: Step[] = clauseNodes.map((clause) => {
    switch (clause.kind) {
      case "bind": {
        const pattern = clause.pattern as Pattern;
        const init = clause.init as Node;
        // A vector of two constants is one shared array, made and charged never (compileVector),
        // so only a pair with something to evaluate goes item by item.
        const pair =
          pattern.kind === "bind" &&
          init.kind === "vector" &&
          init.items.length === 2 &&
          !init.items.every((item) => item.kind === "const")
            ? ([compile(init.items[0] as Node), compile(init.items[1] as Node)] as const)
            : undefined;
        return {
          kind: "bind",
          init: compile(init),
          pair,
          bind: binder(pattern),
          slot: pattern.kind === "bind" ? pattern.slot : -1,
          name: pattern.kind === "bind" ? pattern.name : "pattern",
          position: clause.position,
        };
      }
      case "let":
        return {
          kind: "let",
          inits: (clause.bindings ?? []).map((binding) => compile(binding.init)),
          binders: (clause.bindings ?? []).map((binding) => binder(binding.pattern)),
        };
      default:
        return { kind: clause.kind, test: compile(clause.test as Node) };
    }
  });
  const body = compile(bodyNode);

  // The generated version (null: the generator has none), made the first time it pays.
  let large: Code | null | undefined;
  const runLarge = (frame: unknown[], items: readonly unknown[]): unknown => {
    if (large === undefined)
      large = (promoteLarge as (slot: number) => Code | undefined)(frame.length) ?? null;
    if (large === null) return undefined;
    const extended = frame.slice();
    extended.push(items);
    return large(extended);
  };
  /** Set when the whole `for` ran as generated code: its value. */
  let promoted: { value: unknown } | undefined;

  // The clauses become a chain of closures, innermost (the body) first: each runs its clause for
  // the current bindings and calls the next. Nothing is allocated per element unless a clause
  // waits on a tool; then that clause goes on through `after`.
  //
  // Each value is charged as it is pushed, and the vector's header in `finish`: the same total as
  // one charge at the end, but a product of collections (`[a v b v]` over 100,000 items, whose
  // body costs nothing) otherwise grew past the memory budget, and past V8's largest array, which
  // aborts the process, before its only charge. The budget alone does not keep it short of that
  // largest array once a host raises the budget, so the push is refused past the vector cap too.
  let next: Rest = (frame, out) => {
    const value = body(frame);
    if (value instanceof Promise) {
      return after(value, (resolved) => {
        if (collect) {
          active.allocate(VECTOR_SLOT_BYTES);
          if (out.length >= vectorPolicy.maxLength) throw vectorTooLongError(out.length + 1);
          out.push(resolved);
        }
        return undefined;
      });
    }
    if (collect) {
      active.allocate(VECTOR_SLOT_BYTES);
      if (out.length >= vectorPolicy.maxLength) throw vectorTooLongError(out.length + 1);
      out.push(value);
    }
    return undefined;
  };
  for (let index = steps.length - 1; index >= 0; index--) {
    const step = steps[index] as Step;
    const before = steps[index - 1];
    if (step.kind === "when" && before?.kind === "bind") {
      // A binding followed by a :when (`[o rows :when (p o)]`) tests each element in the
      // binding's own loop: no closure between them.
      index--;
      next = bindCode(before, step.test, next, index === 0 && promoteLarge !== undefined);
      continue;
    }
    next = clauseCode(step, next, index === 0 && promoteLarge !== undefined);
  }
  const first = next;

  function clauseCode(step: Step, rest: Rest, mayPromote: boolean): Rest {
    switch (step.kind) {
      // A falsy :when skips this element; a falsy :while stops the clause's binding.
      case "when":
        return guarded(step.test, rest, undefined);
      case "while":
        return guarded(step.test, rest, STOP);
      case "let": {
        const { inits, binders } = step;
        const bindFrom = (frame: unknown[], out: unknown[], start: number): unknown => {
          for (let i = start; i < inits.length; i++) {
            const value = (inits[i] as Code)(frame);
            if (value instanceof Promise) {
              return after(value, (resolved) => {
                (binders[i] as Binder)(frame, resolved);
                return bindFrom(frame, out, i + 1);
              });
            }
            (binders[i] as Binder)(frame, value);
          }
          return rest(frame, out);
        };
        return (frame, out) => bindFrom(frame, out, 0);
      }
      case "bind":
        return bindCode(step, undefined, rest, mayPromote);
    }
  }

  /**
   * A binding clause: `rest` for each element of its collection, when `test` (a :when right after
   * the binding, folded in) holds for it.
   */
  function bindCode(
    step: Extract<Step, { kind: "bind" }>,
    test: Code | undefined,
    rest: Rest,
    mayPromote: boolean,
  ): Rest {
    const { init, bind, slot, name, position } = step;
    /** What element i's `rest` answered, taken on from there: undefined, STOP or a promise. */
    const proceed = (
      frame: unknown[],
      out: unknown[],
      items: readonly unknown[],
      i: number,
      result: unknown,
    ): unknown => {
      if (result instanceof Promise) {
        return after(result, (resolved) => (resolved === STOP ? undefined : each(frame, out, items, i + 1)));
      }
      return result === STOP ? undefined : each(frame, out, items, i + 1);
    };
    const each = (frame: unknown[], out: unknown[], items: readonly unknown[], start: number): unknown => {
      const context = active;
      for (let i = start; i < items.length; i++) {
        // A step of work per element visited (see the top of this file).
        if (--context.fuel <= 0) context.refuel();
        if (slot >= 0) {
          const item = items[i];
          frame[slot] = item === undefined ? null : item;
        } else bind(frame, items[i]);
        if (test !== undefined) {
          const passed = test(frame);
          if (passed instanceof Promise) {
            return after(passed, (resolved) =>
              isTruthy(resolved)
                ? proceed(frame, out, items, i, rest(frame, out))
                : each(frame, out, items, i + 1),
            );
          }
          // A falsy :when skips this element.
          if (passed === null || passed === false || passed === undefined) continue;
        }
        const result = rest(frame, out);
        if (result === undefined) continue;
        return proceed(frame, out, items, i, result);
      }
      return undefined;
    };
    const over = (frame: unknown[], out: unknown[], collection: unknown): unknown => {
      const items = itemsOf(collection);
      if (items === undefined) {
        throw new LispError(
          "type_error",
          `for binding '${name}' expected a collection, got: ${print(collection, { maxChars: 60 })} (${typeName(collection)})`,
          position,
        );
      }
      if (mayPromote && items.length >= promotionPolicy.threshold) {
        const value = runLarge(frame, items);
        if (value !== undefined) {
          promoted = { value };
          return undefined;
        }
      }
      return each(frame, out, items, 0);
    };
    if (step.pair !== undefined && !mayPromote) {
      return literalPair(step.pair, slot, test, rest, each, proceed, (frame, out, items) =>
        over(frame, out, items),
      );
    }
    return (frame, out) => {
      const collection = init(frame);
      if (collection instanceof Promise) return after(collection, (resolved) => over(frame, out, resolved));
      return over(frame, out, collection);
    };
  }

  const finish = (out: unknown[]): unknown => {
    if (promoted !== undefined) {
      const { value } = promoted;
      promoted = undefined;
      return value;
    }
    if (!collect) return null;
    // The slots were charged as they were pushed (see `next`).
    active.allocate(VECTOR_BYTES);
    return out;
  };
  return (frame) => {
    const out: unknown[] = [];
    const result = first(frame, out);
    if (result instanceof Promise) return after(result, () => finish(out));
    return finish(out);
  };
}

/** Binding clauses that went over a vector written in the clause without making it (tests read it). */
export const comprehensionStats = { literalPairs: 0 };

/**
 * `x [(:amount o) (* 10 (:quantity o))]`: a binding over a two-item vector written in the clause,
 * run for each item without making the vector, once per element of the enclosing binding. Both
 * items are evaluated first, as the vector's would be, and the vector's bytes are charged all the
 * same, so limits and the order of effects are those of the general path. Anything out of the
 * ordinary (an item or a test that waits on a tool, a :while that stops, a body that waits) goes on
 * with the vector made then, through the general path's own `each` and `proceed`.
 */
function literalPair(
  [first, second]: readonly [Code, Code],
  slot: number,
  test: Code | undefined,
  rest: Rest,
  each: (frame: unknown[], out: unknown[], items: readonly unknown[], start: number) => unknown,
  proceed: (
    frame: unknown[],
    out: unknown[],
    items: readonly unknown[],
    i: number,
    result: unknown,
  ) => unknown,
  over: (frame: unknown[], out: unknown[], items: unknown[]) => unknown,
): Rest {
  comprehensionStats.literalPairs++;
  const codes = [first, second];
  const size = vectorBytes(2);
  const made = (frame: unknown[], out: unknown[], values: unknown): unknown => {
    active.allocate(size);
    return over(frame, out, values as unknown[]);
  };
  /** Element i of [v0 v1]: undefined to go on, STOP to end the binding, else a promise to return. */
  const visit = (frame: unknown[], out: unknown[], v0: unknown, v1: unknown, i: number): unknown => {
    const context = active;
    if (--context.fuel <= 0) context.refuel();
    const item = i === 0 ? v0 : v1;
    frame[slot] = item === undefined ? null : item;
    if (test !== undefined) {
      const passed = test(frame);
      if (passed instanceof Promise) {
        const items = [v0, v1];
        return after(passed, (resolved) =>
          isTruthy(resolved)
            ? proceed(frame, out, items, i, rest(frame, out))
            : each(frame, out, items, i + 1),
        );
      }
      if (passed === null || passed === false || passed === undefined) return undefined;
    }
    const result = rest(frame, out);
    if (result === undefined || result === STOP) return result;
    return proceed(frame, out, [v0, v1], i, result);
  };
  return (frame, out) => {
    const v0 = first(frame);
    if (v0 instanceof Promise)
      return after(resume(codes, frame, [], 0, v0), (values) => made(frame, out, values));
    const v1 = second(frame);
    if (v1 instanceof Promise)
      return after(resume(codes, frame, [v0], 1, v1), (values) => made(frame, out, values));
    active.allocate(size);
    // STOP (a :while further in turned false) ends this binding, as in the general path; a
    // promise from element 0 goes on through element 1 itself.
    const done = visit(frame, out, v0, v1, 0);
    if (done !== undefined) return done === STOP ? undefined : done;
    const last = visit(frame, out, v0, v1, 1);
    return last === STOP ? undefined : last;
  };
}

/** Runs the clauses from one onward for the current bindings: undefined, STOP or a promise. */
type Rest = (frame: unknown[], out: unknown[]) => unknown;

/** What a failed :while returns: the enclosing binding stops iterating. */
const STOP = Symbol("stop");

/** Runs `rest` when `test` holds for the frame, else answers `otherwise`. */
function guarded(test: Code, rest: Rest, otherwise: typeof STOP | undefined): Rest {
  return (frame, out) => {
    const value = test(frame);
    if (value instanceof Promise)
      return after(value, (resolved) => (isTruthy(resolved) ? rest(frame, out) : otherwise));
    return value !== null && value !== false && value !== undefined ? rest(frame, out) : otherwise;
  };
}
