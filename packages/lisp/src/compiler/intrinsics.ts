/**
 * Intrinsics: fixed-arity versions of hot variadic builtins. A call such as `(< n 2)` or
 * `(+ acc x)` that names the builtin directly (not shadowed, so the analyzer resolved it to the
 * builtin) compiles to a direct call of the two-argument operation, skipping the variadic entry
 * point and its argument array. Results are identical by construction: the builtins use the same
 * operations.
 */

import type { Position } from "../reader/form.js";
import { callSite } from "../runtime/call-site.js";
import { add, compareNumbers, divide, multiply, subtract } from "../runtime/numeric.js";
import { equals } from "../values/equality.js";
import type { Keyword } from "../values/keyword.js";
import { getField } from "../values/map-access.js";
import { WholeFloat } from "../values/numbers.js";
import { compareTerms } from "../values/term-order.js";

type Binary = (a: unknown, b: unknown) => unknown;
type Unary = (a: unknown) => unknown;

export function isNaNValue(value: unknown): boolean {
  return (
    (typeof value === "number" && Number.isNaN(value)) ||
    (value instanceof WholeFloat && Number.isNaN(value.value))
  );
}

/** Ordering for the `<` family: numbers by value, else term order; NaN for a NaN operand. */
export function order(a: unknown, b: unknown): number {
  if (isNaNValue(a) || isNaNValue(b)) return Number.NaN;
  if (
    (typeof a === "number" || a instanceof WholeFloat) &&
    (typeof b === "number" || b instanceof WholeFloat)
  ) {
    return compareNumbers(a as number, b as number);
  }
  return compareTerms(a, b);
}

const binary: ReadonlyMap<string, Binary> = new Map<string, Binary>([
  ["+", add],
  ["-", subtract],
  ["*", multiply],
  ["/", divide],
  ["<", (a, b) => (typeof a === "number" && typeof b === "number" ? a < b : order(a, b) < 0)],
  [">", (a, b) => (typeof a === "number" && typeof b === "number" ? a > b : order(a, b) > 0)],
  ["<=", (a, b) => (typeof a === "number" && typeof b === "number" ? a <= b : order(a, b) <= 0)],
  [">=", (a, b) => (typeof a === "number" && typeof b === "number" ? a >= b : order(a, b) >= 0)],
  ["=", (a, b) => (a === b && typeof a !== "number" ? true : equals(a, b))],
  ["not=", (a, b) => !equals(a, b)],
]);

/** The two-argument form of a builtin, when it has one. */
export function binaryIntrinsic(name: string): Binary | undefined {
  return binary.get(name);
}

/** Unary intrinsics are the builtins themselves (inc, dec...), already fixed-arity. */
export type { Unary };

/**
 * How an operand is read: straight from a frame slot, as a constant, or by running its code.
 * Reading locals and constants inline saves a closure call per operand in the hottest nodes
 * (`(< n 2)`, `(+ acc x)`, `(inc i)`).
 */
export type Operand =
  | { readonly kind: "local"; readonly slot: number }
  | { readonly kind: "const"; readonly value: unknown }
  /** `(:k x)` with `x` a local: the commonest operand of a predicate (`(> (:amount o) 100)`). */
  | { readonly kind: "field"; readonly slot: number; readonly keyword: Keyword }
  | { readonly kind: "code"; readonly code: (frame: unknown[]) => unknown };

/**
 * A node applying `op` to two operands. Operands that are code may return promises (a tool call
 * below); `slow` handles that case. `position` is recorded as the call site (call-site.ts).
 */
export function binaryNode(
  op: Binary,
  left: Operand,
  right: Operand,
  slow: (frame: unknown[], index: number, first: unknown, pending: Promise<unknown>) => unknown,
  position: Position,
): (frame: unknown[]) => unknown {
  const guard = (a: unknown, b: unknown): unknown => {
    callSite.current = position;
    return op(a, b);
  };
  if (left.kind === "local" && right.kind === "const") {
    const slot = left.slot;
    const value = right.value;
    const shortcut = constantShortcut(op, value, (frame) => frame[slot], guard);
    if (shortcut !== undefined) return shortcut;
    return (frame) => guard(frame[slot], value);
  }
  if (left.kind === "local" && right.kind === "local") {
    const a = left.slot;
    const b = right.slot;
    return (frame) => guard(frame[a], frame[b]);
  }
  if (left.kind === "const" && right.kind === "local") {
    const value = left.value;
    const slot = right.slot;
    return (frame) => guard(value, frame[slot]);
  }
  // Field reads inline: no closure call for the operand, and getField is a direct call.
  if (left.kind === "field" && right.kind === "const") {
    const slot = left.slot;
    const keyword = left.keyword;
    const value = right.value;
    const shortcut = constantShortcut(op, value, (frame) => getField(frame[slot], keyword), guard);
    if (shortcut !== undefined) return shortcut;
    return (frame) => guard(getField(frame[slot], keyword), value);
  }
  if (left.kind === "const" && right.kind === "field") {
    const value = left.value;
    const slot = right.slot;
    const keyword = right.keyword;
    if (op === binary.get("=") && typeof value === "string") {
      // `(= "pending" (:status %))`, as constantShortcut answers it.
      shortcutStats.constantComparisons++;
      return (frame) => {
        const b = getField(frame[slot], keyword);
        return typeof b === "string" ? value === b : guard(value, b);
      };
    }
    return (frame) => guard(value, getField(frame[slot], keyword));
  }
  if (left.kind === "field" && right.kind === "field") {
    const a = left.slot;
    const ka = left.keyword;
    const b = right.slot;
    const kb = right.keyword;
    return (frame) => {
      const first = getField(frame[a], ka);
      return guard(first, getField(frame[b], kb));
    };
  }
  if (left.kind === "field" && right.kind === "local") {
    const a = left.slot;
    const keyword = left.keyword;
    const b = right.slot;
    return (frame) => guard(getField(frame[a], keyword), frame[b]);
  }
  if (left.kind === "local" && right.kind === "field") {
    const a = left.slot;
    const b = right.slot;
    const keyword = right.keyword;
    return (frame) => {
      const first = frame[a];
      return guard(first, getField(frame[b], keyword));
    };
  }
  if (left.kind === "code" && right.kind === "const") {
    const code = left.code;
    const value = right.value;
    return (frame) => {
      const a = code(frame);
      return a instanceof Promise ? slow(frame, 0, undefined, a) : guard(a, value);
    };
  }
  if (left.kind === "code" && right.kind === "local") {
    const code = left.code;
    const slot = right.slot;
    return (frame) => {
      const a = code(frame);
      return a instanceof Promise ? slow(frame, 0, undefined, a) : guard(a, frame[slot]);
    };
  }
  if (left.kind === "local" && right.kind === "code") {
    const slot = left.slot;
    const code = right.code;
    return (frame) => {
      const first = frame[slot];
      const b = code(frame);
      return b instanceof Promise ? slow(frame, 1, first, b) : guard(first, b);
    };
  }
  const readLeft = operandCode(left);
  const readRight = operandCode(right);
  return (frame) => {
    const a = readLeft(frame);
    if (a instanceof Promise) return slow(frame, 0, undefined, a);
    const b = readRight(frame);
    return b instanceof Promise ? slow(frame, 1, a, b) : guard(a, b);
  };
}

/** How many comparison nodes the general evaluator compiled to a constant shortcut (tests read it). */
export const shortcutStats = { constantComparisons: 0 };

/**
 * `(> (:amount o) 500)`, `(= (:status o) "paid")`, `(< i 10)`: a comparison of a value read from
 * the frame with a constant number (or `=` with a constant string), answered in the node itself
 * when the value read has the constant's type; anything else goes to `guard` (the operation
 * proper). Each operator has a function literal of its own: V8 keeps feedback per literal, and the
 * generic node's call of the operation sees every operator of every program (megamorphic, never
 * inlined); here the comparison is one machine instruction. Undefined when no shortcut applies.
 */
function constantShortcut(
  op: Binary,
  value: unknown,
  read: (frame: unknown[]) => unknown,
  guard: Binary,
): ((frame: unknown[]) => unknown) | undefined {
  const code = constantComparison(op, value, read, guard);
  if (code !== undefined) shortcutStats.constantComparisons++;
  return code;
}

function constantComparison(
  op: Binary,
  value: unknown,
  read: (frame: unknown[]) => unknown,
  guard: Binary,
): ((frame: unknown[]) => unknown) | undefined {
  if (typeof value === "string") {
    if (op !== binary.get("=")) return undefined;
    return (frame) => {
      const a = read(frame);
      // As equals on two strings.
      return typeof a === "string" ? a === value : guard(a, value);
    };
  }
  if (typeof value !== "number" || Number.isNaN(value)) return undefined;
  if (op === binary.get("<"))
    return (frame) => {
      const a = read(frame);
      return typeof a === "number" ? a < value : guard(a, value);
    };
  if (op === binary.get(">"))
    return (frame) => {
      const a = read(frame);
      return typeof a === "number" ? a > value : guard(a, value);
    };
  if (op === binary.get("<="))
    return (frame) => {
      const a = read(frame);
      return typeof a === "number" ? a <= value : guard(a, value);
    };
  if (op === binary.get(">="))
    return (frame) => {
      const a = read(frame);
      return typeof a === "number" ? a >= value : guard(a, value);
    };
  if (op === binary.get("="))
    return (frame) => {
      const a = read(frame);
      // As equals on two numbers (0 equal to -0; NaN, the constant is not).
      return typeof a === "number" ? a === value : guard(a, value);
    };
  return undefined;
}

export function operandCode(operand: Operand): (frame: unknown[]) => unknown {
  switch (operand.kind) {
    case "local": {
      const slot = operand.slot;
      return (frame) => frame[slot];
    }
    case "const": {
      const value = operand.value;
      return () => value;
    }
    case "field": {
      const slot = operand.slot;
      const keyword = operand.keyword;
      return (frame) => getField(frame[slot], keyword);
    }
    case "code":
      return operand.code;
  }
}
