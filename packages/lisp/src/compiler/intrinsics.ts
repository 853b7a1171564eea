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
import { numberShortcut } from "./number-shortcuts.js";

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

/** The name of an intrinsic (`binary.get(name) === op`), or undefined for any other function. */
function intrinsicName(op: Binary): string | undefined {
  for (const [name, fn] of binary) if (fn === op) return name;
  return undefined;
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
  const name = intrinsicName(op);
  if (name !== undefined) {
    const shortcut = numberShortcut(name, left, right, guard);
    if (shortcut !== undefined) return shortcut;
  }
  if (left.kind === "local" && right.kind === "const") {
    const slot = left.slot;
    const value = right.value;
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
    return (frame) => guard(getField(frame[slot], keyword), value);
  }
  if (left.kind === "const" && right.kind === "field") {
    const value = left.value;
    const slot = right.slot;
    const keyword = right.keyword;
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
