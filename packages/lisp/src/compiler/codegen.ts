/**
 * The fast tier: pure subtrees (purity.ts) compiled to JavaScript source and handed to
 * `new Function`, so V8 optimizes a program's hot loops and lambdas the way it optimizes
 * hand-written code. Locals become JS variables, loops become `while` loops, functions become JS
 * functions; numbers take inline fast paths.
 *
 * Safety: generated source is assembled only from this file's fixed templates, integers and names
 * made of a prefix and a number. Every value from a program (strings, keywords, names, positions,
 * builtins) travels through the constants array `K`, never through the source text, so no program
 * can inject code. The only other name in scope is `$` (codegen-runtime.ts).
 *
 * Semantics: the general closure evaluator (compile.ts) stays the reference. Fast code runs in
 * pure mode (runtime/pure-mode.ts); when it reaches anything with an effect, it abandons the unit
 * and the general evaluator runs the unit again, which is exact because nothing observable
 * happened.
 */
import type { Binding, ForClause, Node, Pattern, RecurTarget } from "../analyzer/ast.js";
import { LAZY_PIPELINE, type PipelinePlan } from "../analyzer/pipelines.js";
import type { Position } from "../reader/form.js";
import { varSpec } from "../runtime/var-cell.js";
import { Keyword } from "../values/keyword.js";
import { FUNCTION_INFO, type LispFunction } from "../values/lisp-function.js";
import { FLAT_LIMIT } from "../values/versioned-table.js";
import { ownedAccumulator } from "./accumulator-use.js";
import type { Code } from "./code.js";
import { type CodegenRuntime, codegenRuntime, type SlowFunctionSpec } from "./codegen-runtime.js";
import { fastTierStats, GenerationGap } from "./fast-tier.js";
import { integralLoopSlots } from "./integral.js";
import { binaryIntrinsic } from "./intrinsics.js";
import { recursOutward } from "./purity.js";

export interface CodegenEnvironment {
  readonly builtin: (name: string) => LispFunction | undefined;

  /** The general evaluator's closure maker for a fn node (for deoptimization). */
  readonly slowFunction: (node: Extract<Node, { kind: "fn" }>) => (outer: unknown[]) => LispFunction;
}

/** Whether `new Function` works here (it does not under a strict Content-Security-Policy). */
export const codegenAvailable: boolean = (() => {
  try {
    return new Function("return 1")() === 1;
  } catch {
    return false;
  }
})();

interface Sink {
  /** Variable receiving the value, or undefined for `return`. */
  readonly target: string | undefined;
  /** Label to break to after assigning, if any. */
  readonly label: string | undefined;
}

interface LoopInfo {
  readonly label: string;
  readonly raw: readonly string[];
  readonly context: string;
  /** The loop or fn form: where a loop-limit error points. */
  readonly position: Position;
}

/** One generated function scope: the analyzer frame it stands for and its slot names. */
class Scope {
  readonly names = new Map<number, string>();
  constructor(
    readonly id: number,
    readonly parent: Scope | undefined,
    /** Slots read from the enclosing general-evaluator frame (the unit's own scope only). */
    readonly free: Set<number> | undefined,
  ) {}
}

class Generator {
  private readonly constants: unknown[] = [];
  private readonly constantIndex = new Map<unknown, number>();
  private lines: string[] = [];
  private counter = 0;
  private scope: Scope;
  private readonly loops = new Map<RecurTarget, LoopInfo>();
  /** JS names known to hold Lisp integers (numbers or bigints, never floats): see integral.ts. */
  private readonly integral = new Set<string>();
  private contextName = "ctx";

  constructor(
    private readonly environment: CodegenEnvironment,
    readonly unitFree = new Set<number>(),
  ) {
    this.scope = new Scope(0, undefined, unitFree);
  }

  // ------------------------------------------------------------------ helpers

  private constant(value: unknown): string {
    let index = this.constantIndex.get(value);
    if (index === undefined) {
      index = this.constants.length;
      this.constants.push(value);
      this.constantIndex.set(value, index);
    }
    return `K[${index}]`;
  }

  /** Literal text for values that are safe to write as JS (small integers, booleans, nil). */
  private literal(value: unknown): string {
    if (value === null || value === undefined) return "null";
    if (value === true) return "true";
    if (value === false) return "false";
    if (typeof value === "number" && Number.isSafeInteger(value) && !Object.is(value, -0))
      return String(value);
    return this.constant(value);
  }

  private temp(prefix = "t"): string {
    return `${prefix}${++this.counter}`;
  }

  private emit(line: string): void {
    this.lines.push(line);
  }

  /** Runs `body` collecting its lines, and returns them (for nested blocks). */
  private block(body: () => void): string[] {
    const saved = this.lines;
    this.lines = [];
    try {
      body();
      return this.lines;
    } finally {
      this.lines = saved;
    }
  }

  private declare(slot: number): string {
    const name = `v${this.scope.id}_${slot}`;
    this.scope.names.set(slot, name);
    return name;
  }

  private nameOf(slot: number): string {
    const known = this.scope.names.get(slot);
    if (known !== undefined) return known;
    if (this.scope.free !== undefined) {
      // A local of the enclosing general-evaluator frame, read once at unit entry.
      this.scope.free.add(slot);
      const name = `f_${slot}`;
      this.scope.names.set(slot, name);
      return name;
    }
    throw new GenerationGap(`slot ${slot} has no name in generated code`);
  }

  private position(position: Position): string {
    return this.constant(position);
  }

  /**
   * Fast code records no call positions: when it raises an error, its unit runs again on the
   * general evaluator (it is pure, so that is exact), which reports the error with its position.
   */
  private site(_position: Position): void {}

  /** An integer literal, or a name known to hold integers. */
  private isIntegral(expression: string): boolean {
    return this.integral.has(expression) || /^-?\d+$/.test(expression);
  }

  private truthy(expression: string): string {
    return `(${expression} !== null && ${expression} !== false && ${expression} !== undefined)`;
  }

  // ------------------------------------------------------------------ entry points

  /** Source of the unit function `(frame) => value` for a pure node. */
  unitSource(node: Node): { source: string; constants: unknown[] } {
    const body = this.block(() => this.tail(node, { target: undefined, label: undefined }));
    const reads = [...this.unitFree].map((slot) => `const f_${slot} = frame[${slot}];`);
    const source = [
      '"use strict";',
      "const S = $.site, P = $.P, NOT_PURE = $.NOT_PURE;",
      "const add = $.add, subtract = $.subtract, multiply = $.multiply, call1 = $.call1, call2 = $.call2, INFO = $.INFO;",
      "return function unit(frame) {",
      "const ctx = $.ctx();",
      ...reads,
      ...body,
      "};",
    ].join("\n");
    return { source, constants: this.constants };
  }

  // ------------------------------------------------------------------ statements with a sink

  /** Emits code that delivers `node`'s value to `sink` (or jumps, for recur). */
  private tail(node: Node, sink: Sink): void {
    switch (node.kind) {
      case "if": {
        const test = this.value(node.test);
        const yes = this.block(() => this.tail(node.consequent, sink));
        const no = this.block(() => this.tail(node.alternative, sink));
        this.emit(`if (${this.truthy(test)}) {`);
        this.lines.push(...yes);
        this.emit("} else {");
        this.lines.push(...no);
        this.emit("}");
        return;
      }
      case "do": {
        node.body.forEach((item, index) => {
          if (index === node.body.length - 1) this.tail(item, sink);
          else this.value(item);
        });
        return;
      }
      case "let": {
        const inner = this.block(() => {
          this.bindings(node.bindings);
          this.tail(node.body, sink);
        });
        this.emit("{");
        this.lines.push(...inner);
        this.emit("}");
        return;
      }
      case "loop":
        this.loop(node, sink);
        return;
      case "recur":
        this.recur(node);
        return;
      case "case": {
        const value = this.value(node.value);
        const index = this.temp();
        this.emit(`const ${index} = ${this.constant(node.table)}.get($.hash(${value}));`);
        this.emit(`switch (${index}) {`);
        node.clauses.forEach((clause, clauseIndex) => {
          this.emit(`case ${clauseIndex}: {`);
          this.tail(clause, sink);
          if (sink.label === undefined && sink.target !== undefined) this.emit("break;");
          this.emit("}");
        });
        this.emit("default: {");
        if (node.fallback === undefined) this.deliver("null", sink);
        else this.tail(node.fallback, sink);
        this.emit("}");
        this.emit("}");
        return;
      }
      default:
        this.deliver(this.value(node), sink);
    }
  }

  private deliver(expression: string, sink: Sink): void {
    if (sink.target === undefined) {
      this.emit(`return ${expression};`);
      return;
    }
    this.emit(`${sink.target} = ${expression};`);
    if (sink.label !== undefined) this.emit(`break ${sink.label};`);
  }

  // ------------------------------------------------------------------ values

  /** Emits code computing `node` and returns an expression naming its value. */
  private value(node: Node): string {
    switch (node.kind) {
      case "const":
        return this.literal(node.value);
      case "local":
        return this.nameOf(node.slot);
      case "var": {
        // The common case inline: a bound var outside any pmap branch.
        const spec = this.constant(varSpec(node.name, node.position, node.soft === true));
        const context = this.contextName;
        // The cell of the running program's namespace, remembered on the spec (runtime/var-cell.ts).
        const cell = this.bind(`${spec}.namespace === ${context}.namespace ? ${spec}.cell : null`);
        return this.bind(
          `${context}.branchDefs === undefined && ${cell} !== null && ${cell}.bound ? ${cell}.value : $.readVar(${spec})`,
        );
      }
      case "builtin":
        return this.constant(this.requireBuiltin(node.name));
      case "data":
        return `$.data(${this.contextName}, ${this.constant(node.key)})`;
      case "history":
        return `$.history(${this.contextName}, ${node.index - 1})`;
      case "budget":
        return `$.budget(${this.contextName})`;
      case "and":
      case "or": {
        const result = this.temp();
        const label = this.temp("L");
        this.emit(`let ${result};`);
        const inner = this.block(() => {
          node.items.forEach((item, index) => {
            const value = this.value(item);
            this.emit(`${result} = ${value};`);
            if (index < node.items.length - 1) {
              const stop = node.kind === "and" ? `!${this.truthy(result)}` : this.truthy(result);
              this.emit(`if (${stop}) break ${label};`);
            }
          });
        });
        this.emit(`${label}: {`);
        this.lines.push(...inner);
        this.emit("}");
        return result;
      }
      case "if":
      case "do":
      case "let":
      case "loop":
      case "case": {
        const result = this.temp();
        this.emit(`let ${result};`);
        const label = this.temp("L");
        const inner = this.block(() => this.tail(node, { target: result, label }));
        this.emit(`${label}: {`);
        this.lines.push(...inner);
        this.emit("}");
        return result;
      }
      case "vector": {
        if (node.items.every((item) => item.kind === "const")) {
          return this.constant(Object.freeze(node.items.map((item) => (item as { value: unknown }).value)));
        }
        const items = node.items.map((item) => this.value(item));
        return this.bind(`$.vec([${items.join(", ")}])`);
      }
      case "set": {
        const items = node.items.map((item) => this.value(item));
        return this.bind(`$.set([${items.join(", ")}])`);
      }
      case "map": {
        const flat: string[] = [];
        for (const [key, value] of node.entries) flat.push(this.value(key), this.value(value));
        // {:id x :total y}: distinct keyword keys are their own hash keys, so the pairs are the
        // small map's table as they stand (values/versioned-table.ts), with no builder.
        const keys = node.entries.map(([key]) => (key.kind === "const" ? key.value : undefined));
        if (
          keys.length <= FLAT_LIMIT &&
          keys.every((key) => key instanceof Keyword) &&
          new Set(keys).size === keys.length
        )
          return this.bind(`$.keywordMap([${flat.join(", ")}])`);
        return this.bind(`$.map([${flat.join(", ")}])`);
      }
      case "fn":
        return this.fn(node);
      case "call":
        return this.call(node);
      case "return":
      case "fail": {
        const value = this.value(node.value);
        this.site(node.position);
        this.emit(`throw $.${node.kind === "return" ? "ret" : "fail"}(${value});`);
        return "null";
      }
      case "for":
        return this.forLoop(node);
      case "recur":
        throw new GenerationGap("recur outside tail position reached codegen");
      default:
        throw new GenerationGap(`no generated code for ${node.kind} nodes`);
    }
  }

  private bind(expression: string): string {
    const name = this.temp();
    this.emit(`const ${name} = ${expression};`);
    return name;
  }

  private requireBuiltin(name: string): LispFunction {
    const fn = this.environment.builtin(name);
    if (fn === undefined) throw new GenerationGap(`unknown builtin ${name}`);
    return fn;
  }

  // ------------------------------------------------------------------ calls

  private call(node: Extract<Node, { kind: "call" }>): string {
    const callee = node.callee;
    if (callee.kind === "builtin") {
      const inlined = this.inlineHigherOrder(callee.name, node.args);
      if (inlined !== undefined) return inlined;
    }
    if (callee.kind === "builtin" && node.args.length === 2) {
      const fast = this.binary(callee.name, node.args[0] as Node, node.args[1] as Node, node.position);
      if (fast !== undefined) return fast;
    }
    if (callee.kind === "const" && callee.value instanceof Keyword && node.args.length === 1) {
      return this.field(this.value(node.args[0] as Node), callee.value);
    }
    if (
      callee.kind === "builtin" &&
      node.args.length === 1 &&
      (callee.name === "inc" || callee.name === "dec")
    ) {
      return this.arithmetic(
        callee.name === "inc" ? "+" : "-",
        callee.name === "inc" ? "add" : "subtract",
        this.value(node.args[0] as Node),
        "1",
      );
    }
    if (callee.kind === "builtin") {
      const fn = this.requireBuiltin(callee.name);
      const info = fn[FUNCTION_INFO];
      const args = node.args.map((arg) => this.value(arg));
      this.site(node.position);
      if (args.length < info.minArity || args.length > info.maxArity) {
        return this.bind(`$.callN(${this.constant(fn)}, [${args.join(", ")}])`);
      }
      return this.bind(`${this.constant(fn)}(${args.join(", ")})`);
    }
    const fn = this.value(callee);
    const args = node.args.map((arg) => this.value(arg));
    this.site(node.position);
    // A PTC-Lisp closure is called directly; anything else (keywords, maps, builtins) through call1/2.
    const closure = `typeof ${fn} === "function" && ${fn}[INFO]?.builtin === false`;
    if (args.length === 1) return this.bind(`${closure} ? ${fn}(${args[0]}) : call1(${fn}, ${args[0]})`);
    if (args.length === 2)
      return this.bind(`${closure} ? ${fn}(${args[0]}, ${args[1]}) : call2(${fn}, ${args[0]}, ${args[1]})`);
    return this.bind(`$.callN(${fn}, [${args.join(", ")}])`);
  }

  /**
   * `(:k x)`: a plain host object is read in place (this access site learns the object's shape,
   * which a shared helper could not), everything else goes through the full flexible lookup.
   */
  /**
   * An expression usable as a member-access target: a literal such as `42` is bound to a name
   * first (`42.constructor` does not parse).
   */
  private named(expression: string): string {
    return /^[A-Za-z_$][\w$]*$/.test(expression) ? expression : this.bind(expression);
  }

  private field(value: string, keyword: Keyword): string {
    const target = this.named(value);
    const result = this.temp();
    const name = this.constant(keyword.name);
    if (keyword.direct && !keyword.name.includes("-")) {
      // On a plain object such a keyword has no other spelling to try (map-access.ts, lookup):
      // a missing field is nil at once.
      this.emit(`let ${result};`);
      this.emit(
        `if (typeof ${target} === "object" && ${target} !== null && ${target}.constructor === Object) { ${result} = ${target}[${name}]; if (${result} === undefined) ${result} = null; }`,
      );
      this.emit(`else ${result} = $.field(${target}, ${this.constant(keyword)});`);
    } else if (keyword.direct) {
      this.emit(
        `let ${result} = typeof ${target} === "object" && ${target} !== null && ${target}.constructor === Object ? ${target}[${name}] : undefined;`,
      );
      this.emit(`if (${result} === undefined) ${result} = $.field(${target}, ${this.constant(keyword)});`);
    } else {
      this.emit(`const ${result} = $.field(${target}, ${this.constant(keyword)});`);
    }
    return result;
  }

  /** Two-argument arithmetic and comparison with inline number fast paths. */
  private binary(name: string, left: Node, right: Node, position: Position): string | undefined {
    if (binaryIntrinsic(name) === undefined) return undefined;
    const a = this.value(left);
    const b = this.value(right);
    this.site(position);
    const numbers = `typeof ${a} === "number" && typeof ${b} === "number"`;
    switch (name) {
      case "+":
        return this.arithmetic("+", "add", a, b);
      case "-":
        return this.arithmetic("-", "subtract", a, b);
      case "*":
        return this.arithmetic("*", "multiply", a, b);
      case "<":
        return this.bind(`(${numbers} ? ${a} < ${b} : $.lt(${a}, ${b}))`);
      case ">":
        return this.bind(`(${numbers} ? ${a} > ${b} : $.gt(${a}, ${b}))`);
      case "<=":
        return this.bind(`(${numbers} ? ${a} <= ${b} : $.le(${a}, ${b}))`);
      case ">=":
        return this.bind(`(${numbers} ? ${a} >= ${b} : $.ge(${a}, ${b}))`);
      case "=": {
        // Against a literal string, keyword, boolean or nil, = is identity (strings compare by
        // value in JS, keywords are interned); against a literal integer, only a boxed number
        // (a whole float, a bigint) needs the general equality.
        const literal = left.kind === "const" ? left.value : right.kind === "const" ? right.value : undefined;
        if (left.kind === "const" || right.kind === "const") {
          const other = left.kind === "const" ? b : a;
          if (literal === null) return this.bind(`(${other} === null || ${other} === undefined)`);
          if (typeof literal === "string" || literal instanceof Keyword || typeof literal === "boolean")
            return this.bind(`(${a} === ${b})`);
          if (typeof literal === "number" && Number.isSafeInteger(literal)) {
            return this.bind(`(${a} === ${b} || (typeof ${other} !== "number" && $.eq(${a}, ${b})))`);
          }
        }
        return this.bind(`(${a} === ${b} || $.eq(${a}, ${b}))`);
      }
      case "not=":
        return this.bind(`!$.eq(${a}, ${b})`);
      default:
        return undefined;
    }
  }

  /**
   * `+ - *` inline for plain numbers. The JS result is right unless it is a whole number that is
   * either a float result (an operand was a float: 0.5 + 0.5 is 1.0) or past 2^53; those cases,
   * and anything not a number, go to the full operation.
   */
  private arithmetic(operator: "+" | "-" | "*", full: string, a: string, b: string): string {
    const result = this.temp();
    this.emit(`let ${result};`);
    this.emit(`if (typeof ${a} === "number" && typeof ${b} === "number") {`);
    this.emit(`${result} = ${a} ${operator} ${b};`);
    if (this.isIntegral(a) && this.isIntegral(b)) {
      // Two integers: only an unsafe result needs the full operation (which makes a bigint), and
      // a product can be -0 in JS, which Lisp integers do not have.
      this.emit(`if (!Number.isSafeInteger(${result})) ${result} = ${full}(${a}, ${b});`);
      if (operator === "*") this.emit(`else if (${result} === 0) ${result} = 0;`);
      this.emit(`} else ${result} = ${full}(${a}, ${b});`);
      this.integral.add(result);
      return result;
    }
    this.emit(
      `if (Number.isInteger(${result}) && !(Number.isSafeInteger(${result}) && Number.isInteger(${a}) && Number.isInteger(${b}))) ${result} = ${full}(${a}, ${b});`,
    );
    if (operator === "*") this.emit(`else if (${result} === 0) ${result} = 0;`);
    this.emit(`} else ${result} = ${full}(${a}, ${b});`);
    return result;
  }

  // ------------------------------------------------------------------ bindings and patterns

  private bindings(bindings: readonly Binding[]): void {
    for (const binding of bindings) {
      const value = this.value(binding.init);
      this.pattern(binding.pattern, value);
    }
  }

  /** Binds `pattern` to the value named by `value` (declaring consts in the current block). */
  private pattern(pattern: Pattern, value: string): void {
    switch (pattern.kind) {
      case "bind": {
        const name = this.declare(pattern.slot);
        this.emit(`const ${name} = ${value} === undefined ? null : ${value};`);
        return;
      }
      case "ignore":
        return;
      case "seq": {
        const items = this.bind(`$.seqItems(${value}, ${this.position(pattern.position)})`);
        pattern.items.forEach((item, index) => {
          if (item.kind === "ignore") return;
          this.pattern(item, this.bind(`${items}.length > ${index} ? ${items}[${index}] : null`));
        });
        if (pattern.rest !== undefined)
          this.pattern(pattern.rest, this.bind(`$.rest(${items}, ${pattern.items.length})`));
        return;
      }
      case "map": {
        value = this.named(value);
        this.emit(`$.mapCheck(${value}, ${this.position(pattern.position)});`);
        for (const entry of pattern.entries) {
          const found = this.temp();
          if (entry.key instanceof Keyword && entry.key.direct && !entry.key.name.includes("-")) {
            // The same fast read as (:k value); a missing key stays undefined for :or, and on a
            // plain object there is no other spelling to try.
            const name = this.constant(entry.key.name);
            this.emit(`let ${found};`);
            this.emit(
              `if (typeof ${value} === "object" && ${value} !== null && ${value}.constructor === Object) ${found} = ${value}[${name}];`,
            );
            this.emit(`else ${found} = $.lookup(${value}, ${this.constant(entry.key)});`);
          } else if (entry.key instanceof Keyword && entry.key.direct) {
            // The same fast read as (:k value); a missing key stays undefined for :or.
            const name = this.constant(entry.key.name);
            this.emit(
              `let ${found} = typeof ${value} === "object" && ${value} !== null && ${value}.constructor === Object ? ${value}[${name}] : undefined;`,
            );
            this.emit(
              `if (${found} === undefined) ${found} = $.lookup(${value}, ${this.constant(entry.key)});`,
            );
          } else {
            this.emit(`let ${found} = $.lookup(${value}, ${this.constant(entry.key)});`);
          }
          if (entry.fallback !== undefined) {
            const fallback = entry.fallback;
            const inner = this.block(() => {
              const computed = this.value(fallback);
              this.emit(`${found} = ${computed};`);
            });
            this.emit(`if (${found} === undefined) {`);
            this.lines.push(...inner);
            this.emit("}");
          }
          this.pattern(entry.pattern, found);
        }
        if (pattern.whole !== undefined) this.pattern(pattern.whole, value);
        return;
      }
    }
  }

  // ------------------------------------------------------------------ loops

  private iterate(context: string, position: Position): void {
    this.emit(
      `if (++${context}.iterations > ${context}.limits.maxIterations) $.loopLimit(${context}, ${this.position(position)});`,
    );
    this.emit(`if (--${context}.fuel <= 0) ${context}.refuel();`);
  }

  private loop(node: Extract<Node, { kind: "loop" }>, sink: Sink): void {
    const raw = node.bindings.map(() => this.temp("r"));
    const label = this.temp("L");
    const integralSlots = integralLoopSlots(node, (slot) => {
      const name = this.scope.names.get(slot);
      return name !== undefined && this.integral.has(name);
    });
    const inner = this.block(() => {
      // Bindings are sequential: each init sees the names bound before it.
      node.bindings.forEach((binding, index) => {
        const value = this.value(binding.init);
        this.emit(`let ${raw[index]} = ${value};`);
        this.pattern(binding.pattern, raw[index] as string);
        // The body binds the same name again from the same raw variable, on every iteration.
        if (binding.pattern.kind === "bind" && integralSlots.has(binding.pattern.slot))
          this.integral.add(this.nameOf(binding.pattern.slot));
      });
      this.loops.set(node.target, { label, raw, context: this.contextName, position: node.position });
      const body = this.block(() => {
        node.bindings.forEach((binding, index) => {
          this.pattern(binding.pattern, raw[index] as string);
        });
        this.tail(
          node.body,
          sink.label === undefined && sink.target !== undefined ? { target: sink.target, label } : sink,
        );
      });
      this.emit(`${label}: while (true) {`);
      this.lines.push(...body);
      if (sink.target !== undefined) this.emit(`break ${label};`);
      this.emit("}");
    });
    this.emit("{");
    this.lines.push(...inner);
    this.emit("}");
  }

  private recur(node: Extract<Node, { kind: "recur" }>): void {
    const loop = this.loops.get(node.target);
    if (loop === undefined) throw new GenerationGap("recur without a loop");
    if (node.args.length !== loop.raw.length) {
      this.site(node.position);
      this.emit(
        `throw $.arity(${this.constant({ name: "recur", minArity: loop.raw.length, maxArity: loop.raw.length, position: node.position })}, ${node.args.length});`,
      );
      return;
    }
    const values = node.args.map((arg) => this.value(arg));
    values.forEach((value, index) => {
      this.emit(`${loop.raw[index]} = ${value};`);
    });
    this.iterate(loop.context, loop.position);
    this.emit(`continue ${loop.label};`);
  }

  private forLoop(node: Extract<Node, { kind: "for" }>): string {
    const out = this.temp("out");
    this.emit(`const ${out} = [];`);
    const run = (index: number, breakLabel: string | undefined): void => {
      if (index === node.clauses.length) {
        // A step of work, not an iteration (see comprehension.ts).
        this.emit(`if (--${this.contextName}.fuel <= 0) ${this.contextName}.refuel();`);
        const value = this.value(node.body);
        if (node.collect) this.emit(`${out}.push(${value});`);
        return;
      }
      const clause = node.clauses[index] as ForClause;
      switch (clause.kind) {
        case "bind": {
          const pattern = clause.pattern as Pattern;
          const collection = this.value(clause.init as Node);
          const items = this.bind(
            `$.items(${collection}, ${this.position(clause.position)}, ${this.constant(pattern.kind === "bind" ? pattern.name : "pattern")})`,
          );
          const i = this.temp("i");
          const label = this.temp("L");
          const body = this.block(() => {
            this.pattern(pattern, this.bind(`${items}[${i}]`));
            run(index + 1, label);
          });
          this.emit(`${label}: for (let ${i} = 0; ${i} < ${items}.length; ${i}++) {`);
          this.lines.push(...body);
          this.emit("}");
          return;
        }
        case "let": {
          const body = this.block(() => {
            this.bindings(clause.bindings ?? []);
            run(index + 1, breakLabel);
          });
          this.emit("{");
          this.lines.push(...body);
          this.emit("}");
          return;
        }
        case "when":
        case "while": {
          const test = this.value(clause.test as Node);
          const body = this.block(() => run(index + 1, breakLabel));
          this.emit(`if (${this.truthy(test)}) {`);
          this.lines.push(...body);
          this.emit("}");
          if (clause.kind === "while" && breakLabel !== undefined) this.emit(`else break ${breakLabel};`);
          return;
        }
      }
    };
    const body = this.block(() => run(0, undefined));
    this.emit("{");
    this.lines.push(...body);
    this.emit("}");
    return node.collect ? this.bind(`$.vec(${out})`) : "null";
  }

  // ------------------------------------------------------------------ inlined callbacks

  /**
   * `(map (fn [x] ...) coll)`, `(filter #(...) coll)`, `(reduce (fn [acc x] ...) init coll)` with a
   * literal function: one loop with the function's body inline, as a JS programmer would write it,
   * instead of a call per item through the function's entry checks. The builtin's charges (work up
   * front, a clock read every 1,024 items, the result vector) are the same. Anything unusual
   * (a collection that is not one, an error in the body) raises an error, and the unit runs
   * again on the general evaluator, which calls the real builtin.
   */
  private inlineHigherOrder(name: string, args: readonly Node[]): string | undefined {
    switch (name) {
      case "map":
      case "mapv":
      case "filter":
      case "remove": {
        const fn = args.length === 2 ? inlinable(args[0] as Node, 1) : undefined;
        if (fn === undefined) return undefined;
        const items = this.bind(`$.collection(${this.value(args[1] as Node)})`);
        return name === "map" || name === "mapv"
          ? this.inlineMap(fn, items)
          : this.inlineSelect(fn, items, name === "filter");
      }
      case "reduce": {
        const fn = args.length === 3 ? inlinable(args[0] as Node, 2) : undefined;
        // A function that only conjes onto its accumulator is left to the builtin, which lets
        // conj append in place (runtime/owned-vector.ts).
        if (fn === undefined || ownedAccumulator(fn)) return undefined;
        const init = this.value(args[1] as Node);
        const items = this.bind(`$.collection(${this.value(args[2] as Node)})`);
        return this.inlineReduce(fn, init, items);
      }
      case LAZY_PIPELINE:
        return this.fusedPipeline(args);
      default:
        return undefined;
    }
  }

  // ------------------------------------------------------------------ fused lazy pipelines

  /**
   * `(take n (map f (partition 2 (interleave xs ys))))` and the like (analyzer/pipelines.ts) as one
   * loop over the source, each stage inline, leaving the loop as soon as the consumer has what it
   * needs: what a JS programmer writes by hand. Only the common shapes (a chain of one-input stages,
   * interleave of two one-to-one chains, partition without padding, vector sources); anything else
   * calls the lazy-pipeline builtin. The happy path only: a source that is not a vector, a count
   * that is not an integer, an error, raise an error, and the unit runs again on the general
   * evaluator, where the builtin does exactly what the program says.
   */
  private fusedPipeline(args: readonly Node[]): string | undefined {
    const planNode = args[0];
    // A program naming the internal builtin itself gets the builtin, and its error.
    if (planNode?.kind !== "const" || !isPipelinePlan(planNode.value)) return undefined;
    const plan = planNode.value;
    const valueNodes = args.slice(1);
    const source = plan.args[plan.args.length - 1];
    if (typeof source !== "object" || !fusable(source, valueNodes)) return undefined;
    if (plan.op !== "take" && plan.op !== "first") return undefined;
    // Every value in program order, except literal fns that will be inlined (making one has no
    // effect) and the builtins of the stages (not needed here).
    const builtinIndexes = new Set<number>();
    const collectBuiltins = (stage: PipelinePlan): void => {
      builtinIndexes.add(stage.fn);
      for (const arg of stage.args) if (typeof arg === "object") collectBuiltins(arg);
    };
    collectBuiltins(plan);
    const names = valueNodes.map((node, index) =>
      builtinIndexes.has(index) || inlinableCallback(node) ? undefined : this.value(node),
    );
    const label = this.temp("P");
    if (plan.op === "take") {
      const count = names[plan.args[0] as number] as string;
      const out = this.temp("out");
      this.emit(`if (typeof ${count} !== "number" || !Number.isInteger(${count})) throw $.notFused();`);
      this.emit(`const ${out} = [];`);
      const body = this.block(() =>
        this.stream(source, valueNodes, names, (item) => {
          this.emit(`${out}.push(${item});`);
          this.emit(`if (${out}.length >= ${count}) break ${label};`);
        }),
      );
      this.emit(`${label}: if (${count} > 0) {`);
      this.lines.push(...body);
      this.emit("}");
      return this.bind(`$.vec(${out})`);
    }
    const first = this.temp("first");
    this.emit(`let ${first} = null;`);
    const body = this.block(() =>
      this.stream(source, valueNodes, names, (item) => {
        this.emit(`${first} = ${item};`);
        this.emit(`break ${label};`);
      }),
    );
    this.emit(`${label}: {`);
    this.lines.push(...body);
    this.emit("}");
    return first;
  }

  /** Emits a loop producing the items of `stage`, handing each (a name) to `sink`. */
  private stream(
    stage: PipelinePlan,
    valueNodes: readonly Node[],
    names: ReadonlyArray<string | undefined>,
    sink: (item: string) => void,
  ): void {
    const callback = (index: number, arity: number): ((items: string[]) => string) => {
      const node = valueNodes[index] as Node;
      const fn = inlinable(node, arity);
      if (fn !== undefined) return (items) => this.inlineBody(fn, items);
      if (arity === 1 && node.kind === "const" && node.value instanceof Keyword) {
        const keyword = node.value;
        return ([item]) => this.field(item as string, keyword);
      }
      const f = this.bind(`$.callback(${names[index]})`);
      return (items) => this.bind(`$.answer(${f}(${items.join(", ")}))`);
    };
    const input = stage.args[stage.args.length - 1] as number | PipelinePlan;
    const upstream = (inner: (item: string) => void): void => {
      if (typeof input === "number") this.sourceLoop(names[input] as string, inner);
      else this.stream(input, valueNodes, names, inner);
    };
    switch (stage.op) {
      case "map": {
        const f = callback(stage.args[0] as number, 1);
        upstream((item) => sink(f([item])));
        return;
      }
      case "filter":
      case "remove": {
        const pred = callback(stage.args[0] as number, 1);
        upstream((item) => {
          const test = pred([item]);
          const body = this.block(() => sink(item));
          this.emit(`if (${stage.op === "filter" ? "" : "!"}${this.truthy(test)}) {`);
          this.lines.push(...body);
          this.emit("}");
        });
        return;
      }
      case "keep": {
        const f = callback(stage.args[0] as number, 1);
        upstream((item) => {
          const result = f([item]);
          const body = this.block(() => sink(result));
          this.emit(`if (${result} !== null && ${result} !== undefined) {`);
          this.lines.push(...body);
          this.emit("}");
        });
        return;
      }
      case "map-indexed": {
        const index = this.temp("k");
        this.emit(`let ${index} = 0;`);
        const f = callback(stage.args[0] as number, 2);
        upstream((item) => sink(f([this.bind(`${index}++`), item])));
        return;
      }
      case "partition": {
        const size = this.bind(`$.positive(${names[stage.args[0] as number]})`);
        const step =
          stage.args.length === 3 ? this.bind(`$.positive(${names[stage.args[1] as number]})`) : size;
        const window = this.temp("w");
        const skip = this.temp("skip");
        this.emit(`let ${window} = [];`);
        this.emit(`let ${skip} = 0;`);
        upstream((item) => {
          const chunk = this.temp("chunk");
          const body = this.block(() => sink(chunk));
          this.emit(`if (${skip} > 0) ${skip}--;`);
          this.emit(`else {`);
          this.emit(`${window}.push(${item});`);
          this.emit(`if (${window}.length === ${size}) {`);
          this.emit(`$.chargeVector(${size});`);
          this.emit(`let ${chunk};`);
          this.emit(
            `if (${step} >= ${size}) { ${chunk} = ${window}; ${window} = []; ${skip} = ${step} - ${size}; }`,
          );
          this.emit(
            `else { ${chunk} = ${window}.slice(); ${window}.copyWithin(0, ${step}); ${window}.length = ${size} - ${step}; }`,
          );
          this.lines.push(...body);
          this.emit("}");
          this.emit("}");
        });
        return;
      }
      case "interleave": {
        // Two one-to-one chains (maps only) over vectors, in lockstep.
        const sides = [stage.args[0], stage.args[1]] as [number | PipelinePlan, number | PipelinePlan];
        const chains = sides.map((side) => oneToOne(side));
        const sources = chains.map((chain) => this.bind(`$.lazySource(${names[chain.source]})`));
        // The maps of each chain, innermost first, prepared before the loop.
        const maps = chains.map((chain) => chain.maps.map((mapIndex) => callback(mapIndex, 1)));
        const j = this.temp("j");
        const body = this.block(() => {
          this.emit(`if (--${this.contextName}.fuel <= 0) ${this.contextName}.refuel();`);
          chains.forEach((_chain, side) => {
            const raw = this.bind(`${sources[side]}[${j}]`);
            let item = this.bind(`${raw} === undefined ? null : ${raw}`);
            for (const apply of maps[side] as Array<(items: string[]) => string>) item = apply([item]);
            sink(item);
          });
        });
        this.emit(
          `for (let ${j} = 0, n = Math.min(${sources[0]}.length, ${sources[1]}.length); ${j} < n; ${j}++) {`,
        );
        this.lines.push(...body);
        this.emit("}");
        return;
      }
      default:
        throw new GenerationGap(`no fused code for ${stage.op}`);
    }
  }

  /** A loop over a vector source, one fuel unit per item. */
  private sourceLoop(value: string, sink: (item: string) => void): void {
    const items = this.bind(`$.lazySource(${value})`);
    const i = this.temp("i");
    const body = this.block(() => {
      this.emit(`if (--${this.contextName}.fuel <= 0) ${this.contextName}.refuel();`);
      const raw = this.bind(`${items}[${i}]`);
      sink(this.bind(`${raw} === undefined ? null : ${raw}`));
    });
    this.emit(`for (let ${i} = 0; ${i} < ${items}.length; ${i}++) {`);
    this.lines.push(...body);
    this.emit("}");
  }

  /**
   * Emits the body of `fn` for the given argument expressions and returns the name holding its
   * value. The body gets a scope of its own (its captures are the enclosing names) but stays in
   * the enclosing JS function: same run context, no depth or fuel of its own (the loop charges).
   */
  private inlineBody(fn: Extract<Node, { kind: "fn" }>, argumentNames: readonly string[]): string {
    const outer = this.scope;
    const scope = new Scope(outer.id + 1 + this.counter++, outer, undefined);
    fn.captures.forEach((capture) => {
      scope.names.set(capture.inner, this.nameOf(capture.outer));
    });
    const result = this.temp("res");
    const label = this.temp("L");
    this.emit(`let ${result};`);
    this.scope = scope;
    try {
      const body = this.block(() => {
        fn.target.rawSlots.forEach((slot, index) => {
          const pattern = fn.params[index];
          const argument = argumentNames[index] as string;
          if (pattern?.kind === "bind" && pattern.slot === slot) this.pattern(pattern, argument);
          // Destructuring parameters are bound by the let the analyzer wrapped around the body.
          else scope.names.set(slot, argument);
        });
        this.tail(fn.body, { target: result, label });
      });
      this.emit(`${label}: {`);
      this.lines.push(...body);
      this.emit("}");
    } finally {
      this.scope = outer;
    }
    return result;
  }

  private clockEvery(index: string): void {
    this.emit(`if ((${index} & 1023) === 1023) ${this.contextName}.work(1024);`);
  }

  private inlineMap(fn: Extract<Node, { kind: "fn" }>, items: string): string {
    const out = this.temp("out");
    const i = this.temp("i");
    this.emit(`${this.contextName}.work(${items}.length);`);
    this.emit(`const ${out} = $.vec(new Array(${items}.length));`);
    const body = this.block(() => {
      const item = this.bind(`${items}[${i}]`);
      const value = this.inlineBody(fn, [this.bind(`${item} === undefined ? null : ${item}`)]);
      this.emit(`${out}[${i}] = ${value} === undefined ? null : ${value};`);
      this.clockEvery(i);
    });
    this.emit(`for (let ${i} = 0; ${i} < ${items}.length; ${i}++) {`);
    this.lines.push(...body);
    this.emit("}");
    return out;
  }

  private inlineSelect(fn: Extract<Node, { kind: "fn" }>, items: string, wanted: boolean): string {
    const out = this.temp("out");
    const i = this.temp("i");
    this.emit(`${this.contextName}.work(${items}.length);`);
    this.emit(`const ${out} = [];`);
    const body = this.block(() => {
      const item = this.bind(`${items}[${i}]`);
      const value = this.inlineBody(fn, [this.bind(`${item} === undefined ? null : ${item}`)]);
      const test = wanted ? this.truthy(value) : `!${this.truthy(value)}`;
      this.emit(`if (${test}) ${out}.push(${item});`);
      this.clockEvery(i);
    });
    this.emit(`for (let ${i} = 0; ${i} < ${items}.length; ${i}++) {`);
    this.lines.push(...body);
    this.emit("}");
    return this.bind(`$.vec(${out})`);
  }

  private inlineReduce(fn: Extract<Node, { kind: "fn" }>, init: string, items: string): string {
    const acc = this.temp("acc");
    const i = this.temp("i");
    // Detached, as the builtin does: the caller's hold on an initial map keeps no history alive.
    this.emit(`let ${acc} = $.detach(${init});`);
    this.emit(`${this.contextName}.work(${items}.length);`);
    const body = this.block(() => {
      const item = this.bind(`${items}[${i}]`);
      const value = this.inlineBody(fn, [acc, this.bind(`${item} === undefined ? null : ${item}`)]);
      this.emit(`${acc} = ${value} === undefined ? null : ${value};`);
      this.clockEvery(i);
    });
    this.emit(`for (let ${i} = 0; ${i} < ${items}.length; ${i}++) {`);
    this.lines.push(...body);
    this.emit("}");
    return acc;
  }

  // ------------------------------------------------------------------ functions

  private fn(node: Extract<Node, { kind: "fn" }>): string {
    const outer = this.scope;
    const scope = new Scope(outer.id + 1 + this.counter++, outer, undefined);
    // Captured locals are the enclosing function's variables (all consts: see loop()).
    const capturedNames = node.captures.map((capture) => this.nameOf(capture.outer));
    node.captures.forEach((capture, index) => {
      scope.names.set(capture.inner, capturedNames[index] as string);
    });
    const functionName = this.temp("fn");
    if (node.selfSlot !== undefined) scope.names.set(node.selfSlot, functionName);

    const fixed = node.params.length;
    const variadic = node.rest !== undefined;
    const params = Array.from({ length: fixed }, (_, index) => `a${index}`);
    const info = {
      name: node.name,
      signature: node.signature,
      builtin: false,
      minArity: fixed,
      maxArity: variadic ? Number.POSITIVE_INFINITY : fixed,
      ownedAccumulator: ownedAccumulator(node),
      position: node.position,
    };
    const slow: SlowFunctionSpec = {
      make: this.environment.slowFunction(node),
      outerSlots: node.captures.map((capture) => capture.outer),
    };

    const savedScope = this.scope;
    const savedContext = this.contextName;
    this.scope = scope;
    this.contextName = this.temp("ctx");
    const context = this.contextName;
    const result = this.temp("res");
    const label = this.temp("L");
    const raw = node.target.rawSlots.map(() => this.temp("r"));
    const body = this.block(() => {
      this.loops.set(node.target, { label, raw, context, position: node.position });
      // Plain parameters are bound here on every pass; destructuring parameters are bound by the
      // `let` the analyzer wrapped around the body, which reads the raw slots.
      node.target.rawSlots.forEach((slot, index) => {
        const pattern = index < fixed ? node.params[index] : node.rest;
        if (pattern?.kind === "bind" && pattern.slot === slot) this.pattern(pattern, raw[index] as string);
        else scope.names.set(slot, raw[index] as string);
      });
      this.tail(node.body, { target: result, label });
    });
    this.scope = savedScope;
    this.contextName = savedContext;

    const restParam = variadic ? (fixed > 0 ? ", ...rest" : "...rest") : "";
    const arityTest = variadic ? `arguments.length < ${fixed}` : `arguments.length !== ${fixed}`;
    const infoConstant = this.constant(info);
    const restValue = node.restAsMap ? `$.restMap(rest, ${this.position(node.position)})` : "rest";
    const rawInit = [
      ...params.map((param, index) => `let ${raw[index]} = ${param} === undefined ? null : ${param};`),
    ];
    if (variadic) rawInit.push(`let ${raw[fixed]} = ${restValue};`);
    const source = [
      `$.fn(function ${functionName}(${params.join(", ")}${restParam}) {`,
      `if (${arityTest}) throw $.arity(${infoConstant}, arguments.length);`,
      `const ${context} = $.ctx();`,
      // Saved, not decremented, on the way out of a throw: closures of the general evaluator
      // unwound by the same throw leave the count raised (closures.ts).
      `const depth = ${context}.depth;`,
      `if (++${context}.depth > ${context}.limits.maxDepth) throw $.depth(${context}, ${this.position(node.position)});`,
      `if (--${context}.fuel <= 0) ${context}.refuel();`,
      "const wasPure = P.on;",
      "P.on = true;",
      `let ${result};`,
      "try {",
      ...rawInit,
      `${label}: while (true) {`,
      ...body,
      `break ${label};`,
      "}",
      "} catch (error) {",
      "P.on = wasPure;",
      `${context}.depth = depth;`,
      "if (wasPure || !$.rerun(error)) throw error;",
      `return $.deopt(${this.constant(slow)}, [${capturedNames.join(", ")}], [${[...params, ...(variadic ? ["...rest"] : [])].join(", ")}]);`,
      "}",
      "P.on = wasPure;",
      `${context}.depth--;`,
      `return ${result};`,
      `}, ${infoConstant})`,
    ];
    return this.bind(source.join("\n"));
  }
}

/**
 * A literal fn whose body can be inlined as the callback of a builtin called with `arity`
 * arguments: fixed parameters, no name (so no self reference) and no `recur` to itself.
 */
export function inlinable(node: Node, arity: number): Extract<Node, { kind: "fn" }> | undefined {
  if (node.kind !== "fn" || node.rest !== undefined || node.selfSlot !== undefined) return undefined;
  if (node.params.length !== arity || recursOutward(node.body)) return undefined;
  return node;
}

function isPipelinePlan(value: unknown): value is PipelinePlan {
  return typeof value === "object" && value !== null && "op" in value && "args" in value && "fn" in value;
}

/** A callback value that a fused pipeline inlines instead of evaluating (a literal fn). */
function inlinableCallback(node: Node): boolean {
  return node.kind === "fn" && (inlinable(node, 1) !== undefined || inlinable(node, 2) !== undefined);
}

/** A stream of maps over a vector source: its source index and its maps, innermost first. */
function oneToOne(stage: number | PipelinePlan): { source: number; maps: number[] } {
  if (typeof stage === "number") return { source: stage, maps: [] };
  const inner = oneToOne(stage.args[1] as number | PipelinePlan);
  return { source: inner.source, maps: [...inner.maps, stage.args[0] as number] };
}

function isOneToOne(stage: number | PipelinePlan): boolean {
  if (typeof stage === "number") return true;
  return stage.op === "map" && stage.args.length === 2 && isOneToOne(stage.args[1] as number | PipelinePlan);
}

/**
 * Whether the fused code covers a stage and everything below it: one-input stages, partition
 * without padding, interleave of one-to-one chains. The callbacks themselves may be anything.
 */
function fusable(stage: PipelinePlan, valueNodes: readonly Node[]): boolean {
  const input = stage.args[stage.args.length - 1] as number | PipelinePlan;
  const below = typeof input === "number" || fusable(input, valueNodes);
  switch (stage.op) {
    case "map":
      return stage.args.length === 2 && below;
    case "filter":
    case "remove":
    case "keep":
    case "map-indexed":
      return below;
    case "partition":
      return stage.args.length <= 3 && below;
    case "interleave":
      return isOneToOne(stage.args[0] as number | PipelinePlan) && isOneToOne(input);
    default:
      return false;
  }
}

type Factory = (runtime: CodegenRuntime, constants: unknown[]) => Code;

/**
 * Factories by source text. The same program compiles to the same text (its values live in K), so
 * running it again reuses the factory, and with it the machine code V8 already optimized for it:
 * a new `new Function` would start cold every time.
 */
const factories = new Map<string, Factory>();
const MAX_FACTORIES = 512;

function factoryFor(source: string): Factory {
  let factory = factories.get(source);
  if (factory === undefined) {
    // A debugging aid for work on the generator (docs/contributing-special-forms.md).
    if (typeof process !== "undefined" && process.env?.PTC_LISP_DUMP_CODEGEN === "1") console.error(source);
    try {
      factory = new Function("$", "K", source) as Factory;
    } catch (error) {
      // Source that does not parse is a generator bug: the unit runs on the general evaluator.
      throw new GenerationGap(`generated source does not parse: ${String(error)}`, { cause: error });
    }
    if (factories.size >= MAX_FACTORIES) factories.delete(factories.keys().next().value as string);
    factories.set(source, factory);
  } else {
    // Keep recently used factories: move to the end of the eviction order.
    factories.delete(source);
    factories.set(source, factory);
  }
  return factory;
}

/** The JS source the fast tier generates for a node (for tests and inspection). */
export function generateUnitSource(node: Node, builtin: CodegenEnvironment["builtin"]): string {
  const environment: CodegenEnvironment = {
    builtin,
    slowFunction: () => () => {
      throw new Error("not for running");
    },
  };
  return new Generator(environment).unitSource(node).source;
}

interface CompiledUnit {
  readonly fast: Code;
}

/**
 * Compiles a pure node to a fast unit with the general evaluator's code (`compileSlow`) as its
 * fallback.
 * The returned code runs fast in pure mode, and falls back (and after a few fallbacks, stays on
 * the general evaluator) when the unit meets an effect.
 */
export function compileUnit(node: Node, compileSlow: () => Code, environment: CodegenEnvironment): Code {
  const generator = new Generator(environment);
  const { source, constants } = generator.unitSource(node);
  const fast = factoryFor(source)(codegenRuntime, constants);
  fastTierStats.unitsGenerated++;
  // The general version is compiled only if this unit ever needs it.
  let slowCode: Code | undefined;
  const slow: Code = (frame) => {
    slowCode ??= compileSlow();
    return slowCode(frame);
  };
  const { P: pure } = codegenRuntime;
  let fallbacks = 0;
  return (frame) => {
    if (fallbacks > 3) {
      fastTierStats.effectFallbacks++;
      return slow(frame);
    }
    const wasPure = pure.on;
    pure.on = true;
    const depth = codegenRuntime.ctx().depth;
    try {
      const value = fast(frame);
      fastTierStats.fastRuns++;
      return value;
    } catch (error) {
      if (wasPure || !codegenRuntime.rerun(error)) throw error;
      // Closures unwound by the throw left the depth count raised (closures.ts).
      codegenRuntime.ctx().depth = depth;
      if (error === codegenRuntime.NOT_PURE) fallbacks++;
      pure.on = false;
      return slow(frame);
    } finally {
      pure.on = wasPure;
    }
  };
}

export type { CompiledUnit };
