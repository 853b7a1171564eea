/**
 * Arithmetic and comparisons in generated code (codegen.ts calls in here): `+ - * /` and
 * `< > <= >= = not=` with two arguments, written inline for plain numbers, with the full operation
 * (runtime/numeric.ts, intrinsics.ts) for everything else: big integers, whole floats, errors.
 */
import type { Node } from "../analyzer/ast.js";
import { Keyword } from "../values/keyword.js";
import type { LoopEmitter } from "./codegen-loops.js";
import { binaryIntrinsic } from "./intrinsics.js";

/** What the number intrinsics need of the generator, beyond the loops' needs. */
export interface NumberEmitter extends LoopEmitter {
  /** Whether `expression` is an integer literal or a name known to hold integers. */
  isIntegral(expression: string): boolean;
  /** Records that a name (assigned only integers) holds integers. */
  markIntegral(name: string): void;
  /** Records that a name holds only true or false. */
  markBoolean(name: string): void;
}

/**
 * An operand of a comparison: a field read `(:k x)` without its nil normalization (see field),
 * anything else as usual. The comparisons below normalize it where it leaves their fast path.
 */
function comparand(g: NumberEmitter, node: Node): string {
  if (
    node.kind === "call" &&
    node.callee.kind === "const" &&
    node.callee.value instanceof Keyword &&
    node.args.length === 1
  ) {
    const keyword = node.callee.value;
    const target = g.value(node.args[0] as Node);
    return g.field(target, keyword, true);
  }
  return g.value(node);
}

/** Two-argument arithmetic and comparison with inline number fast paths; undefined for other calls. */
export function binaryCall(g: NumberEmitter, name: string, left: Node, right: Node): string | undefined {
  if (binaryIntrinsic(name) === undefined) return undefined;
  const comparison = name === "<" || name === ">" || name === "<=" || name === ">=" || name === "=";
  const a = comparison ? comparand(g, left) : g.value(left);
  const b = comparison ? comparand(g, right) : g.value(right);
  // What a comparison's slow path hands to the runtime: never undefined.
  const na = comparison ? g.normalized(a) : a;
  const nb = comparison ? g.normalized(b) : b;
  const numbers = bothNumbers(a, b);
  switch (name) {
    case "+":
      return arithmetic(g, "+", "add", a, b);
    case "-":
      return arithmetic(g, "-", "subtract", a, b);
    case "*":
      return arithmetic(g, "*", "multiply", a, b);
    case "/": {
      // Floats that are not whole are themselves; a whole quotient (a boxed float), a zero
      // divisor (an error for an integer 0) and anything not a number take the full division.
      const result = g.temp();
      g.emit(`let ${result};`);
      g.emit(
        `if (typeof ${a} === "number" && typeof ${b} === "number" && ${b} !== 0) { ${result} = ${a} / ${b}; if (Number.isInteger(${result})) ${result} = $.divide(${a}, ${b}); }`,
      );
      g.emit(`else ${result} = $.divide(${a}, ${b});`);
      g.markDefined(result);
      return result;
    }
    case "<":
      return boolean(g, `(${numbers} ? ${a} < ${b} : $.lt(${na}, ${nb}))`);
    case ">":
      return boolean(g, `(${numbers} ? ${a} > ${b} : $.gt(${na}, ${nb}))`);
    case "<=":
      return boolean(g, `(${numbers} ? ${a} <= ${b} : $.le(${na}, ${nb}))`);
    case ">=":
      return boolean(g, `(${numbers} ? ${a} >= ${b} : $.ge(${na}, ${nb}))`);
    case "=": {
      // Against a literal string, keyword, boolean or nil, = is identity (strings compare by
      // value in JS, keywords are interned); against a literal integer, only a boxed number
      // (a whole float, a bigint) needs the general equality.
      const literal = left.kind === "const" ? left.value : right.kind === "const" ? right.value : undefined;
      if (left.kind === "const" || right.kind === "const") {
        const other = left.kind === "const" ? b : a;
        if (literal === null) return g.bind(`(${other} === null || ${other} === undefined)`);
        if (typeof literal === "string" || literal instanceof Keyword || typeof literal === "boolean")
          return g.bind(`(${a} === ${b})`);
        if (typeof literal === "number" && Number.isSafeInteger(literal)) {
          return g.bind(`(${a} === ${b} || (typeof ${other} !== "number" && $.eq(${na}, ${nb})))`);
        }
      }
      // Two undefined (missing) fields are equal, as two nils are.
      return g.bind(`(${a} === ${b} || $.eq(${na}, ${nb}))`);
    }
    case "not=":
      return g.bind(`!$.eq(${a}, ${b})`);
    default:
      return undefined;
  }
}

/** A comparison's value (both branches give a JS boolean: $.lt and its kin return one), bound. */
function boolean(g: NumberEmitter, expression: string): string {
  const name = g.bind(expression);
  g.markBoolean(name);
  return name;
}

/**
 * `+ - *` inline for plain numbers. The JS result is right unless it is a whole number that is
 * either a float result (an operand was a float: 0.5 + 0.5 is 1.0) or past 2^53; those cases,
 * and anything not a number, go to the full operation.
 */
export function arithmetic(
  g: NumberEmitter,
  operator: "+" | "-" | "*",
  full: string,
  a: string,
  b: string,
): string {
  const result = g.temp();
  g.emit(`let ${result};`);
  g.emit(`if (${bothNumbers(a, b)}) {`);
  g.emit(`${result} = ${a} ${operator} ${b};`);
  if (g.isIntegral(a) && g.isIntegral(b)) {
    // Two integers: only an unsafe result needs the full operation (which makes a bigint), and
    // a product can be -0 in JS, which Lisp integers do not have. The result is a whole number,
    // so a bound on its magnitude says what Number.isSafeInteger would, with two comparisons
    // that cost no call even in V8's interpreter and baseline code, where a fresh program runs
    // until V8 optimizes it (and where Math.abs or Number.isSafeInteger is a call).
    g.emit(`if (!(${safeBound(result)})) ${result} = ${full}(${a}, ${b});`);
    if (operator === "*") g.emit(`else if (${result} === 0) ${result} = 0;`);
    g.emit(`} else ${result} = ${full}(${a}, ${b});`);
    g.markIntegral(result);
    g.markDefined(result);
    return result;
  }
  // The full test (a whole result that is a float's or unsafe) calls Number.isInteger up to three
  // times, a call each in the interpreter and baseline code that run a fresh program. Operands
  // that are 32-bit integers (`(x | 0) === x`: no call, and the common case) make it needless: their
  // sum or difference is a safe integer, and their product a whole number that only the bound on
  // its magnitude needs to check. Other operands take the full test.
  const small = unique([a, b])
    .filter((operand) => !isSmallIntegerLiteral(operand))
    .map((operand) => `(${operand} | 0) === ${operand}`)
    .join(" && ");
  const integers = unique([a, b])
    .filter((operand) => !g.isIntegral(operand))
    .map((operand) => ` && Number.isInteger(${operand})`)
    .join("");
  const fullTest = `Number.isInteger(${result}) && !(${safeBound(result)}${integers})`;
  if (operator === "*") {
    g.emit(`if (${small} ? !(${safeBound(result)}) : ${fullTest}) ${result} = ${full}(${a}, ${b});`);
    g.emit(`else if (${result} === 0) ${result} = 0;`);
  } else {
    g.emit(`if (!(${small}) && ${fullTest}) ${result} = ${full}(${a}, ${b});`);
  }
  g.emit(`} else ${result} = ${full}(${a}, ${b});`);
  g.markDefined(result);
  return result;
}

/** The operands once each: `(* x x)` tests x once. */
function unique(operands: readonly string[]): string[] {
  return [...new Set(operands)];
}

/** Whether `expression` is an integer literal as the generator writes one (a safe integer). */
function isIntegerLiteral(expression: string): boolean {
  return /^-?\d+$/.test(expression);
}

/** An integer literal that `| 0` keeps as it is (a 32-bit integer). */
function isSmallIntegerLiteral(expression: string): boolean {
  return isIntegerLiteral(expression) && (Number(expression) | 0) === Number(expression);
}

/** The test that both operands are JS numbers, leaving out literals (numbers by construction). */
function bothNumbers(a: string, b: string): string {
  const tests = unique([a, b])
    .filter((operand) => !isIntegerLiteral(operand))
    .map((operand) => `typeof ${operand} === "number"`);
  return tests.length === 0 ? "true" : tests.join(" && ");
}

/** `Math.abs(x) <= 2^53 - 1` without the call (false for NaN, as Math.abs's form is). */
function safeBound(expression: string): string {
  return `${expression} <= 9007199254740991 && ${expression} >= -9007199254740991`;
}
