/**
 * The compiler: core nodes to closures. Each node becomes one JS closure taking the current frame;
 * running a program is calling the closure of its body. Pure code returns plain values; a node
 * whose child returns a promise (a tool call somewhere below) continues through `then`, so only
 * code that actually waits pays for waiting.
 *
 * Hot paths (calls to known builtins, locals, closures with 0-3 parameters, loops) get closures
 * specialized by shape so V8 can inline them.
 */
import type { Node, Pattern, RecurTarget } from "../analyzer/ast.js";
import { generatedCodePermitted } from "../code-generation.js";
import { LispError } from "../errors.js";
import type { Position } from "../reader/form.js";
import { mapBytes, setBytes, vectorBytes } from "../runtime/allocation.js";
import { after } from "../runtime/async.js";
import { callSite } from "../runtime/call-site.js";
import { active } from "../runtime/context.js";
import { runParallelCalls, runParallelMap } from "../runtime/parallel.js";
import { FailSignal, RECUR, ReturnSignal } from "../runtime/signals.js";
import { callTool } from "../runtime/tools.js";
import { cellOf, varSpec } from "../runtime/var-cell.js";
import { hashKey } from "../values/hash-key.js";
import { Keyword } from "../values/keyword.js";
import type { LispFunction } from "../values/lisp-function.js";
import { LispMap, MapBuilder } from "../values/lisp-map.js";
import { LispSet } from "../values/lisp-set.js";
import { lookup } from "../values/map-access.js";
import { pin } from "../values/pin.js";
import { VarRef } from "../values/var-ref.js";
import { FLAT_LIMIT } from "../values/versioned-table.js";
import { compileAccumulatorCall, noteNestedUpdates } from "./accumulator-calls.js";
import { compileCall } from "./calls.js";
import { compileClosure } from "./closures.js";
import type { Code } from "./code.js";
import type { CodegenEnvironment } from "./codegen.js";
import { inlinable } from "./codegen-loops.js";
import { compileUnit } from "./codegen-units.js";
import { compileComprehension } from "./comprehension.js";
import { compileAndOr, compileIf } from "./conditionals.js";
import { type Binder, compilePattern } from "./destructure.js";
import { evaluateAll, iterateAt, located, resume } from "./evaluation.js";
import { fastTierStats, GenerationGap, generationPolicy } from "./fast-tier.js";
import { fusesIntoOneLoop } from "./fused-pipelines.js";
import { compileLet } from "./let-forms.js";
import { answersBoolean } from "./number-shortcuts.js";
import { promotionPolicy } from "./promotion.js";
import { isPure, isTrivial, recursOutward } from "./purity.js";
import { innerCollectionAt, largeCallNode, largeForNode, resumedLoopNode } from "./resume-nodes.js";
import { compileTestedLoop, testedLoopShape } from "./tested-loops.js";
import { readVar } from "./var-read.js";

/**
 * How pure code runs. "general": closures only. "fast": every pure subtree compiled to JavaScript
 * up front. "adaptive": closures first, and a pure function that turns out to be hot is compiled to
 * JavaScript while the program runs (closures.ts); see docs/architecture.md, "Tiers".
 */
export type Tier = "general" | "fast" | "adaptive";

export interface CompilerEnvironment {
  readonly builtin: (name: string) => LispFunction | undefined;
  /** Which tier pure code starts on ("fast" and "adaptive" only where the platform allows codegen). */
  readonly tier: Tier;
  /** Runs a discovery form (doc, dir, apropos...). */
  readonly discovery: (operation: string, args: readonly unknown[]) => unknown;
}

export class Compiler {
  /** Above zero while compiling the general version of a fast unit (no nested fast units). */
  private generalOnly = 0;
  private readonly fastEnvironment: CodegenEnvironment;

  constructor(private readonly environment: CompilerEnvironment) {
    this.fastEnvironment = {
      builtin: environment.builtin,
      slowFunction: (node) =>
        this.general(() => compileClosure(node, this.compile(node.body))) as (
          outer: unknown[],
        ) => LispFunction,
    };
  }

  private general<T>(body: () => T): T {
    this.generalOnly++;
    try {
      return body();
    } finally {
      this.generalOnly--;
    }
  }

  /**
   * Compiles a node. Pure subtrees worth it go to the fast tier (codegen.ts) with this
   * evaluator's version as their fallback; everything else is compiled to closures here.
   */
  compile(node: Node): Code {
    if (
      this.environment.tier === "fast" &&
      this.generalOnly === 0 &&
      !isTrivial(node) &&
      isPure(node) &&
      !recursOutward(node)
    ) {
      const compileSlow = () => this.general(() => this.compileNode(node));
      try {
        return compileUnit(node, compileSlow, this.fastEnvironment);
      } catch (error) {
        if (!(error instanceof GenerationGap)) throw error;
        // A shape the generator does not handle runs on this evaluator: correct, only slower.
        // The test suite makes it fail instead (fast-tier.ts), so a missing case is caught.
        fastTierStats.generationGaps++;
        if (generationPolicy.failOnGap) {
          throw new LispError("runtime_error", `fast tier: ${error.message}`, node.position, {
            cause: error,
          });
        }
        return compileSlow();
      }
    }
    return this.compileNode(node);
  }

  private compileNode(node: Node): Code {
    switch (node.kind) {
      case "const": {
        const value = node.value;
        return () => value;
      }
      case "local": {
        const slot = node.slot;
        return (frame) => frame[slot];
      }
      case "var":
        return this.compileVar(node.name, node.position, node.soft === true);
      case "builtin": {
        const fn = this.requireBuiltin(node.name, node.position);
        return () => fn;
      }
      case "data": {
        const key = node.key;
        return () => {
          const found = lookup(active.data, key);
          return found === undefined ? null : found;
        };
      }
      case "history": {
        const index = node.index - 1;
        return () => active.history[index] ?? null;
      }
      case "if":
        return compileIf(
          this.compile(node.test),
          this.compile(node.consequent),
          this.compile(node.alternative),
          node.alternative,
        );
      case "do":
        return this.compileDo(node.body.map((item) => this.compile(item)));
      case "let":
        return compileLet(
          node.bindings,
          this.compile(node.body),
          node.bindings.map((binding) => this.compile(binding.init)),
          node.bindings.map((binding) => this.binder(binding.pattern)),
        );
      case "fn": {
        noteNestedUpdates(node);
        const body = this.compile(node.body);
        if (this.adaptive(node)) return compileClosure(node, body, () => this.promote(node), true);
        return compileClosure(node, body, undefined, this.generalOnly === 0 && isPure(node));
      }
      case "loop":
        return this.compileLoop(node);
      case "recur":
        return this.compileRecur(node.target, node.args, node.position);
      case "call":
        if (this.environment.tier === "adaptive" && this.generalOnly === 0) {
          // The shapes first: they only look at the call, where purity walks all of it.
          const shape = loopsOverItsLastArgument(node)
            ? "looping"
            : fusesIntoOneLoop(node)
              ? "pipeline"
              : callsOverALoop(node)
                ? "over-loop"
                : undefined;
          if (shape !== undefined && isPure(node)) {
            if (shape === "looping") return this.compileLargeCall(node, (_, index) => index === 0);
            if (shape === "pipeline") return this.compileLargeCall(node, keptInPipeline);
            return this.compileCallOverLoop(node);
          }
        }
        return (
          (node.callee.kind === "builtin" && this.environment.builtin(node.callee.name) !== undefined
            ? compileAccumulatorCall(node, (child) => this.compile(child))
            : undefined) ??
          compileCall(
            (child) => this.compile(child),
            (name, at) => this.requireBuiltin(name, at),
            node.callee,
            node.args,
            node.position,
          )
        );
      case "tool": {
        const name = node.name;
        const args = node.args === undefined ? undefined : this.compile(node.args);
        const position = node.position;
        if (args === undefined) return () => callTool(name, undefined, position);
        return (frame) => after(args(frame), (value) => callTool(name, value, position));
      }
      case "def":
        return this.compileDef(node.name, this.compile(node.value), node.once, node.position);
      case "and":
        return compileAndOr(
          node.items.map((item) => this.compile(item)),
          true,
        );
      case "or":
        return compileAndOr(
          node.items.map((item) => this.compile(item)),
          false,
        );
      case "vector":
        return this.compileVector(node.items);
      case "set": {
        const items = node.items.map((item) => this.compile(item));
        const build = (values: unknown): unknown => {
          active.allocate(setBytes(items.length));
          return LispSet.from(values as unknown[]);
        };
        return (frame) => after(evaluateAll(items, frame, new Array(items.length), 0), build);
      }
      case "map":
        return this.compileMap(node.entries);
      case "return": {
        const value = this.compile(node.value);
        return (frame) =>
          after(value(frame), (result) => {
            if (active.branchDefs !== undefined) {
              throw new LispError(
                "pmap_error",
                "return called inside pmap/pcalls: return the value from the branch function instead",
              );
            }
            throw new ReturnSignal(result);
          });
      }
      case "fail": {
        const value = this.compile(node.value);
        return (frame) =>
          after(value(frame), (result) => {
            throw new FailSignal(result);
          });
      }
      case "case":
        return this.compileCase(node);
      case "for":
        return compileComprehension(
          (child) => this.compile(child),
          (pattern) => this.binder(pattern),
          node.clauses,
          node.body,
          node.collect,
          this.adaptive(node) ? (itemsSlot) => this.promote(largeForNode(node, itemsSlot)) : undefined,
        );
      case "budget":
        return () => active.budget ?? LispMap.empty();
      case "parallel-map": {
        const fn = this.compile(node.fn);
        const coll = this.compile(node.coll);
        const position = node.position;
        return (frame) => after(fn(frame), (f) => after(coll(frame), (c) => runParallelMap(f, c, position)));
      }
      case "parallel-calls": {
        const thunks = node.thunks.map((thunk) => this.compile(thunk));
        const position = node.position;
        return (frame) =>
          after(evaluateAll(thunks, frame, new Array(thunks.length), 0), (values) =>
            runParallelCalls(values as unknown[], position),
          );
      }
      case "task":
        return this.compileTask(this.compile(node.id), this.compile(node.body));
      case "step-done": {
        const id = this.compile(node.id);
        const summary = this.compile(node.summary);
        return (frame) =>
          after(id(frame), (idValue) =>
            after(summary(frame), (text) => {
              if (active.branchDefs === undefined) {
                active.stepSummaries ??= new Map();
                active.stepSummaries.set(String(idValue), String(text));
              }
              return text;
            }),
          );
      }
      case "task-reset": {
        const id = this.compile(node.id);
        return (frame) =>
          after(id(frame), (idValue) => {
            active.journal?.delete(String(idValue));
            return null;
          });
      }
      case "discovery": {
        const args = node.args.map((arg) => this.compile(arg));
        const operation = node.operation;
        return (frame) =>
          after(evaluateAll(args, frame, new Array(args.length), 0), (values) =>
            this.environment.discovery(operation, values as unknown[]),
          );
      }
    }
  }

  /** Whether `node` starts on this evaluator and may move to generated code once hot (adaptive tier). */
  private adaptive(node: Node): boolean {
    return this.environment.tier === "adaptive" && this.generalOnly === 0 && isPure(node);
  }

  /**
   * Generated code for a hot pure node (adaptive tier): a fn (the unit makes the function from the
   * frame its captures live in), a loop resumed where it stands, a `for` over a large collection;
   * or undefined when the generator has no template for it (the node then stays on this
   * evaluator, as in the fast tier).
   */
  private promote(node: Node): Code | undefined {
    // A function made by an earlier run of a session may get hot in a run that must generate
    // nothing (`engine: "general"`): it stays on this evaluator.
    if (!generatedCodePermitted()) return undefined;
    const compileSlow = () => this.general(() => this.compileNode(node));
    try {
      const unit = compileUnit(node, compileSlow, this.fastEnvironment);
      fastTierStats.promotions++;
      return unit;
    } catch (error) {
      if (!(error instanceof GenerationGap)) throw error;
      fastTierStats.generationGaps++;
      if (generationPolicy.failOnGap) {
        throw new LispError("runtime_error", `fast tier: ${error.message}`, node.position, { cause: error });
      }
      return undefined;
    }
  }

  /**
   * `(map (fn ...) coll)`, `(filter ...)`, `(remove ...)`, `(reduce (fn ...) init coll)`, and
   * pipelines the generator fuses (`(reduce + 0 (map :amount (filter p rows)))`), under the
   * adaptive tier: over a large collection the whole call runs as generated code, where the
   * literal functions are inlined into one loop (codegen-loops.ts, fused-pipelines.ts), instead of
   * the builtin calling a closure per item. The arguments are evaluated here first, once, in
   * order; the generated call keeps the `kept` ones as written (literal functions, constants,
   * builtins: nothing to evaluate) and reads the others from slots past the end of a copy of the
   * frame (resume-nodes.ts).
   */
  /**
   * `(apply merge-with + (map (fn [o] {(:status o) (:amount o)}) rows))` under the adaptive tier
   * (callsOverALoop): over a large collection the whole call runs as generated code, where the
   * generator may write it as one loop (specialized-calls.ts); promoting the inner call alone
   * would leave the outer one to run here over the vector it built. The collection is evaluated
   * once, here, and read by either version from a slot past the end of a copy of the frame.
   */
  private compileCallOverLoop(node: Extract<Node, { kind: "call" }>): Code {
    const inner = node.args[node.args.length - 1] as Extract<Node, { kind: "call" }>;
    const collection = this.compile(inner.args[inner.args.length - 1] as Node);
    let unit: Code | null | undefined;
    let general: Code | undefined;
    const call = (frame: unknown[], items: unknown): unknown => {
      const extended = frame.slice();
      extended.push(items);
      if (Array.isArray(items) && items.length >= promotionPolicy.threshold) {
        unit ??= this.promote(innerCollectionAt(node, frame.length)) ?? null;
        if (unit !== null) return unit(extended);
      }
      general ??= this.general(() => this.compileNode(innerCollectionAt(node, frame.length)));
      return general(extended);
    };
    return (frame) => {
      const items = collection(frame);
      if (items instanceof Promise) return after(items, (resolved) => call(frame, resolved));
      return call(frame, items);
    };
  }

  private compileLargeCall(
    node: Extract<Node, { kind: "call" }>,
    kept: (arg: Node, index: number) => boolean,
  ): Code {
    const callee = node.callee as Extract<Node, { kind: "builtin" }>;
    const fn = this.requireBuiltin(callee.name, callee.position);
    const args = node.args.map((arg) => this.compile(arg));
    const read = node.args.map((arg, index) => !kept(arg, index));
    const position = node.position;
    let unit: Code | null | undefined;
    const call = (frame: unknown[], values: unknown[]): unknown => {
      if (values.some((value, index) => read[index] && largeInput(value))) {
        unit ??= this.promote(largeCallNode(node, frame.length, read)) ?? null;
        if (unit !== null) {
          const extended = frame.slice();
          for (let i = 0; i < values.length; i++) if (read[i]) extended.push(values[i]);
          return unit(extended);
        }
      }
      callSite.current = position;
      return fn(...values);
    };
    return (frame) => {
      const values = new Array<unknown>(args.length);
      for (let i = 0; i < args.length; i++) {
        const value = (args[i] as Code)(frame);
        if (value instanceof Promise)
          return after(resume(args, frame, values, i, value), (all) => call(frame, all as unknown[]));
        values[i] = value;
      }
      return call(frame, values);
    };
  }

  private requireBuiltin(name: string, position: { line: number; column: number }): LispFunction {
    const fn = this.environment.builtin(name);
    if (fn === undefined) throw new LispError("unbound_var", `Undefined variable: ${name}`, position);
    return fn;
  }

  // ---------------------------------------------------------------- variables

  private compileVar(name: string, position: { line: number; column: number }, soft: boolean): Code {
    const spec = varSpec(name, position, soft);
    return () => readVar(spec);
  }

  private compileDef(name: string, value: Code, once: boolean, position: Position): Code {
    const spec = varSpec(name, position, false);
    const ref = new VarRef(name);
    return (frame) => {
      if (once && (cellOf(spec, active.namespace).bound || active.branchDefs?.has(name) === true)) return ref;
      return after(value(frame), (result) => {
        const cell = cellOf(spec, active.namespace);
        // Defined values outlive the program: pinned onto storage of their own (values/pin.ts).
        const kept = pin(result);
        const branch = active.branchDefs;
        if (branch !== undefined) branch.set(name, kept);
        else active.namespace.define(cell, kept);
        return ref;
      });
    };
  }

  // ---------------------------------------------------------------- control

  private compileDo(body: readonly Code[]): Code {
    const last = body.length - 1;
    const run = (frame: unknown[], start: number): unknown => {
      for (let i = start; i < last; i++) {
        const value = (body[i] as Code)(frame);
        if (value instanceof Promise) return after(value, () => run(frame, i + 1));
      }
      return (body[last] as Code)(frame);
    };
    return (frame) => run(frame, 0);
  }

  private compileCase(node: Extract<Node, { kind: "case" }>): Code {
    const value = this.compile(node.value);
    const clauses = node.clauses.map((clause) => this.compile(clause));
    const fallback = node.fallback === undefined ? undefined : this.compile(node.fallback);
    const table = node.table;
    const choose = (frame: unknown[], resolved: unknown): unknown => {
      const index = table.get(hashKey(resolved));
      if (index !== undefined) return (clauses[index] as Code)(frame);
      return fallback === undefined ? null : fallback(frame);
    };
    return (frame) => {
      const resolved = value(frame);
      if (resolved instanceof Promise) return after(resolved, (ready) => choose(frame, ready));
      return choose(frame, resolved);
    };
  }

  private compileTask(id: Code, body: Code): Code {
    return (frame) =>
      after(id(frame), (idValue) => {
        const key = String(idValue);
        const journal = active.journal;
        if (journal?.has(key)) return journal.get(key);
        return after(body(frame), (result) => {
          if (active.branchDefs === undefined) journal?.set(key, result);
          return result;
        });
      });
  }

  // ---------------------------------------------------------------- bindings

  private binder(pattern: Pattern): Binder {
    return compilePattern(pattern, (node) => this.compile(node));
  }

  // ---------------------------------------------------------------- loops

  /** Binds the non-trivial patterns of a recur target from their raw slots. */
  private rebinder(
    patterns: readonly Pattern[],
    target: RecurTarget,
  ): ((frame: unknown[]) => void) | undefined {
    const steps: Array<{ raw: number; bind: Binder }> = [];
    patterns.forEach((pattern, index) => {
      if (pattern.kind !== "bind" && pattern.kind !== "ignore")
        steps.push({ raw: target.rawSlots[index] as number, bind: this.binder(pattern) });
    });
    if (steps.length === 0) return undefined;
    return (frame) => {
      for (const step of steps) step.bind(frame, frame[step.raw]);
    };
  }

  private compileLoop(node: Extract<Node, { kind: "loop" }>): Code {
    const { bindings, target, position } = node;
    const inits = bindings.map((binding) => this.compile(binding.init));
    const rebind = this.rebinder(
      bindings.map((binding) => binding.pattern),
      target,
    );
    const raw = target.rawSlots;
    // Adaptive tier: a loop that runs long moves to generated code where it stands (its state is
    // in the frame's raw slots, which the generated resume reads), once per compiled loop.
    let resume: (() => Code | undefined) | undefined;
    if (this.adaptive(node)) {
      let heat = 0;
      let code: Code | null | undefined;
      resume = () => {
        if (code === undefined) {
          if (++heat <= promotionPolicy.threshold) return undefined;
          code = this.promote(resumedLoopNode(node)) ?? null;
        }
        return code ?? undefined;
      };
    }
    const iterate =
      (rebind === undefined && resume === undefined ? this.testedLoop(node) : undefined) ??
      this.generalIteration(node, this.compile(node.body), rebind, resume);
    // Loop bindings are sequential, like let: each init sees the names bound before it.
    const binders = bindings.map((binding) => this.binder(binding.pattern));
    const bindFrom = (frame: unknown[], index: number): unknown => {
      for (let i = index; i < inits.length; i++) {
        const value = (inits[i] as Code)(frame);
        if (value instanceof Promise) {
          return after(value, (resolved) => {
            frame[raw[i] as number] = resolved;
            (binders[i] as Binder)(frame, resolved);
            return bindFrom(frame, i + 1);
          });
        }
        frame[raw[i] as number] = value === undefined ? null : value;
        (binders[i] as Binder)(frame, value);
      }
      return undefined;
    };
    return (frame) =>
      after(bindFrom(frame, 0), () => {
        try {
          return iterate(frame);
        } catch (error) {
          throw located(error, position);
        }
      });
  }

  /**
   * A loop body `(if test (recur ...) exit)` run by the loop itself (tested-loops.ts) when its
   * test answers a boolean; with any other test, the general loop over the `if` made from the
   * parts compiled here (as compileNode would make it: the body recurs, so it is never a fast unit).
   */
  private testedLoop(node: Extract<Node, { kind: "loop" }>): Code | undefined {
    const shape = testedLoopShape(node);
    if (shape === undefined) return undefined;
    const test = this.compile(shape.test);
    if (!answersBoolean(test)) {
      const body = node.body as Extract<Node, { kind: "if" }>;
      const consequent = this.compile(body.consequent);
      const branches = compileIf(test, consequent, this.compile(body.alternative), body.alternative);
      return this.generalIteration(node, branches, undefined, undefined);
    }
    const args = shape.recurArgs.map((arg) => this.compile(arg));
    const exit = this.compile(shape.exit);
    return compileTestedLoop(node.target, test, args, exit, shape.recurWhen, node.position);
  }

  /** The general loop: calls its body until it answers something other than RECUR. */
  private generalIteration(
    node: Extract<Node, { kind: "loop" }>,
    body: Code,
    rebind: ((frame: unknown[]) => void) | undefined,
    resume: (() => Code | undefined) | undefined,
  ): Code {
    const position = node.position;
    const iterate = (frame: unknown[]): unknown => {
      for (;;) {
        if (rebind !== undefined) rebind(frame);
        const result = body(frame);
        if (result === RECUR) {
          iterateAt(position);
          if (resume !== undefined) {
            const hot = resume();
            if (hot !== undefined) return hot(frame);
          }
          continue;
        }
        if (result instanceof Promise) {
          return after(result, (resolved) => {
            if (resolved !== RECUR) return resolved;
            iterateAt(position);
            return iterate(frame);
          });
        }
        return result;
      }
    };
    return iterate;
  }

  private compileRecur(
    target: RecurTarget,
    argNodes: readonly Node[],
    position: { line: number; column: number },
  ): Code {
    const slots = target.rawSlots;
    const args = argNodes.map((arg) => this.compile(arg));
    if (args.length !== slots.length) {
      const message = `recur expects ${slots.length} argument(s) (one per ${target.label === "loop" ? "loop binding" : "parameter"}), got ${args.length}`;
      return () => {
        throw new LispError("arity_error", message, position);
      };
    }
    if (args.length === 1) {
      const slot = slots[0] as number;
      const arg = args[0] as Code;
      return (frame) => {
        const value = arg(frame);
        if (value instanceof Promise) {
          return after(value, (resolved) => {
            frame[slot] = resolved;
            return RECUR;
          });
        }
        frame[slot] = value;
        return RECUR;
      };
    }
    if (args.length === 2) {
      const [s0, s1] = slots as [number, number];
      const [a0, a1] = args as [Code, Code];
      const assign = (frame: unknown[], values: unknown): typeof RECUR => {
        frame[s0] = (values as unknown[])[0];
        frame[s1] = (values as unknown[])[1];
        return RECUR;
      };
      return (frame) => {
        const v0 = a0(frame);
        if (v0 instanceof Promise)
          return after(resume(args, frame, [], 0, v0), (values) => assign(frame, values));
        const v1 = a1(frame);
        if (v1 instanceof Promise)
          return after(resume(args, frame, [v0], 1, v1), (values) => assign(frame, values));
        frame[s0] = v0;
        frame[s1] = v1;
        return RECUR;
      };
    }
    // Values are assigned only once all are evaluated: an argument may read a slot another assigns.
    return (frame) => {
      const values = new Array<unknown>(args.length);
      for (let i = 0; i < args.length; i++) {
        const value = (args[i] as Code)(frame);
        if (value instanceof Promise) {
          return after(resume(args, frame, values, i, value), (all) => {
            for (let j = 0; j < slots.length; j++) frame[slots[j] as number] = (all as unknown[])[j];
            return RECUR;
          });
        }
        values[i] = value;
      }
      for (let i = 0; i < slots.length; i++) frame[slots[i] as number] = values[i];
      return RECUR;
    };
  }

  // ---------------------------------------------------------------- functions

  // ---------------------------------------------------------------- calls

  // ---------------------------------------------------------------- literals

  private compileVector(nodes: readonly Node[]): Code {
    if (nodes.every((node) => node.kind === "const")) {
      // Vectors are never mutated, so a constant vector can be one shared array.
      const value = Object.freeze(nodes.map((node) => (node as { value: unknown }).value));
      return () => value;
    }
    const items = nodes.map((node) => this.compile(node));
    const count = items.length;
    const size = vectorBytes(count);
    const charged = (values: unknown): unknown => {
      active.allocate(size);
      return values;
    };
    // Items evaluated straight into the vector; only an item that waits on a tool takes the
    // asynchronous path (no continuation allocated per vector otherwise).
    return (frame) => {
      const values = new Array<unknown>(count);
      for (let i = 0; i < count; i++) {
        const value = (items[i] as Code)(frame);
        if (value instanceof Promise) return after(resume(items, frame, values, i, value), charged);
        values[i] = value;
      }
      active.allocate(size);
      return values;
    };
  }

  private compileMap(entries: ReadonlyArray<readonly [Node, Node]>): Code {
    const keys = entries.map(([key]) => this.compile(key));
    const values = entries.map(([, value]) => this.compile(value));
    const all = [...keys, ...values];
    const count = entries.length;
    const size = mapBytes(count);
    const constantKeys = distinctKeywordKeys(entries);
    if (constantKeys !== undefined) {
      // `{:id id :total (* a q)}`, the commonest map literal: its keys are distinct keywords, each
      // its own hash key, so the map's flat storage is [key, value, ...] filled in place, as
      // MapBuilder would fill it, without evaluating keys or checking duplicates per row.
      const build = (resolved: unknown): unknown => {
        const list = resolved as unknown[];
        const pairs = new Array<unknown>(2 * count);
        for (let i = 0; i < count; i++) {
          const value = list[i];
          pairs[2 * i] = constantKeys[i];
          pairs[2 * i + 1] = value === undefined ? null : value;
        }
        active.allocate(size);
        return LispMap.small(pairs);
      };
      return (frame) => {
        const pairs = new Array<unknown>(2 * count);
        for (let i = 0; i < count; i++) {
          const value = (values[i] as Code)(frame);
          if (value instanceof Promise) {
            const done = new Array<unknown>(count);
            for (let j = 0; j < i; j++) done[j] = pairs[2 * j + 1];
            return after(resume(values, frame, done, i, value), build);
          }
          pairs[2 * i] = constantKeys[i];
          pairs[2 * i + 1] = value === undefined ? null : value;
        }
        active.allocate(size);
        return LispMap.small(pairs);
      };
    }
    if (count === 1) {
      // `{(:status o) (:amount o)}`: one entry, no builder (and no duplicate key to drop).
      const key = keys[0] as Code;
      const value = values[0] as Code;
      const single = (resolved: unknown): unknown => {
        active.allocate(size);
        return LispMap.single((resolved as unknown[])[0], (resolved as unknown[])[1]);
      };
      return (frame) => {
        const k = key(frame);
        if (k instanceof Promise) return after(resume(all, frame, [], 0, k), single);
        const v = value(frame);
        if (v instanceof Promise) return after(resume(all, frame, [k], 1, v), single);
        active.allocate(size);
        return LispMap.single(k, v);
      };
    }
    const build = (resolved: unknown): unknown => {
      const list = resolved as unknown[];
      active.allocate(size);
      const builder = new MapBuilder();
      for (let i = 0; i < count; i++) {
        if (!builder.has(list[i])) builder.set(list[i], list[count + i]);
      }
      return builder.build();
    };
    return (frame) => after(evaluateAll(all, frame, new Array(all.length), 0), build);
  }

  // ---------------------------------------------------------------- for / doseq
}

/**
 * The keys of a map literal when they are all constant keywords, distinct and few enough for a
 * map's flat storage (versioned-table.ts); else undefined.
 */
function distinctKeywordKeys(entries: ReadonlyArray<readonly [Node, Node]>): Keyword[] | undefined {
  if (entries.length === 0 || entries.length > FLAT_LIMIT) return undefined;
  const keys: Keyword[] = [];
  for (const [key] of entries) {
    if (key.kind !== "const" || !(key.value instanceof Keyword) || keys.includes(key.value)) return undefined;
    keys.push(key.value);
  }
  return keys;
}

/** Builtins that loop over their last argument calling their first, with the first's arity. */
const LOOPING_CALLS: ReadonlyMap<string, { readonly args: number; readonly arity: number }> = new Map([
  ["map", { args: 2, arity: 1 }],
  ["mapv", { args: 2, arity: 1 }],
  ["filter", { args: 2, arity: 1 }],
  ["remove", { args: 2, arity: 1 }],
  ["some", { args: 2, arity: 1 }],
  ["every?", { args: 2, arity: 1 }],
  ["reduce", { args: 3, arity: 2 }],
]);

/**
 * An input large enough for compileLargeCall to move its call to generated code: a vector of
 * `threshold` items, or a text of sixteen characters for each (the text of a pipeline's
 * `(re-seq re text)`, whose matches the fused loop takes as they are found).
 */
function largeInput(value: unknown): boolean {
  const threshold = promotionPolicy.threshold;
  if (Array.isArray(value)) return value.length >= threshold;
  return typeof value === "string" && value.length >= 16 * threshold;
}

/** Arguments of a fused pipeline's call that its generated code takes as written. */
function keptInPipeline(arg: Node, index: number): boolean {
  return index === 0 || arg.kind === "const" || arg.kind === "builtin" || arg.kind === "fn";
}

/**
 * A builtin call whose last argument is a looping call of one collection (`(map f coll)`, not
 * reduce's three arguments) and whose other arguments are written as constants, builtins or fns,
 * which evaluate to the same whether before or after the collection.
 */
function callsOverALoop(node: Extract<Node, { kind: "call" }>): boolean {
  if (node.callee.kind !== "builtin" || node.args.length < 2) return false;
  const last = node.args[node.args.length - 1] as Node;
  if (last.kind !== "call" || last.args.length !== 2 || !loopsOverItsLastArgument(last)) return false;
  return node.args
    .slice(0, -1)
    .every((arg) => arg.kind === "const" || arg.kind === "builtin" || arg.kind === "fn");
}

/** A call generated code would turn into one loop: a looping builtin with a literal function. */
function loopsOverItsLastArgument(node: Extract<Node, { kind: "call" }>): boolean {
  if (node.callee.kind !== "builtin") return false;
  const shape = LOOPING_CALLS.get(node.callee.name);
  return (
    shape !== undefined &&
    node.args.length === shape.args &&
    inlinable(node.args[0] as Node, shape.arity) !== undefined
  );
}
