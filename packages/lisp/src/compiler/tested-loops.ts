/**
 * `(loop [i 0 acc 0] (if (< i n) (recur (inc i) (+ acc i)) acc))`, the shape of nearly every
 * loop: a body that is an `if` whose one branch is the `recur` of this loop. The general loop
 * calls its body, the body calls its test and then the recur node, and the recur node calls its
 * arguments: every iteration makes two calls (body, recur) that only pass control along, at call
 * sites every loop of every program shares, so V8 never inlines them. Here the loop itself runs
 * the test, evaluates the recur arguments and assigns them, so an iteration calls only the test
 * and the arguments.
 *
 * The order of everything observable is the general loop's: the test, then the arguments left to
 * right (an argument that waits on a tool holds the rest), then all slots assigned, then the
 * iteration counted at the loop's position; the other branch runs as it would in the `if`, recur
 * included. Only a test known to answer a boolean (a comparison, the and/or of comparisons) is
 * taken: any other test might answer a promise.
 *
 * The test stays a call of its node: comparing a simple comparison in the loop itself (holds, as
 * the and/or of two comparisons does) measured 15-25% slower on the bench's loop/recur than the
 * call, which V8 inlines there (the comparison node's literal holds its operator and constant as
 * constants of its closure, where holds reads them from a record).
 */
import type { Node, RecurTarget } from "../analyzer/ast.js";
import type { Position } from "../reader/form.js";
import { after } from "../runtime/async.js";
import { RECUR } from "../runtime/signals.js";
import type { Code } from "./code.js";
import { iterateAt, resume } from "./evaluation.js";

/** Loops that run their test and recur in the loop itself, when compiled (the tests read it). */
export const testedLoopStats = { loops: 0 };

type LoopNode = Extract<Node, { kind: "loop" }>;

/** The parts of a loop body `(if test (recur ...) exit)` or `(if test exit (recur ...))`. */
export interface TestedLoopShape {
  readonly test: Node;
  readonly recurArgs: readonly Node[];
  readonly exit: Node;
  /** Whether the loop recurs when the test is true (recur in the consequent). */
  readonly recurWhen: boolean;
}

/**
 * The shape of `node`'s body when it is an `if` with a recur of this very loop as one branch, with
 * one argument per binding (a recur with the wrong count keeps its own node and its error).
 */
export function testedLoopShape(node: LoopNode): TestedLoopShape | undefined {
  const body = node.body;
  if (body.kind !== "if") return undefined;
  const ownRecur = (branch: Node): branch is Extract<Node, { kind: "recur" }> =>
    branch.kind === "recur" &&
    branch.target === node.target &&
    branch.args.length === node.target.rawSlots.length;
  if (ownRecur(body.consequent))
    return { test: body.test, recurArgs: body.consequent.args, exit: body.alternative, recurWhen: true };
  if (ownRecur(body.alternative))
    return { test: body.test, recurArgs: body.alternative.args, exit: body.consequent, recurWhen: false };
  return undefined;
}

/**
 * The iteration of a tested loop (what the general loop's `iterate` is), for a test known to answer
 * a boolean (answersBoolean). The frame's raw slots hold the bindings on entry.
 */
export function compileTestedLoop(
  target: RecurTarget,
  test: Code,
  args: readonly Code[],
  exit: Code,
  recurWhen: boolean,
  position: Position,
): Code {
  testedLoopStats.loops++;
  const slots = target.rawSlots;
  const count = args.length;

  /** The rest of the loop after the exit branch answered (RECUR: it recurred itself). */
  const afterExit = (frame: unknown[], result: unknown): unknown => {
    if (result instanceof Promise) {
      return after(result, (resolved) => {
        if (resolved !== RECUR) return resolved;
        iterateAt(position);
        return iterate(frame);
      });
    }
    if (result !== RECUR) return result;
    iterateAt(position);
    return iterate(frame);
  };
  /** After recur argument `index` turned out to be a promise: the rest once it resolves. */
  const resumeRecur = (frame: unknown[], values: unknown[], index: number, pending: Promise<unknown>) =>
    after(resume(args, frame, values, index, pending), (all) => {
      for (let j = 0; j < count; j++) frame[slots[j] as number] = (all as unknown[])[j];
      iterateAt(position);
      return iterate(frame);
    });

  const a0 = args[0] as Code;
  const a1 = args[1] as Code;
  const iterate = (frame: unknown[]): unknown => {
    // Arguments are kept in locals for one and two bindings, in an array beyond (an argument may
    // read a slot another assigns, so all are evaluated before any is assigned).
    for (;;) {
      if ((test(frame) as boolean) !== recurWhen) {
        const result = exit(frame);
        if (result === RECUR) {
          iterateAt(position);
          continue;
        }
        return afterExit(frame, result);
      }
      if (count === 1) {
        const v0 = a0(frame);
        if (v0 instanceof Promise) return resumeRecur(frame, [], 0, v0);
        frame[slots[0] as number] = v0;
      } else if (count === 2) {
        const v0 = a0(frame);
        if (v0 instanceof Promise) return resumeRecur(frame, [], 0, v0);
        const v1 = a1(frame);
        if (v1 instanceof Promise) return resumeRecur(frame, [v0], 1, v1);
        frame[slots[0] as number] = v0;
        frame[slots[1] as number] = v1;
      } else {
        const values = new Array<unknown>(count);
        for (let i = 0; i < count; i++) {
          const value = (args[i] as Code)(frame);
          if (value instanceof Promise) return resumeRecur(frame, values, i, value);
          values[i] = value;
        }
        for (let i = 0; i < count; i++) frame[slots[i] as number] = values[i];
      }
      iterateAt(position);
    }
  };
  return iterate;
}
