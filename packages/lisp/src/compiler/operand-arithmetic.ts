/**
 * The arithmetic shortcuts of the general evaluator (number-shortcuts.ts) with their operands read
 * in the node: `(- n 1)`, `(* i i)`, `(* amount quantity)`, `(+ acc (* i i))`,
 * `(* (:amount o) (:quantity o))`, `(+ acc (:amount o))`, `(* (:price o) 2)`. A node that reads
 * its operands through reader closures makes two more calls per evaluation, and as every `+` node
 * of every program shares the one function literal, those calls see every reader there is:
 * megamorphic, never inlined. Here each operator
 * has a literal per operand shape (local, constant, field, evaluated code), and each literal
 * calls one module-level function per operator (sum, difference, product), a single target that
 * V8 inlines. The answers are numeric.ts's by construction: plain numbers computed here as the
 * shortcut always did, anything else handed to `guard`, the operation proper.
 */
import type { Keyword } from "../values/keyword.js";
import { getField } from "../values/map-access.js";
import type { Operand } from "./intrinsics.js";

type Code = (frame: unknown[]) => unknown;
type Binary = (a: unknown, b: unknown) => unknown;

/** How many arithmetic nodes read their operands in the node (the tests read it). */
export const inlineOperandStats = { nodes: 0, multiplyAdds: 0 };

/**
 * The products of two locals made here, with their operands: a sum of a local and one of these,
 * `(+ acc (* i i))`, `(+ acc (* amount quantity))`, computes the product in its own node (see
 * multiplyAdd below).
 */
const localProducts = new WeakMap<Code, { readonly a: number; readonly b: number; readonly guard: Binary }>();

// A result with a fraction as it is; an integer result of two integers while it is exact (a
// product's -0 as 0); anything else (a whole float, a big integer) from the operation itself.

function sum(a: unknown, b: unknown, guard: Binary): unknown {
  if (typeof a === "number" && typeof b === "number") {
    const r = a + b;
    if (!Number.isInteger(r)) return r;
    if (Number.isSafeInteger(r) && Number.isInteger(a) && Number.isInteger(b)) return r;
  }
  return guard(a, b);
}

function difference(a: unknown, b: unknown, guard: Binary): unknown {
  if (typeof a === "number" && typeof b === "number") {
    const r = a - b;
    if (!Number.isInteger(r)) return r;
    if (Number.isSafeInteger(r) && Number.isInteger(a) && Number.isInteger(b)) return r;
  }
  return guard(a, b);
}

function product(a: unknown, b: unknown, guard: Binary): unknown {
  if (typeof a === "number" && typeof b === "number") {
    const r = a * b;
    if (!Number.isInteger(r)) return r;
    if (Number.isSafeInteger(r) && Number.isInteger(a) && Number.isInteger(b)) return r === 0 ? 0 : r;
  }
  return guard(a, b);
}

/** The operand shapes with a literal of their own; undefined for the others. */
type Shape =
  | { kind: "local-const"; a: number; value: unknown }
  | { kind: "const-local"; value: unknown; b: number }
  | { kind: "local-local"; a: number; b: number }
  | { kind: "local-code"; a: number; code: Code }
  | { kind: "code-local"; code: Code; b: number }
  | { kind: "field-field"; a: number; ka: Keyword; b: number; kb: Keyword }
  | { kind: "local-field"; a: number; b: number; kb: Keyword }
  | { kind: "field-local"; a: number; ka: Keyword; b: number }
  | { kind: "field-const"; a: number; ka: Keyword; value: unknown }
  | { kind: "const-field"; value: unknown; b: number; kb: Keyword };

function shapeOf(left: Operand, right: Operand): Shape | undefined {
  if (left.kind === "local") {
    if (right.kind === "const") return { kind: "local-const", a: left.slot, value: right.value };
    if (right.kind === "local") return { kind: "local-local", a: left.slot, b: right.slot };
    if (right.kind === "code") return { kind: "local-code", a: left.slot, code: right.code };
    return { kind: "local-field", a: left.slot, b: right.slot, kb: right.keyword };
  }
  if (right.kind === "local") {
    if (left.kind === "const") return { kind: "const-local", value: left.value, b: right.slot };
    if (left.kind === "code") return { kind: "code-local", code: left.code, b: right.slot };
    return { kind: "field-local", a: left.slot, ka: left.keyword, b: right.slot };
  }
  if (left.kind === "field") {
    if (right.kind === "field")
      return { kind: "field-field", a: left.slot, ka: left.keyword, b: right.slot, kb: right.keyword };
    if (right.kind === "const")
      return { kind: "field-const", a: left.slot, ka: left.keyword, value: right.value };
    return undefined;
  }
  if (left.kind === "const" && right.kind === "field")
    return { kind: "const-field", value: left.value, b: right.slot, kb: right.keyword };
  return undefined;
}

/**
 * The node for `(name left right)` with its operands read in place, or undefined when the
 * operator is not + - * or the operands have no literal here. Operands of kind "code" must be
 * settled (never a promise), as the caller checks.
 */
export function inlineArithmetic(
  name: string,
  left: Operand,
  right: Operand,
  guard: Binary,
): Code | undefined {
  const shape = shapeOf(left, right);
  if (shape === undefined) return undefined;
  const code =
    name === "+"
      ? sumNode(shape, guard)
      : name === "-"
        ? differenceNode(shape, guard)
        : name === "*"
          ? productNode(shape, guard)
          : undefined;
  if (code !== undefined) inlineOperandStats.nodes++;
  return code;
}

// One maker per operator, so that each operator's nodes have literals of their own.

function sumNode(shape: Shape, guard: Binary): Code {
  switch (shape.kind) {
    case "local-const": {
      const { a, value } = shape;
      return (frame) => sum(frame[a], value, guard);
    }
    case "const-local": {
      const { value, b } = shape;
      return (frame) => sum(value, frame[b], guard);
    }
    case "local-local": {
      const { a, b } = shape;
      return (frame) => sum(frame[a], frame[b], guard);
    }
    case "local-code": {
      const { a, code } = shape;
      const fused = localProducts.get(code);
      if (fused !== undefined) return multiplyAdd(a, fused.a, fused.b, fused.guard, guard, true);
      return (frame) => {
        const first = frame[a];
        return sum(first, code(frame), guard);
      };
    }
    case "code-local": {
      const { code, b } = shape;
      const fused = localProducts.get(code);
      if (fused !== undefined) return multiplyAdd(b, fused.a, fused.b, fused.guard, guard, false);
      return (frame) => {
        const first = code(frame);
        return sum(first, frame[b], guard);
      };
    }
    case "field-field": {
      const { a, ka, b, kb } = shape;
      return (frame) => {
        const first = getField(frame[a], ka);
        return sum(first, getField(frame[b], kb), guard);
      };
    }
    case "local-field": {
      const { a, b, kb } = shape;
      return (frame) => {
        const first = frame[a];
        return sum(first, getField(frame[b], kb), guard);
      };
    }
    case "field-local": {
      const { a, ka, b } = shape;
      return (frame) => {
        const first = getField(frame[a], ka);
        return sum(first, frame[b], guard);
      };
    }
    case "field-const": {
      const { a, ka, value } = shape;
      return (frame) => sum(getField(frame[a], ka), value, guard);
    }
    case "const-field": {
      const { value, b, kb } = shape;
      return (frame) => sum(value, getField(frame[b], kb), guard);
    }
  }
}

function differenceNode(shape: Shape, guard: Binary): Code {
  switch (shape.kind) {
    case "local-const": {
      const { a, value } = shape;
      return (frame) => difference(frame[a], value, guard);
    }
    case "const-local": {
      const { value, b } = shape;
      return (frame) => difference(value, frame[b], guard);
    }
    case "local-local": {
      const { a, b } = shape;
      return (frame) => difference(frame[a], frame[b], guard);
    }
    case "local-code": {
      const { a, code } = shape;
      return (frame) => {
        const first = frame[a];
        return difference(first, code(frame), guard);
      };
    }
    case "code-local": {
      const { code, b } = shape;
      return (frame) => {
        const first = code(frame);
        return difference(first, frame[b], guard);
      };
    }
    case "field-field": {
      const { a, ka, b, kb } = shape;
      return (frame) => {
        const first = getField(frame[a], ka);
        return difference(first, getField(frame[b], kb), guard);
      };
    }
    case "local-field": {
      const { a, b, kb } = shape;
      return (frame) => {
        const first = frame[a];
        return difference(first, getField(frame[b], kb), guard);
      };
    }
    case "field-local": {
      const { a, ka, b } = shape;
      return (frame) => {
        const first = getField(frame[a], ka);
        return difference(first, frame[b], guard);
      };
    }
    case "field-const": {
      const { a, ka, value } = shape;
      return (frame) => difference(getField(frame[a], ka), value, guard);
    }
    case "const-field": {
      const { value, b, kb } = shape;
      return (frame) => difference(value, getField(frame[b], kb), guard);
    }
  }
}

function productNode(shape: Shape, guard: Binary): Code {
  switch (shape.kind) {
    case "local-const": {
      const { a, value } = shape;
      return (frame) => product(frame[a], value, guard);
    }
    case "const-local": {
      const { value, b } = shape;
      return (frame) => product(value, frame[b], guard);
    }
    case "local-local": {
      const { a, b } = shape;
      const code: Code = (frame) => product(frame[a], frame[b], guard);
      localProducts.set(code, { a, b, guard });
      return code;
    }
    case "local-code": {
      const { a, code } = shape;
      return (frame) => {
        const first = frame[a];
        return product(first, code(frame), guard);
      };
    }
    case "code-local": {
      const { code, b } = shape;
      return (frame) => {
        const first = code(frame);
        return product(first, frame[b], guard);
      };
    }
    case "field-field": {
      const { a, ka, b, kb } = shape;
      return (frame) => {
        const first = getField(frame[a], ka);
        return product(first, getField(frame[b], kb), guard);
      };
    }
    case "local-field": {
      const { a, b, kb } = shape;
      return (frame) => {
        const first = frame[a];
        return product(first, getField(frame[b], kb), guard);
      };
    }
    case "field-local": {
      const { a, ka, b } = shape;
      return (frame) => {
        const first = getField(frame[a], ka);
        return product(first, frame[b], guard);
      };
    }
    case "field-const": {
      const { a, ka, value } = shape;
      return (frame) => product(getField(frame[a], ka), value, guard);
    }
    case "const-field": {
      const { value, b, kb } = shape;
      return (frame) => product(value, getField(frame[b], kb), guard);
    }
  }
}

/**
 * `(+ acc (* x y))` (or `(+ (* x y) acc)`) with all three locals: the product computed in the sum's
 * node. The product node stays the sum's operand otherwise, called through the one `code(frame)`
 * site every sum with an evaluated operand shares (megamorphic once a few programs ran, so never
 * inlined), and a product that is not a small integer (`(* amount quantity)` of a price) is boxed
 * there to be handed back, only to be unboxed by the sum. Here both are one function V8 optimizes
 * whole. The answers are the composition's: the same reads, the same `product` and `sum` with the
 * same guards, in the same order (the locals are read before the operation, which reads nothing
 * else).
 */
function multiplyAdd(
  added: number,
  x: number,
  y: number,
  timesGuard: Binary,
  plusGuard: Binary,
  addedFirst: boolean,
): Code {
  inlineOperandStats.multiplyAdds++;
  if (addedFirst) return (frame) => sum(frame[added], product(frame[x], frame[y], timesGuard), plusGuard);
  return (frame) => sum(product(frame[x], frame[y], timesGuard), frame[added], plusGuard);
}
