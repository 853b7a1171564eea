/**
 * A running sum in generated code (`(reduce + 0 xs)`, `(sum-by :amount rows)`): a JS double and a
 * flag saying whether the sum is a float, which is what folding `add` over the terms computes.
 * add's steps are these same double additions; a float term makes every later sum a float; an
 * integer sum is exact while it stays safe. Folding with add itself would box every whole float
 * sum (`25.0` must stay a float: numbers.ts, WholeFloat) and, once one appears, V8 boxes every
 * sum of the loop; here the sum is boxed once, at the end, if it is a whole float.
 *
 * A term that is neither a plain number nor a whole float, or an integer sum leaving the safe
 * range, raises an error: the unit runs again on the general evaluator, which folds with add
 * (big integers, and the error a term of another kind deserves).
 */
import type { Node } from "../analyzer/ast.js";
import type { LoopEmitter } from "./codegen-loops.js";

export interface RunningSum {
  readonly sum: string;
  readonly float: string;
}

/** A sum starting from a term (a value's name), or from integer 0. */
export function startSum(g: LoopEmitter, first: string | undefined): RunningSum {
  const sum = g.temp("sum");
  const float = g.temp("float");
  g.emit(`let ${sum} = 0;`);
  g.emit(`let ${float} = false;`);
  const running = { sum, float };
  if (first !== undefined) setSum(g, running, first);
  return running;
}

/** `sum = term`: the first term is the sum itself, not 0 + it (no step of add is taken). */
export function setSum(g: LoopEmitter, { sum, float }: RunningSum, value: string): void {
  // A name, not a literal: `0.value` does not parse.
  const term = g.named(value);
  g.emit(`if (typeof ${term} === "number") { ${sum} = ${term}; ${float} = !Number.isInteger(${term}); }`);
  g.emit(`else if (${term} instanceof $.WholeFloat) { ${sum} = ${term}.value; ${float} = true; }`);
  g.emit("else throw $.notFused();");
}

/** `sum = (+ sum term)`. */
export function addToSum(g: LoopEmitter, { sum, float }: RunningSum, value: string): void {
  const term = g.named(value);
  g.emit(`if (typeof ${term} === "number") {`);
  g.emit(`${sum} += ${term};`);
  g.emit(`if (!Number.isInteger(${term})) ${float} = true;`);
  g.emit(`else if (!${float} && !(Math.abs(${sum}) <= 9007199254740991)) throw $.notFused();`);
  g.emit(`} else if (${term} instanceof $.WholeFloat) { ${sum} += ${term}.value; ${float} = true; }`);
  g.emit("else throw $.notFused();");
}

/** The sum as a value: a float that is whole boxed, as add would have returned it. */
export function sumValue(g: LoopEmitter, { sum, float }: RunningSum): string {
  return g.bind(`${float} ? $.makeFloat(${sum}) : ${sum}`);
}

/**
 * The term of a reduce fn that only adds to its accumulator: `(fn [acc x] (+ acc T))` or
 * `(+ T acc)`, through the lets the analyzer wraps around destructured parameters
 * (`(fn [acc {:keys [a b]}] (+ acc (* a b)))`), where nothing but that `+` reads the accumulator.
 * The body with the `+` replaced by T is returned: each step adds its value to a running sum.
 */
export function summedTerm(fn: Extract<Node, { kind: "fn" }>): Node | undefined {
  const first = fn.params[0];
  if (fn.params.length !== 2 || first?.kind !== "bind") return undefined;
  const slot = first.slot;
  const isAcc = (node: Node | undefined): boolean => node?.kind === "local" && node.slot === slot;
  const term = (node: Node): Node | undefined => {
    if (node.kind === "let") {
      if (node.bindings.some((binding) => mentions(binding, slot))) return undefined;
      const body = term(node.body);
      return body === undefined ? undefined : { ...node, body };
    }
    if (node.kind !== "call" || node.callee.kind !== "builtin" || node.callee.name !== "+") return undefined;
    if (node.args.length !== 2) return undefined;
    const [a, b] = node.args as [Node, Node];
    const other = isAcc(a) ? b : isAcc(b) ? a : undefined;
    return other === undefined || mentions(other, slot) ? undefined : other;
  };
  return term(fn.body);
}

/**
 * Whether a local slot is read anywhere inside a node (a nested fn counts as reading everything:
 * its captures would name it).
 */
function mentions(node: unknown, slot: number): boolean {
  if (Array.isArray(node)) return node.some((item) => mentions(item, slot));
  if (node === null || typeof node !== "object") return false;
  const record = node as { kind?: string; slot?: number };
  if (record.kind === "const") return false;
  if (record.kind === "fn") return true;
  if (record.kind === "local" && record.slot === slot) return true;
  // A node's position is the reader's form (a whole source list, for a call): never a node, so
  // walking it would only read the program text again at every level.
  for (const key in node) {
    if (key !== "position" && mentions((node as Record<string, unknown>)[key], slot)) return true;
  }
  return false;
}

/**
 * `sum = (+ sum term)` for a term node: a product `(* a b)` is added as a double with its own
 * float flag (a float factor makes a float product, as multiply has it), so that the product of
 * two plain numbers is never boxed either; any other term is computed and added.
 */
export function addTerm(g: LoopEmitter, running: RunningSum, term: Node): void {
  if (
    term.kind !== "call" ||
    term.callee.kind !== "builtin" ||
    term.callee.name !== "*" ||
    term.args.length !== 2
  ) {
    addToSum(g, running, g.value(term));
    return;
  }
  const a = g.named(g.value(term.args[0] as Node));
  const b = g.named(g.value(term.args[1] as Node));
  const { sum, float } = running;
  g.emit(`if (typeof ${a} === "number" && typeof ${b} === "number") {`);
  g.emit(`if (Number.isInteger(${a}) && Number.isInteger(${b})) {`);
  // An integer product: exact while safe (else a big integer: the general evaluator's), no -0.
  g.emit(`const p = ${a} * ${b};`);
  g.emit("if (!(Math.abs(p) <= 9007199254740991)) throw $.notFused();");
  g.emit(`${sum} += p === 0 ? 0 : p;`);
  g.emit(`if (!${float} && !(Math.abs(${sum}) <= 9007199254740991)) throw $.notFused();`);
  g.emit(`} else { ${sum} += ${a} * ${b}; ${float} = true; }`);
  g.emit("} else {");
  addToSum(g, running, g.bind(`$.multiply(${a}, ${b})`));
  g.emit("}");
}
