/**
 * `if` (and `when`, which the analyzer makes an `if` with a nil else) and `and`/`or` on the general
 * evaluator, with the shortcuts that answer in the node what would otherwise be a call of a child:
 * a test that is a comparison answered with its branches (number-shortcuts.ts, branchShortcut), a
 * test known to answer a boolean tested as one, a constant else answered in place, and the
 * `and`/`or` of two boolean tests kept boolean. Every other test waits on a promise if it gets one.
 */
import type { Node } from "../analyzer/ast.js";
import { after } from "../runtime/async.js";
import { type Code, isTruthy } from "./code.js";
import {
  answersBoolean,
  branchShortcut,
  holds,
  markBoolean,
  shortcutStats,
  simpleComparison,
} from "./number-shortcuts.js";

/** `(if test yes no)` from its compiled parts; `elseNode` tells whether the else is a constant. */
export function compileIf(test: Code, yes: Code, no: Code, elseNode: Node): Code {
  const branch = branchShortcut(test, yes, no);
  if (branch !== undefined) {
    shortcutStats.branches++;
    return branch;
  }
  if (answersBoolean(test)) {
    // `(if (< i n) ...)`: the comparison answers true or false, never a promise.
    shortcutStats.booleanTests++;
    if (elseNode.kind === "const") {
      // `(when (and ...) x)`, `#(when (p %) (:id %))`: the else is a constant (nil), answered
      // here rather than by a call of its node, for every item a filter-like test turns down.
      shortcutStats.constantElse++;
      const otherwise = elseNode.value;
      return (frame) => (test(frame) ? yes(frame) : otherwise);
    }
    return (frame) => (test(frame) ? yes(frame) : no(frame));
  }
  if (elseNode.kind === "const") {
    shortcutStats.constantElse++;
    const otherwise = elseNode.value;
    return (frame) => {
      const value = test(frame);
      if (value instanceof Promise)
        return after(value, (resolved) => (isTruthy(resolved) ? yes(frame) : otherwise));
      return value !== null && value !== false && value !== undefined ? yes(frame) : otherwise;
    };
  }
  return (frame) => {
    const value = test(frame);
    if (value instanceof Promise)
      return after(value, (resolved) => (isTruthy(resolved) ? yes(frame) : no(frame)));
    return value !== null && value !== false && value !== undefined ? yes(frame) : no(frame);
  };
}

/** `(and ...)` when `isAnd`, else `(or ...)`: the first falsy (truthy) item's value, or the last. */
export function compileAndOr(items: readonly Code[], isAnd: boolean): Code {
  if (items.length === 2) {
    // `(and a b)` / `(or a b)`, the common shape: no loop, no index bookkeeping.
    const [first, second] = items as [Code, Code];
    const left = simpleComparison(first);
    const right = simpleComparison(second);
    if (left !== undefined && right !== undefined) {
      // `(and (= (:status o) "paid") (> (:amount o) 500))`: both compared in this node (holds),
      // not by a call of each comparison's node. Boolean, as below.
      shortcutStats.comparedLogic++;
      return markBoolean(
        isAnd
          ? (frame) => holds(left, frame) && holds(right, frame)
          : (frame) => holds(left, frame) || holds(right, frame),
      );
    }
    if (answersBoolean(first) && answersBoolean(second)) {
      // `(and (> x 0) (< x 10))`: two booleans make a boolean, which an enclosing `if` tests as one.
      shortcutStats.booleanLogic++;
      return markBoolean(
        isAnd ? (frame) => first(frame) && second(frame) : (frame) => first(frame) || second(frame),
      );
    }
    return (frame) => {
      const value = first(frame);
      if (value instanceof Promise)
        return after(value, (resolved) => (isTruthy(resolved) === isAnd ? second(frame) : resolved));
      return (value !== null && value !== false && value !== undefined) === isAnd ? second(frame) : value;
    };
  }
  const run = (frame: unknown[], start: number): unknown => {
    for (let i = start; i < items.length; i++) {
      const value = (items[i] as Code)(frame);
      if (i === items.length - 1) return value;
      if (value instanceof Promise) {
        return after(value, (resolved) => (isTruthy(resolved) === isAnd ? run(frame, i + 1) : resolved));
      }
      if (isTruthy(value) !== isAnd) return value;
    }
    return null;
  };
  return (frame) => run(frame, 0);
}
