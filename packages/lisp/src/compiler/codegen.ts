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
import type { Binding, Node, Pattern, RecurTarget } from "../analyzer/ast.js";
import { LAZY_PIPELINE } from "../analyzer/pipelines.js";
import type { Position } from "../reader/form.js";
import { varSpec } from "../runtime/var-cell.js";
import { Keyword } from "../values/keyword.js";
import { FUNCTION_INFO, type LispFunction } from "../values/lisp-function.js";
import { plainObjectTest } from "../values/plain-object.js";
import { FLAT_LIMIT } from "../values/versioned-table.js";
import { ownedAccumulator } from "./accumulator-use.js";
import { forComprehension } from "./codegen-for.js";
import {
  type FunctionParts,
  functionBodyLines,
  functionEntrySource,
  type SelfEntry,
  selfCallExpression,
  varCallHelperLines,
} from "./codegen-functions.js";
import { inlineHigherOrder, type LoopEmitter } from "./codegen-loops.js";
import { arithmetic, binaryCall } from "./codegen-numbers.js";
import { bindAll, bindPattern } from "./codegen-patterns.js";
import type { SlowFunctionSpec } from "./codegen-runtime.js";
import { GenerationGap } from "./fast-tier.js";
import { fusedPipeline } from "./fused-pipelines.js";
import { integralLoopSlots } from "./integral.js";
import { isLeafLoop } from "./leaf-loops.js";
import { isResumedLoop, RESUME_CHUNK } from "./resume-nodes.js";
import { specializedCall } from "./specialized-calls.js";

export interface CodegenEnvironment {
  readonly builtin: (name: string) => LispFunction | undefined;

  /** The general evaluator's closure maker for a fn node (for deoptimization). */
  readonly slowFunction: (node: Extract<Node, { kind: "fn" }>) => (outer: unknown[]) => LispFunction;
}

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
  /** A leaf loop's local count of iterations (leaf-loops.ts), stored into the context on exit. */
  readonly counter?: string | undefined;
  /**
   * A resumed loop's count of jumps since its entry, and the frame slots its state goes back to
   * every RESUME_CHUNK jumps (resume-nodes.ts).
   */
  readonly chunk?: { readonly count: string; readonly slots: readonly number[] } | undefined;
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

/** Writes the JavaScript of a pure node (a unit); codegen-units.ts turns it into running code. */
export class Generator implements LoopEmitter {
  private readonly constants: unknown[] = [];
  private readonly constantIndex = new Map<unknown, number>();
  private lines: string[] = [];
  private counter = 0;
  private scope: Scope;
  private readonly loops = new Map<RecurTarget, LoopInfo>();
  /** Labels a `recur` jumps back to (a function's body is a loop only if its label is here). */
  private readonly jumpedTo = new Set<string>();
  /** JS names known to hold Lisp integers (numbers or bigints, never floats): see integral.ts. */
  private readonly integral = new Set<string>();
  /**
   * Names whose value is never undefined (arithmetic results, normalized loop variables): they
   * need no `=== undefined ? null` when bound. Skipping it matters beyond the test itself: a
   * variable that may hold null as well as a number is one V8 keeps boxed, a number per step.
   */
  private readonly defined = new Set<string>();
  /** Names that hold only true or false (see markBoolean). */
  private readonly booleans = new Set<string>();
  /** Per result variable of a block: whether every value delivered to it so far was defined. */
  private readonly deliveredDefined = new Map<string, boolean>();
  contextName = "ctx";
  /** See LoopEmitter: set by inlineFold (codegen-loops.ts) while it inlines a reduce fn's body. */
  nestedUpdates: LoopEmitter["nestedUpdates"] = undefined;
  /** See LoopEmitter: set by fused-pipelines.ts while it writes a `map` stage. */
  readonly freshUpdates: LoopEmitter["freshUpdates"] = new Map();
  /**
   * The generated function whose body is being written: a call in it that turns out, at run
   * time, to call that same function (a self-recursive `defn` through its var, a named `fn`
   * through its own name) enters its body directly, past the entry's pure-mode switch and
   * fallback handler, which the outermost call already holds.
   */
  private enclosingFn: SelfEntry | undefined;
  /** The unit's root when it is a resumed loop (unitSource): its jumps are counted in chunks. */
  private chunkedLoop: Node | undefined;

  constructor(
    private readonly environment: CodegenEnvironment,
    readonly unitFree = new Set<number>(),
  ) {
    this.scope = new Scope(0, undefined, unitFree);
  }

  // ------------------------------------------------------------------ helpers

  constant(value: unknown): string {
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

  temp(prefix = "t"): string {
    return `${prefix}${++this.counter}`;
  }

  emit(line: string): void {
    this.lines.push(line);
  }

  emitAll(lines: readonly string[]): void {
    this.lines.push(...lines);
  }

  /** Runs `body` collecting its lines, and returns them (for nested blocks). */
  block(body: () => void): string[] {
    const saved = this.lines;
    this.lines = [];
    try {
      body();
      return this.lines;
    } finally {
      this.lines = saved;
    }
  }

  /** A new JS name for a local of the current scope, bound to its slot. */
  declare(slot: number): string {
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

  /** Whether `expression` is known never to be undefined (see `defined`). */
  isDefined(expression: string): boolean {
    return (
      this.defined.has(expression) ||
      /^-?\d/.test(expression) ||
      /^K\[\d+\]$/.test(expression) ||
      expression === "null" ||
      expression === "true" ||
      expression === "false"
    );
  }

  /** Records that a name (assigned only defined values) is never undefined. */
  markDefined(name: string): void {
    this.defined.add(name);
  }

  /** `expression`, with undefined read as nil unless it is known to be defined. */
  normalized(expression: string): string {
    return this.isDefined(expression) ? expression : `${expression} === undefined ? null : ${expression}`;
  }

  /** An integer literal, or a name known to hold integers. */
  isIntegral(expression: string): boolean {
    return this.integral.has(expression) || /^-?\d+$/.test(expression);
  }

  /** Records that a name (assigned only integers) holds integers. */
  markIntegral(name: string): void {
    this.integral.add(name);
  }

  /** Records that a name holds a JS boolean (a comparison's result): its truth needs one test. */
  markBoolean(name: string): void {
    this.booleans.add(name);
  }

  truthy(expression: string): string {
    if (this.booleans.has(expression)) return expression;
    return `(${expression} !== null && ${expression} !== false && ${expression} !== undefined)`;
  }

  // ------------------------------------------------------------------ entry points

  /**
   * Source of the unit function `(frame) => value` for a pure node. `chunked`: the node is a
   * resumed loop whose code may answer RESUME_AGAIN instead (resume-nodes.ts).
   */
  unitSource(node: Node): { source: string; constants: unknown[]; chunked: boolean } {
    const chunked = isResumedLoop(node);
    if (chunked) this.chunkedLoop = node;
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
    return { source, constants: this.constants, chunked };
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
    const target = sink.target;
    this.deliveredDefined.set(
      target,
      (this.deliveredDefined.get(target) ?? true) && this.isDefined(expression),
    );
    this.emit(`${target} = ${expression};`);
    if (sink.label !== undefined) this.emit(`break ${sink.label};`);
  }

  // ------------------------------------------------------------------ values

  /** Emits code computing `node` and returns an expression naming its value. */
  value(node: Node): string {
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

  bind(expression: string): string {
    const name = this.temp();
    this.emit(`const ${name} = ${expression};`);
    return name;
  }

  /** Whether `name` is a builtin that takes `count` arguments. */
  builtinAccepts(name: string, count: number): boolean {
    const fn = this.environment.builtin(name);
    if (fn === undefined) return false;
    const info = fn[FUNCTION_INFO];
    return count >= info.minArity && count <= info.maxArity;
  }

  /** A call of builtin `name` on values already computed, with the inline arithmetic of `+ - * inc dec`. */
  builtinWith(name: string, args: readonly string[]): string {
    if (args.length === 2 && (name === "+" || name === "-" || name === "*")) {
      const full = name === "+" ? "add" : name === "-" ? "subtract" : "multiply";
      return arithmetic(this, name, full, args[0] as string, args[1] as string);
    }
    if (args.length === 1 && (name === "inc" || name === "dec"))
      return arithmetic(
        this,
        name === "inc" ? "+" : "-",
        name === "inc" ? "add" : "subtract",
        args[0] as string,
        "1",
      );
    return this.bind(`${this.constant(this.requireBuiltin(name))}(${args.join(", ")})`);
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
      const inlined =
        callee.name === LAZY_PIPELINE
          ? fusedPipeline(this, node.args)
          : inlineHigherOrder(this, callee.name, node.args);
      if (inlined !== undefined) return inlined;
      const special = specializedCall(this, callee.name, node.args, node.position);
      if (special !== undefined) return special;
    }
    if (callee.kind === "builtin" && node.args.length === 2) {
      const fast = binaryCall(this, callee.name, node.args[0] as Node, node.args[1] as Node);
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
      return arithmetic(
        this,
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
    const self = this.enclosingFn;
    if (self !== undefined && self.arity === node.args.length && callee.kind === "var") {
      return this.callThroughVar(self, callee, node.args, node.position);
    }
    const fn = this.value(callee);
    const args = node.args.map((arg) => this.value(arg));
    this.site(node.position);
    if (self !== undefined && self.arity === args.length && callee.kind === "local") {
      const body = `${self.body}(${[self.context, ...args].join(", ")})`;
      // A named fn calling itself by its own name: known at generation time.
      if (fn === self.value) return this.bind(body);
      // The function being written, found as itself or as the general closure it is the twin of.
      const same = `${fn} === ${self.value} || (typeof ${fn} === "function" && ${fn}[$.TWIN] === ${self.value})`;
      const generic = `typeof ${fn} === "function" && ${fn}[INFO]?.builtin === false ? ${fn}(${args.join(", ")}) : $.callN(${fn}, [${args.join(", ")}])`;
      return this.bind(`${same} ? ${body} : ${generic}`);
    }
    // A PTC-Lisp closure is called directly; anything else (keywords, maps, builtins) through call1/2.
    const closure = `typeof ${fn} === "function" && ${fn}[INFO]?.builtin === false`;
    if (args.length === 1) return this.bind(`${closure} ? ${fn}(${args[0]}) : call1(${fn}, ${args[0]})`);
    if (args.length === 2)
      return this.bind(`${closure} ? ${fn}(${args[0]}, ${args[1]}) : call2(${fn}, ${args[0]}, ${args[1]})`);
    return this.bind(`$.callN(${fn}, [${args.join(", ")}])`);
  }

  /**
   * A call through a var in the body of a generated function that may be the function itself
   * (a self-recursive `defn`). Until the var's flag (SelfEntry.selfVars) is set, the var is read
   * and tested as before, in the same order (the var, then the arguments); once a call has found
   * the function there, the flag stands for that read until the next entry clears it.
   */
  private callThroughVar(
    self: SelfEntry,
    callee: Extract<Node, { kind: "var" }>,
    argNodes: readonly Node[],
    position: Position,
  ): string {
    let flag = self.selfVars.get(callee.name);
    if (flag === undefined) {
      flag = this.temp("self");
      self.selfVars.set(callee.name, flag);
    }
    const fn = this.temp();
    const helper = this.temp("via");
    const read = this.block(() => this.emit(`${fn} = ${this.value(callee)};`));
    const params = argNodes.map(() => this.temp("p"));
    self.helpers.push(...varCallHelperLines(self, flag, helper, fn, params, read));
    const args = argNodes.map((arg) => this.value(arg));
    this.site(position);
    return this.bind(selfCallExpression(self, flag, helper, args));
  }

  /**
   * An expression usable as a member-access target: a literal such as `42` is bound to a name
   * first (`42.constructor` does not parse).
   */
  named(expression: string): string {
    return /^[A-Za-z_$][\w$]*$/.test(expression) ? expression : this.bind(expression);
  }

  /**
   * `raw`: a missing field of a plain object may be left undefined (the name is then not known
   * to be defined, so a consumer that needs nil normalizes it): for comparisons, which treat
   * undefined as nil on their fast path, and for which the test per row costs V8 the type it knew.
   */
  /**
   * `(:k x)`: a plain host object is read in place (this access site learns the object's shape,
   * which a shared helper could not), everything else goes through the full flexible lookup.
   */
  field(value: string, keyword: Keyword, raw = false): string {
    const target = this.named(value);
    const result = this.temp();
    const name = this.constant(keyword.name);
    if (keyword.direct && !keyword.name.includes("-")) {
      // On a plain object such a keyword has no other spelling to try (map-access.ts, lookup):
      // a missing field is nil at once.
      this.emit(`let ${result};`);
      const missing = raw ? "" : ` if (${result} === undefined) ${result} = null;`;
      this.emit(`if (${plainObjectTest(target)}) { ${result} = ${target}[${name}];${missing} }`);
      this.emit(`else ${result} = $.field(${target}, ${this.constant(keyword)});`);
    } else if (keyword.direct) {
      this.emit(`let ${result} = ${plainObjectTest(target)} ? ${target}[${name}] : undefined;`);
      this.emit(`if (${result} === undefined) ${result} = $.field(${target}, ${this.constant(keyword)});`);
    } else {
      this.emit(`const ${result} = $.field(${target}, ${this.constant(keyword)});`);
    }
    return result;
  }

  // ------------------------------------------------------------------ bindings and patterns

  private bindings(bindings: readonly Binding[]): void {
    bindAll(this, bindings);
  }

  /** Binds `pattern` to the value named by `value` (declaring consts in the current block). */
  private pattern(pattern: Pattern, value: string): void {
    bindPattern(this, pattern, value);
  }

  // ------------------------------------------------------------------ loops

  /** One step of a loop: one counter, tested against the next check (RunContext.loopCheckAt). */
  private iterate(context: string, position: Position): void {
    this.emit(
      `if (++${context}.iterations > ${context}.loopCheckAt) $.loopCheck(${context}, ${this.position(position)});`,
    );
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
        // Normalized here and at every recur, so the body binds it as it is (see `defined`).
        this.emit(`let ${raw[index]} = ${this.normalized(value)};`);
        this.defined.add(raw[index] as string);
        this.pattern(binding.pattern, raw[index] as string);
        // The body binds the same name again from the same raw variable, on every iteration.
        if (binding.pattern.kind === "bind" && integralSlots.has(binding.pattern.slot))
          this.integral.add(this.nameOf(binding.pattern.slot));
      });
      const counter = isLeafLoop(node) ? this.temp("steps") : undefined;
      const chunk =
        node === this.chunkedLoop ? { count: this.temp("jumps"), slots: node.target.rawSlots } : undefined;
      this.loops.set(node.target, {
        label,
        raw,
        context: this.contextName,
        position: node.position,
        counter,
        chunk,
      });
      const body = this.block(() => {
        node.bindings.forEach((binding, index) => {
          this.pattern(binding.pattern, raw[index] as string);
        });
        this.tail(
          node.body,
          sink.label === undefined && sink.target !== undefined ? { target: sink.target, label } : sink,
        );
      });
      if (chunk !== undefined) this.emit(`let ${chunk.count} = 0;`);
      if (counter !== undefined) {
        this.emit(`let ${counter} = ${this.contextName}.iterations;`);
        this.emit(`let ${counter}At = ${this.contextName}.loopCheckAt;`);
        this.emit("try {");
      }
      this.emit(`${label}: while (true) {`);
      this.lines.push(...body);
      if (sink.target !== undefined) this.emit(`break ${label};`);
      this.emit("}");
      if (counter !== undefined) this.emit(`} finally { ${this.contextName}.iterations = ${counter}; }`);
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
      this.emit(`${loop.raw[index]} = ${this.normalized(value)};`);
    });
    if (loop.counter === undefined) this.iterate(loop.context, loop.position);
    else {
      const context = loop.context;
      this.emit(
        `if (++${loop.counter} > ${loop.counter}At) { ${context}.iterations = ${loop.counter}; $.loopCheck(${context}, ${this.position(loop.position)}); ${loop.counter}At = ${context}.loopCheckAt; }`,
      );
    }
    if (loop.chunk !== undefined) {
      // The state where the general evaluator's recur leaves it (the resumed loop's inits read
      // it there), then back to the entry, which calls this code again.
      const writes = loop.chunk.slots.map((slot, index) => `frame[${slot}] = ${loop.raw[index]};`);
      this.emit(`if (++${loop.chunk.count} === ${RESUME_CHUNK}) { ${writes.join(" ")} return $.AGAIN; }`);
    }
    this.jumpedTo.add(loop.label);
    this.emit(`continue ${loop.label};`);
  }

  private forLoop(node: Extract<Node, { kind: "for" }>): string {
    return forComprehension(this, node);
  }

  /**
   * Emits the body of `fn` for the given argument expressions and returns the name holding its
   * value. The body gets a scope of its own (its captures are the enclosing names) but stays in
   * the enclosing JS function: same run context, no depth or fuel of its own (the loop charges).
   */
  inlineBody(fn: Extract<Node, { kind: "fn" }>, argumentNames: readonly string[]): string {
    const result = this.temp("res");
    const label = this.temp("L");
    this.emit(`let ${result};`);
    const body = this.block(() =>
      this.inlineWith(fn, argumentNames, () => this.tail(fn.body, { target: result, label })),
    );
    this.emit(`${label}: {`);
    this.lines.push(...body);
    this.emit("}");
    // Every way out of the body assigned a defined value (or threw).
    if (this.deliveredDefined.get(result) === true) this.defined.add(result);
    return result;
  }

  /**
   * The bindings of `node` and of each `let` directly inside it, emitted in a block of their own,
   * with `inner` emitting code for the innermost body there; `node` itself when it is no let.
   */
  withLets(node: Node, inner: (body: Node) => void): void {
    if (node.kind !== "let") {
      inner(node);
      return;
    }
    const lines = this.block(() => {
      this.bindings(node.bindings);
      this.withLets(node.body, inner);
    });
    this.emit("{");
    this.lines.push(...lines);
    this.emit("}");
  }

  inlineWith(
    fn: Extract<Node, { kind: "fn" }>,
    argumentNames: readonly string[],
    emitBody: () => void,
  ): void {
    const outer = this.scope;
    const scope = new Scope(outer.id + 1 + this.counter++, outer, undefined);
    fn.captures.forEach((capture) => {
      scope.names.set(capture.inner, this.nameOf(capture.outer));
    });
    this.scope = scope;
    try {
      fn.target.rawSlots.forEach((slot, index) => {
        const pattern = fn.params[index];
        const argument = argumentNames[index] as string;
        if (pattern?.kind === "bind" && pattern.slot === slot) this.pattern(pattern, argument);
        // Destructuring parameters are bound by the let the analyzer wrapped around the body.
        else scope.names.set(slot, argument);
      });
      emitBody();
    } finally {
      this.scope = outer;
    }
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
    const fnInfo = {
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
    const savedEnclosing = this.enclosingFn;
    this.scope = scope;
    this.contextName = this.temp("ctx");
    const context = this.contextName;
    const selfVars = new Map<string, string>();
    const helpers: string[] = [];
    this.enclosingFn = variadic
      ? undefined
      : { value: functionName, body: `${functionName}_body`, context, arity: fixed, selfVars, helpers };
    const result = this.temp("res");
    const label = this.temp("L");
    const raw = node.target.rawSlots.map(() => this.temp("r"));
    // A fixed parameter's raw slot is nil for undefined at entry, and `recur` stores normalized
    // values: never undefined, so binding it needs no test of its own.
    for (const name of raw.slice(0, fixed)) this.defined.add(name);
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
    this.enclosingFn = savedEnclosing;

    const info = this.constant(fnInfo);
    const restValue = node.restAsMap ? `$.restMap(rest, ${this.position(node.position)})` : "rest";
    const rawInit = params.map(
      (param, index) => `let ${raw[index]} = ${param} === undefined ? null : ${param};`,
    );
    if (variadic) rawInit.push(`let ${raw[fixed]} = ${restValue};`);
    const parts: FunctionParts = {
      functionName,
      params,
      variadic,
      context,
      result,
      rawInit,
      label,
      loops: this.jumpedTo.has(label),
      body,
      helpers,
      flags: [...selfVars.values()],
      info,
      position: this.position(node.position),
      slow: this.constant(slow),
      captured: capturedNames,
    };
    this.emitAll(functionBodyLines(parts));
    this.emit(`const ${functionName} = ${functionEntrySource(parts)};`);
    return functionName;
  }
}
