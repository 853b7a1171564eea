/**
 * Shortcuts of the general evaluator for arithmetic and comparisons whose operands are read
 * straight from the frame (locals, constants, `(:k local)`): `(< i 10)`, `(> (:amount o) 500)`,
 * `(= (:status o) "paid")`, `(- n 1)`, `(* i i)`. When the values read are plain numbers (or two
 * strings for `=`) the node answers itself; anything else goes to `fallback`, the operation proper,
 * so the answers are the operation's by construction.
 *
 * Why each operator has function literals of its own: V8 keeps one feedback vector per function
 * literal, shared by every closure made from it. A generic node's call of its operation sees every
 * operator of every program run in the process, goes megamorphic, and is never inlined; here the
 * operation is one machine instruction in the node. (A shared helper switching on the operator
 * measured slower: 1.4-2x on loop/recur. Only distinct literals paid.)
 */
import type { Keyword } from "../values/keyword.js";
import { getField } from "../values/map-access.js";
import type { Operand } from "./intrinsics.js";
import { inlineArithmetic } from "./operand-arithmetic.js";

type Code = (frame: unknown[]) => unknown;
type Binary = (a: unknown, b: unknown) => unknown;

/** How many nodes got each kind of shortcut when compiled (the tests read it). */
export const shortcutStats = {
  constantComparisons: 0,
  operandArithmetic: 0,
  /** Of those, the ones with another arithmetic shortcut as an operand: `(+ acc (* a b))`. */
  nestedArithmetic: 0,
  operandComparisons: 0,
  /** `(inc i)`, `(dec n)` on a local (calls.ts). */
  counting: 0,
  /** `if` nodes whose test answers a boolean (answersBoolean), tested as one (compile.ts). */
  booleanTests: 0,
  /** `(and a b)`, `(or a b)` of two such tests, themselves boolean (compile.ts). */
  booleanLogic: 0,
  /** Of any `(and a b)`, `(or a b)`: those of two simple comparisons, compared in the node (holds). */
  comparedLogic: 0,
  /** `if` nodes over a comparison of a local with a number, compared in the node (branchShortcut). */
  branches: 0,
  /** `if`/`when` nodes whose else is a constant (nil for `when`), answered in the node (compile.ts). */
  constantElse: 0,
  /** `let` bindings of a local (the pattern of a destructuring fn parameter), read inline (compile.ts). */
  localInits: 0,
};

/**
 * Nodes that answer a boolean every time, never a promise: the comparison shortcuts below (their
 * fallback, the comparison proper, answers true or false or throws), and the `and`/`or` of two of
 * them (compile.ts). An `if` over one tests the boolean itself, without the promise check and the
 * truthiness test a value of any kind needs.
 */
const booleanNodes = new WeakSet<Code>();

/** Branch makers of comparison nodes: `(if test yes no)` with the comparison read inline. */
type Branch = (yes: Code, no: Code) => Code;
const branches = new WeakMap<Code, Branch>();

/**
 * Comparisons of a local or a field of a local (`(:k x)`) with a constant (a number, or a string
 * for `=`), by node: what a node that runs comparisons itself needs to compare in place (the
 * and/or of two comparisons, conditionals.ts), with `holds`.
 */
export interface SimpleComparison {
  /** OPERATORS' number for the operator. */
  readonly operator: number;
  readonly slot: number;
  /** The field read from the local, or undefined to compare the local itself. */
  readonly keyword: Keyword | undefined;
  readonly value: number | string;
  /** The comparison proper, for a value not of the constant's type: true or false, or it throws. */
  readonly fallback: (a: unknown) => unknown;
}
const simpleComparisons = new WeakMap<Code, SimpleComparison>();

const LT = 1;
const GT = 2;
const LE = 3;
const GE = 4;
const EQ = 5;
/** The numbers of SimpleComparison's operators, by builtin name (a Map: no inherited names). */
const OPERATORS: ReadonlyMap<string, number> = new Map([
  ["<", LT],
  [">", GT],
  ["<=", LE],
  [">=", GE],
  ["=", EQ],
]);

/** The comparison `code` makes of a local or its field with a constant, or undefined. */
export function simpleComparison(code: Code): SimpleComparison | undefined {
  return simpleComparisons.get(code);
}

/**
 * What the node of comparison `c` answers on `frame` (constantComparison, fieldComparison), for
 * a node that runs it in place. One function for every operator: the callers are few function
 * literals each calling this one target, which V8 inlines; the switch on a value fixed per node
 * is a few well-predicted branches, where a call of the comparison's own node would be a call
 * at a site that sees every comparison of every program (megamorphic, never inlined).
 */
export function holds(c: SimpleComparison, frame: unknown[]): boolean {
  const target = frame[c.slot];
  const a = c.keyword === undefined ? target : getField(target, c.keyword);
  const value = c.value;
  if (typeof value === "string") return typeof a === "string" ? a === value : (c.fallback(a) as boolean);
  if (typeof a !== "number") return c.fallback(a) as boolean;
  const operator = c.operator;
  if (operator === LT) return a < value;
  if (operator === GT) return a > value;
  if (operator === LE) return a <= value;
  if (operator === GE) return a >= value;
  return a === value;
}

/**
 * `(if test yes no)` as one node when `test` is a comparison of a local or `(:k local)` with a
 * number: the operands read and compared in the if's own function literal (one per operator and
 * operand kind), not through a call of the test node. Undefined for any other test.
 */
export function branchShortcut(test: Code, yes: Code, no: Code): Code | undefined {
  const branch = branches.get(test);
  return branch === undefined ? undefined : branch(yes, no);
}

/** Whether `code` is known to answer a boolean, never a promise (booleanNodes). */
export function answersBoolean(code: Code): boolean {
  return booleanNodes.has(code);
}

/** Records that `code` answers a boolean every time; returns it. */
export function markBoolean(code: Code): Code {
  booleanNodes.add(code);
  return code;
}

/**
 * The arithmetic shortcuts: nodes that answer a number (or throw) and never a promise, as they
 * only read the frame and compute. One may be an operand of another, `(+ acc (* a b))`, read with
 * a call instead of evaluated as a builtin call's argument list. Any other evaluated operand might
 * wait on a tool, so a node with one gets no shortcut.
 */
const settledNodes = new WeakSet<Code>();

function settledOperand(operand: Operand): boolean {
  return operand.kind !== "code" || settledNodes.has(operand.code);
}

/** Comparisons whose operands may swap sides: `(< 0 x)` is `(> x 0)` for two numbers. */
const MIRRORED: Readonly<Record<string, string>> = { "<": ">", ">": "<", "<=": ">=", ">=": "<=", "=": "=" };

/**
 * The shortcut node for intrinsic `name` over these operands, or undefined when none applies (an
 * operand that must be evaluated, which may wait on a tool; an operator without a shortcut).
 * `guard(a, b)` runs the operation itself.
 */
export function numberShortcut(name: string, left: Operand, right: Operand, guard: Binary): Code | undefined {
  if (!settledOperand(left) || !settledOperand(right)) return undefined;
  if (left.kind === "const" && right.kind === "const") return undefined;
  if (right.kind === "const") {
    const value = right.value;
    const fallback = (a: unknown) => guard(a, value);
    const code = constantComparison(name, value, left, fallback);
    if (code !== undefined) {
      shortcutStats.constantComparisons++;
      return withBranch(code, name, value, left, fallback);
    }
  }
  if (left.kind === "const" && MIRRORED[name] !== undefined) {
    const value = left.value;
    const mirrored = MIRRORED[name] as string;
    const fallback = (b: unknown) => guard(value, b);
    const code = constantComparison(mirrored, value, right, fallback);
    if (code !== undefined) {
      shortcutStats.constantComparisons++;
      return withBranch(code, mirrored, value, right, fallback);
    }
  }
  const arithmetic =
    inlineArithmetic(name, left, right, guard) ?? operandArithmetic(name, reader(left), reader(right), guard);
  if (arithmetic !== undefined) {
    shortcutStats.operandArithmetic++;
    if (left.kind === "code" || right.kind === "code") shortcutStats.nestedArithmetic++;
    settledNodes.add(arithmetic);
    return arithmetic;
  }
  const comparison = operandComparison(name, reader(left), reader(right), guard);
  if (comparison === undefined) return undefined;
  shortcutStats.operandComparisons++;
  return markBoolean(comparison);
}

/** Marks `code` boolean and records its branch maker, when it has one (numberBranch). */
function withBranch(
  code: Code,
  name: string,
  value: unknown,
  operand: Operand,
  fallback: (a: unknown) => unknown,
): Code {
  markBoolean(code);
  if (operand.kind === "local" && typeof value === "number") {
    const branch = numberBranch(name, value, operand.slot, fallback);
    if (branch !== undefined) branches.set(code, branch);
  }
  const operator = OPERATORS.get(name);
  if (
    operator !== undefined &&
    (operand.kind === "local" || operand.kind === "field") &&
    (typeof value === "number" || (typeof value === "string" && operator === EQ))
  ) {
    const keyword = operand.kind === "field" ? operand.keyword : undefined;
    simpleComparisons.set(code, { operator, slot: operand.slot, keyword, value, fallback });
  }
  return code;
}

/**
 * `(if (op x value) yes no)` with `x` a local and `value` a number. The fallback answers true or
 * false (the comparison proper), tested as such.
 */
function numberBranch(
  name: string,
  value: number,
  slot: number,
  fallback: (a: unknown) => unknown,
): Branch | undefined {
  switch (name) {
    case "<":
      return (yes, no) => (frame) => {
        const a = frame[slot];
        return (typeof a === "number" ? a < value : fallback(a)) ? yes(frame) : no(frame);
      };
    case ">":
      return (yes, no) => (frame) => {
        const a = frame[slot];
        return (typeof a === "number" ? a > value : fallback(a)) ? yes(frame) : no(frame);
      };
    case "<=":
      return (yes, no) => (frame) => {
        const a = frame[slot];
        return (typeof a === "number" ? a <= value : fallback(a)) ? yes(frame) : no(frame);
      };
    case ">=":
      return (yes, no) => (frame) => {
        const a = frame[slot];
        return (typeof a === "number" ? a >= value : fallback(a)) ? yes(frame) : no(frame);
      };
    case "=":
      return (yes, no) => (frame) => {
        const a = frame[slot];
        return (typeof a === "number" ? a === value : fallback(a)) ? yes(frame) : no(frame);
      };
    default:
      return undefined;
  }
}

function reader(operand: Operand): Code {
  switch (operand.kind) {
    case "local": {
      const slot = operand.slot;
      return (frame) => frame[slot];
    }
    case "field": {
      const slot = operand.slot;
      const keyword: Keyword = operand.keyword;
      return (frame) => getField(frame[slot], keyword);
    }
    case "const": {
      const value = operand.value;
      return () => value;
    }
    case "code":
      return operand.code;
  }
}

/** `x op value`, with `value` a constant number (any comparison) or string (`=` only). */
function constantComparison(
  name: string,
  value: unknown,
  operand: Operand,
  fallback: (a: unknown) => unknown,
): Code | undefined {
  if (operand.kind === "field") return fieldComparison(name, value, operand.slot, operand.keyword, fallback);
  const read = reader(operand);
  if (typeof value === "string") {
    if (name !== "=") return undefined;
    return (frame) => {
      const a = read(frame);
      return typeof a === "string" ? a === value : fallback(a);
    };
  }
  if (typeof value !== "number" || Number.isNaN(value)) return undefined;
  switch (name) {
    case "<":
      return (frame) => {
        const a = read(frame);
        return typeof a === "number" ? a < value : fallback(a);
      };
    case ">":
      return (frame) => {
        const a = read(frame);
        return typeof a === "number" ? a > value : fallback(a);
      };
    case "<=":
      return (frame) => {
        const a = read(frame);
        return typeof a === "number" ? a <= value : fallback(a);
      };
    case ">=":
      return (frame) => {
        const a = read(frame);
        return typeof a === "number" ? a >= value : fallback(a);
      };
    case "=":
      return (frame) => {
        const a = read(frame);
        // As equals on two numbers: 0 equal to -0 (NaN never reaches here as the constant).
        return typeof a === "number" ? a === value : fallback(a);
      };
    default:
      return undefined;
  }
}

/**
 * constantComparison of `(:k local)`, the commonest operand of a predicate: the field read inline
 * (a call of a reader closure measured 8% of `(filter #(= "pending" (:status %)) rows)`).
 */
function fieldComparison(
  name: string,
  value: unknown,
  slot: number,
  keyword: Keyword,
  fallback: (a: unknown) => unknown,
): Code | undefined {
  if (typeof value === "string") {
    if (name !== "=") return undefined;
    return (frame) => {
      const a = getField(frame[slot], keyword);
      return typeof a === "string" ? a === value : fallback(a);
    };
  }
  if (typeof value !== "number" || Number.isNaN(value)) return undefined;
  switch (name) {
    case "<":
      return (frame) => {
        const a = getField(frame[slot], keyword);
        return typeof a === "number" ? a < value : fallback(a);
      };
    case ">":
      return (frame) => {
        const a = getField(frame[slot], keyword);
        return typeof a === "number" ? a > value : fallback(a);
      };
    case "<=":
      return (frame) => {
        const a = getField(frame[slot], keyword);
        return typeof a === "number" ? a <= value : fallback(a);
      };
    case ">=":
      return (frame) => {
        const a = getField(frame[slot], keyword);
        return typeof a === "number" ? a >= value : fallback(a);
      };
    case "=":
      return (frame) => {
        const a = getField(frame[slot], keyword);
        return typeof a === "number" ? a === value : fallback(a);
      };
    default:
      return undefined;
  }
}

/**
 * `(+ a b)`, `(- a b)`, `(* a b)` of two plain numbers, as numeric.ts computes them: a result with
 * a fraction as it is; an integer result of two integers while it is exact (a product's -0 as 0);
 * anything else (a whole float, a big integer) from the operation itself.
 */
function operandArithmetic(name: string, readA: Code, readB: Code, guard: Binary): Code | undefined {
  switch (name) {
    case "+":
      return (frame) => {
        const a = readA(frame);
        const b = readB(frame);
        if (typeof a === "number" && typeof b === "number") {
          const r = a + b;
          if (!Number.isInteger(r)) return r;
          if (Number.isSafeInteger(r) && Number.isInteger(a) && Number.isInteger(b)) return r;
        }
        return guard(a, b);
      };
    case "-":
      return (frame) => {
        const a = readA(frame);
        const b = readB(frame);
        if (typeof a === "number" && typeof b === "number") {
          const r = a - b;
          if (!Number.isInteger(r)) return r;
          if (Number.isSafeInteger(r) && Number.isInteger(a) && Number.isInteger(b)) return r;
        }
        return guard(a, b);
      };
    case "*":
      return (frame) => {
        const a = readA(frame);
        const b = readB(frame);
        if (typeof a === "number" && typeof b === "number") {
          const r = a * b;
          if (!Number.isInteger(r)) return r;
          if (Number.isSafeInteger(r) && Number.isInteger(a) && Number.isInteger(b)) return r === 0 ? 0 : r;
        }
        return guard(a, b);
      };
    default:
      return undefined;
  }
}

/** `(< a b)` and the rest of two values read from the frame: numbers compared here. */
function operandComparison(name: string, readA: Code, readB: Code, guard: Binary): Code | undefined {
  switch (name) {
    case "<":
      return (frame) => {
        const a = readA(frame);
        const b = readB(frame);
        return typeof a === "number" && typeof b === "number" ? a < b : guard(a, b);
      };
    case ">":
      return (frame) => {
        const a = readA(frame);
        const b = readB(frame);
        return typeof a === "number" && typeof b === "number" ? a > b : guard(a, b);
      };
    case "<=":
      return (frame) => {
        const a = readA(frame);
        const b = readB(frame);
        return typeof a === "number" && typeof b === "number" ? a <= b : guard(a, b);
      };
    case ">=":
      return (frame) => {
        const a = readA(frame);
        const b = readB(frame);
        return typeof a === "number" && typeof b === "number" ? a >= b : guard(a, b);
      };
    case "=":
      return (frame) => {
        const a = readA(frame);
        const b = readB(frame);
        // As equals on two numbers or two strings.
        return (typeof a === "number" && typeof b === "number") ||
          (typeof a === "string" && typeof b === "string")
          ? a === b
          : guard(a, b);
      };
    default:
      return undefined;
  }
}
