/**
 * The compiler: core nodes to closures. Each node becomes one JS closure taking the current frame;
 * running a program is calling the closure of its body. Pure code returns plain values; a node
 * whose child returns a promise (a tool call somewhere below) continues through `then`, so only
 * code that actually waits pays for waiting.
 *
 * Hot paths (calls to known builtins, locals, closures with 0-3 parameters, loops) get closures
 * specialized by shape so V8 can inline them.
 */
import type { Binding, ForClause, Node, Pattern, RecurTarget } from "../analyzer/ast.js";
import { LispError } from "../errors.js";
import { print } from "../format/print.js";
import type { Position } from "../reader/form.js";
import { after } from "../runtime/async.js";
import { callValue, checkBuiltinArity } from "../runtime/call.js";
import { callSite } from "../runtime/call-site.js";
import { active, loopLimitError } from "../runtime/context.js";
import { typeName } from "../runtime/describe.js";
import { runParallelCalls, runParallelMap } from "../runtime/parallel.js";
import { assertEffectsAllowed } from "../runtime/pure-mode.js";
import { itemsOf } from "../runtime/sequences.js";
import { FailSignal, RECUR, ReturnSignal } from "../runtime/signals.js";
import { callTool } from "../runtime/tools.js";
import { cellOf, varSpec } from "../runtime/var-cell.js";
import { hashKey } from "../values/hash-key.js";
import { Keyword } from "../values/keyword.js";
import { brandFunction, FUNCTION_INFO, type LispFunction } from "../values/lisp-function.js";
import { LispMap, MapBuilder } from "../values/lisp-map.js";
import { LispSet } from "../values/lisp-set.js";
import { getField, isMap, lookup } from "../values/map-access.js";
import { pin } from "../values/pin.js";
import { VarRef } from "../values/var-ref.js";
import { type Code, isTruthy } from "./code.js";
import { type CodegenEnvironment, compileUnit } from "./codegen.js";
import { type Binder, compilePattern } from "./destructure.js";
import { binaryIntrinsic, binaryNode, type Operand, operandCode } from "./intrinsics.js";
import { isPure, isTrivial } from "./purity.js";

export interface CompilerEnvironment {
  readonly builtin: (name: string) => LispFunction | undefined;
  /** Compile pure code to JS source (the fast tier) when the platform allows it. */
  readonly fast: boolean;
  /** Runs a discovery form (doc, dir, apropos...). */
  readonly discovery: (operation: string, args: readonly unknown[]) => unknown;
}

function unboundVar(name: string): LispError {
  return new LispError(
    "unbound_var",
    `Undefined variable: ${name}. It is not defined yet when this code runs: define it with (def ${name} ...) before using it`,
  );
}

function located(error: unknown, position: { line: number; column: number }): unknown {
  if (error instanceof LispError) error.at(position);
  return error;
}

/** Evaluates codes in order into `values`, continuing asynchronously if one returns a promise. */
function evaluateAll(codes: readonly Code[], frame: unknown[], values: unknown[], start: number): unknown {
  for (let i = start; i < codes.length; i++) {
    const value = (codes[i] as Code)(frame);
    if (value instanceof Promise) {
      return after(value, (resolved) => {
        values[i] = resolved;
        return evaluateAll(codes, frame, values, i + 1);
      });
    }
    values[i] = value;
  }
  return values;
}

/**
 * Continues argument evaluation after argument `index` turned out to be a promise: the arguments
 * before it are in `values`, the ones after it are evaluated only once it has resolved, so tool
 * calls in arguments run once each and strictly left to right.
 */
function resume(
  codes: readonly Code[],
  frame: unknown[],
  values: unknown[],
  index: number,
  pending: Promise<unknown>,
): unknown {
  return after(pending, (resolved) => {
    values[index] = resolved;
    return evaluateAll(codes, frame, values, index + 1);
  });
}

export class Compiler {
  /** Above zero while compiling the general version of a fast unit (no nested fast units). */
  private generalOnly = 0;
  private readonly fastEnvironment: CodegenEnvironment;

  constructor(private readonly environment: CompilerEnvironment) {
    this.fastEnvironment = {
      builtin: environment.builtin,
      slowFunction: (node) => this.general(() => this.compileFn(node)) as (outer: unknown[]) => LispFunction,
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
    if (this.environment.fast && this.generalOnly === 0 && !isTrivial(node) && isPure(node)) {
      const compileSlow = () => this.general(() => this.compileNode(node));
      try {
        return compileUnit(node, compileSlow, this.fastEnvironment);
      } catch (error) {
        // A shape the generator does not handle yet runs on this evaluator, never fails.
        if (error instanceof SyntaxError || (error instanceof Error && error.message.startsWith("internal:")))
          return compileSlow();
        throw error;
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
        return this.compileIf(node.test, node.consequent, node.alternative);
      case "do":
        return this.compileDo(node.body.map((item) => this.compile(item)));
      case "let":
        return this.compileLet(node.bindings, node.body);
      case "fn":
        return this.compileFn(node);
      case "loop":
        return this.compileLoop(node.bindings, node.target, node.body, node.position);
      case "recur":
        return this.compileRecur(node.target, node.args, node.position);
      case "call":
        return this.compileCall(node.callee, node.args, node.position);
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
        return this.compileAndOr(
          node.items.map((item) => this.compile(item)),
          true,
        );
      case "or":
        return this.compileAndOr(
          node.items.map((item) => this.compile(item)),
          false,
        );
      case "vector":
        return this.compileVector(node.items);
      case "set": {
        const items = node.items.map((item) => this.compile(item));
        return (frame) =>
          after(evaluateAll(items, frame, new Array(items.length), 0), (values) => {
            active.allocate(16 + 24 * items.length);
            return LispSet.from(values as unknown[]);
          });
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
        return this.compileFor(node.clauses, node.body, node.collect, node.position);
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
              if (active.branchDefs === undefined) active.stepSummaries.set(String(idValue), String(text));
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

  private requireBuiltin(name: string, position: { line: number; column: number }): LispFunction {
    const fn = this.environment.builtin(name);
    if (fn === undefined) throw new LispError("unbound_var", `Undefined variable: ${name}`, position);
    return fn;
  }

  // ---------------------------------------------------------------- variables

  private compileVar(name: string, position: { line: number; column: number }, soft: boolean): Code {
    const spec = varSpec(name, position, soft);
    return () => {
      const context = active;
      const branch = context.branchDefs;
      if (branch?.has(name)) return branch.get(name);
      const cell = cellOf(spec, context.namespace);
      if (!cell.bound) {
        if (soft) return null;
        throw unboundVar(name).at(position);
      }
      return cell.value;
    };
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

  private compileIf(testNode: Node, thenNode: Node, elseNode: Node): Code {
    const test = this.compile(testNode);
    const yes = this.compile(thenNode);
    const no = this.compile(elseNode);
    return (frame) => {
      const value = test(frame);
      if (value instanceof Promise)
        return after(value, (resolved) => (isTruthy(resolved) ? yes(frame) : no(frame)));
      return value !== null && value !== false && value !== undefined ? yes(frame) : no(frame);
    };
  }

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

  private compileAndOr(items: readonly Code[], isAnd: boolean): Code {
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

  private compileCase(node: Extract<Node, { kind: "case" }>): Code {
    const value = this.compile(node.value);
    const clauses = node.clauses.map((clause) => this.compile(clause));
    const fallback = node.fallback === undefined ? undefined : this.compile(node.fallback);
    const table = node.table;
    return (frame) =>
      after(value(frame), (resolved) => {
        const index = table.get(hashKey(resolved));
        if (index !== undefined) return (clauses[index] as Code)(frame);
        return fallback === undefined ? null : fallback(frame);
      });
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

  private compileLet(bindings: readonly Binding[], bodyNode: Node): Code {
    const body = this.compile(bodyNode);
    const inits = bindings.map((binding) => this.compile(binding.init));
    const binders = bindings.map((binding) => this.binder(binding.pattern));
    const simpleSlots = bindings.map((binding) =>
      binding.pattern.kind === "bind" ? binding.pattern.slot : -1,
    );
    if (bindings.length === 1 && simpleSlots[0] !== -1) {
      const slot = simpleSlots[0] as number;
      const init = inits[0] as Code;
      return (frame) => {
        const value = init(frame);
        if (value instanceof Promise) {
          return after(value, (resolved) => {
            frame[slot] = resolved;
            return body(frame);
          });
        }
        frame[slot] = value === undefined ? null : value;
        return body(frame);
      };
    }
    const run = (frame: unknown[], start: number): unknown => {
      for (let i = start; i < inits.length; i++) {
        const value = (inits[i] as Code)(frame);
        if (value instanceof Promise) {
          return after(value, (resolved) => {
            (binders[i] as Binder)(frame, resolved);
            return run(frame, i + 1);
          });
        }
        const slot = simpleSlots[i] as number;
        if (slot >= 0) frame[slot] = value === undefined ? null : value;
        else (binders[i] as Binder)(frame, value);
      }
      return body(frame);
    };
    return (frame) => run(frame, 0);
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

  private compileLoop(
    bindings: readonly Binding[],
    target: RecurTarget,
    bodyNode: Node,
    position: { line: number; column: number },
  ): Code {
    const inits = bindings.map((binding) => this.compile(binding.init));
    const rebind = this.rebinder(
      bindings.map((binding) => binding.pattern),
      target,
    );
    const body = this.compile(bodyNode);
    const raw = target.rawSlots;
    const iterate = (frame: unknown[]): unknown => {
      for (;;) {
        if (rebind !== undefined) rebind(frame);
        const result = body(frame);
        if (result === RECUR) {
          iterateAt(position);
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
        throw new LispError("arity_mismatch", message, position);
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
    return (frame) =>
      after(evaluateAll(args, frame, new Array(args.length), 0), (values) => {
        for (let i = 0; i < slots.length; i++) frame[slots[i] as number] = (values as unknown[])[i];
        return RECUR;
      });
  }

  // ---------------------------------------------------------------- functions

  private compileFn(node: Extract<Node, { kind: "fn" }>): Code {
    const body = this.compile(node.body);
    // Destructuring parameters are bound by the `let` the analyzer wraps around the body.
    const rebind = undefined as ((frame: unknown[]) => void) | undefined;
    const captures = node.captures;
    const frameSize = node.frameSize;
    const selfSlot = node.selfSlot;
    const raw = node.target.rawSlots;
    const fixed = node.params.length;
    const variadic = node.rest !== undefined;
    const restAsMap = node.restAsMap;
    const info = {
      name: node.name,
      signature: node.signature,
      builtin: false,
      minArity: fixed,
      maxArity: variadic ? Number.POSITIVE_INFINITY : fixed,
    };
    const position = node.position;
    const label = node.name ?? "fn";

    const arityError = (count: number): LispError =>
      new LispError(
        "arity_mismatch",
        `${label} expects ${variadic ? `${fixed}+` : fixed} argument(s), got ${count}`,
        position,
      );

    /** Runs the body with the frame filled, looping on recur, counting depth. */
    const enter = (frame: unknown[]): unknown => {
      // Fast code (pure mode) may not run this closure: it could have effects. See pure-mode.ts.
      assertEffectsAllowed();
      const context = active;
      if (++context.depth > context.limits.maxDepth) {
        throw new LispError(
          "recursion_limit_exceeded",
          `recursion depth exceeded ${context.limits.maxDepth} nested calls. Use loop/recur or reduce instead of deep recursion`,
          position,
        );
      }
      if (--context.fuel <= 0) context.refuel();
      let result: unknown;
      for (;;) {
        if (rebind !== undefined) rebind(frame);
        result = body(frame);
        if (result !== RECUR) break;
        iterateAt(position);
      }
      context.depth--;
      if (result instanceof Promise) {
        return after(result, function resume(resolved): unknown {
          if (resolved !== RECUR) return resolved;
          iterateAt(position);
          if (rebind !== undefined) rebind(frame);
          return after(body(frame), resume);
        });
      }
      return result;
    };

    return (outer) => {
      const env = new Array<unknown>(captures.length);
      for (let i = 0; i < captures.length; i++) env[i] = outer[(captures[i] as { outer: number }).outer];
      const prepare = (): unknown[] => {
        const frame = new Array<unknown>(frameSize);
        for (let i = 0; i < captures.length; i++) frame[(captures[i] as { inner: number }).inner] = env[i];
        return frame;
      };
      let closure: LispFunction;
      if (!variadic && fixed === 0) {
        closure = brandFunction(function zero(this: unknown): unknown {
          // biome-ignore lint/complexity/noArguments: the only way to see extra arguments without a rest array
          if (arguments.length !== 0) throw arityError(arguments.length);
          const frame = prepare();
          if (selfSlot !== undefined) frame[selfSlot] = closure;
          return enter(frame);
        }, info);
      } else if (!variadic && fixed === 1) {
        const r0 = raw[0] as number;
        closure = brandFunction(function one(this: unknown, a: unknown): unknown {
          // biome-ignore lint/complexity/noArguments: the only way to see extra arguments without a rest array
          if (arguments.length !== 1) throw arityError(arguments.length);
          const frame = prepare();
          if (selfSlot !== undefined) frame[selfSlot] = closure;
          frame[r0] = a === undefined ? null : a;
          return enter(frame);
        }, info);
      } else if (!variadic && fixed === 2) {
        const r0 = raw[0] as number;
        const r1 = raw[1] as number;
        closure = brandFunction(function two(this: unknown, a: unknown, b: unknown): unknown {
          // biome-ignore lint/complexity/noArguments: the only way to see extra arguments without a rest array
          if (arguments.length !== 2) throw arityError(arguments.length);
          const frame = prepare();
          if (selfSlot !== undefined) frame[selfSlot] = closure;
          frame[r0] = a === undefined ? null : a;
          frame[r1] = b === undefined ? null : b;
          return enter(frame);
        }, info);
      } else {
        closure = brandFunction(function many(this: unknown, ...args: unknown[]): unknown {
          if (variadic ? args.length < fixed : args.length !== fixed) throw arityError(args.length);
          const frame = prepare();
          if (selfSlot !== undefined) frame[selfSlot] = closure;
          for (let i = 0; i < fixed; i++) frame[raw[i] as number] = args[i] ?? null;
          if (variadic) {
            const rest = args.length > fixed ? args.slice(fixed) : [];
            frame[raw[fixed] as number] = restAsMap ? restToMap(rest, position) : rest;
          }
          return enter(frame);
        }, info);
      }
      return closure;
    };
  }

  // ---------------------------------------------------------------- calls

  private compileCall(
    calleeNode: Node,
    argNodes: readonly Node[],
    position: { line: number; column: number },
  ): Code {
    if (calleeNode.kind === "builtin") {
      const intrinsic = argNodes.length === 2 ? binaryIntrinsic(calleeNode.name) : undefined;
      if (intrinsic !== undefined)
        return this.compileBinaryIntrinsic(intrinsic, argNodes[0] as Node, argNodes[1] as Node, position);
      return this.compileBuiltinCall(
        this.requireBuiltin(calleeNode.name, calleeNode.position),
        argNodes.map((arg) => this.compile(arg)),
        position,
      );
    }
    const args = argNodes.map((arg) => this.compile(arg));
    if (calleeNode.kind === "const" && calleeNode.value instanceof Keyword && args.length === 1) {
      return compileKeywordLookup(calleeNode.value, args[0] as Code);
    }
    const callee = this.compile(calleeNode);
    const count = args.length;
    if (count === 1) {
      const a0 = args[0] as Code;
      const codes = [callee, a0];
      const finish = (values: unknown): unknown =>
        invoke((values as unknown[])[0], [(values as unknown[])[1]], position);
      return (frame) => {
        const fn = callee(frame);
        if (fn instanceof Promise) return after(resume(codes, frame, [], 0, fn), finish);
        const v0 = a0(frame);
        if (v0 instanceof Promise) return after(resume(codes, frame, [fn], 1, v0), finish);
        callSite.current = position;
        if (typeof fn === "function" && (fn as Partial<LispFunction>)[FUNCTION_INFO]?.builtin === false)
          return fn(v0);
        return callValue(fn, [v0]);
      };
    }
    if (count === 2) {
      const a0 = args[0] as Code;
      const a1 = args[1] as Code;
      const codes = [callee, a0, a1];
      const finish = (values: unknown): unknown => {
        const list = values as unknown[];
        return invoke(list[0], [list[1], list[2]], position);
      };
      return (frame) => {
        const fn = callee(frame);
        if (fn instanceof Promise) return after(resume(codes, frame, [], 0, fn), finish);
        const v0 = a0(frame);
        if (v0 instanceof Promise) return after(resume(codes, frame, [fn], 1, v0), finish);
        const v1 = a1(frame);
        if (v1 instanceof Promise) return after(resume(codes, frame, [fn, v0], 2, v1), finish);
        callSite.current = position;
        if (typeof fn === "function" && (fn as Partial<LispFunction>)[FUNCTION_INFO]?.builtin === false)
          return fn(v0, v1);
        return callValue(fn, [v0, v1]);
      };
    }
    const all = [callee, ...args];
    return (frame) =>
      after(evaluateAll(all, frame, new Array(all.length), 0), (values) => {
        const list = values as unknown[];
        return invoke(list[0], list.slice(1), position);
      });
  }

  /** How a call argument is read: locals and constants inline (see intrinsics.ts). */
  private operand(node: Node): Operand {
    if (node.kind === "local") return { kind: "local", slot: node.slot };
    if (node.kind === "const") return { kind: "const", value: node.value };
    return { kind: "code", code: this.compile(node) };
  }

  private compileBinaryIntrinsic(
    op: (a: unknown, b: unknown) => unknown,
    left: Node,
    right: Node,
    position: { line: number; column: number },
  ): Code {
    const a = this.operand(left);
    const b = this.operand(right);
    const codes = [operandCode(a), operandCode(b)];
    const finish = (values: unknown): unknown => {
      callSite.current = position;
      return op((values as unknown[])[0], (values as unknown[])[1]);
    };
    // Called when operand `index` returned a promise; `first` is operand 0 when index is 1.
    const slow = (frame: unknown[], index: number, first: unknown, pending: Promise<unknown>) =>
      after(resume(codes, frame, index === 0 ? [] : [first], index, pending), finish);
    return binaryNode(op, a, b, slow, position);
  }

  private compileBuiltinCall(fn: LispFunction, args: readonly Code[], position: Position): Code {
    const count = args.length;
    const info = fn[FUNCTION_INFO];
    if (count < info.minArity || count > info.maxArity) {
      return (frame) =>
        after(evaluateAll(args, frame, new Array(count), 0), () => {
          callSite.current = position;
          checkBuiltinArity(fn, count);
          return null;
        });
    }
    const spread = (values: unknown): unknown => {
      callSite.current = position;
      return fn(...(values as unknown[]));
    };
    switch (count) {
      case 0:
        return () => {
          callSite.current = position;
          return fn();
        };
      case 1: {
        const a0 = args[0] as Code;
        return (frame) => {
          const v0 = a0(frame);
          if (v0 instanceof Promise) return after(v0, (resolved) => spread([resolved]));
          callSite.current = position;
          return fn(v0);
        };
      }
      case 2: {
        const a0 = args[0] as Code;
        const a1 = args[1] as Code;
        return (frame) => {
          const v0 = a0(frame);
          if (v0 instanceof Promise) return after(resume(args, frame, [], 0, v0), spread);
          const v1 = a1(frame);
          if (v1 instanceof Promise) return after(resume(args, frame, [v0], 1, v1), spread);
          callSite.current = position;
          return fn(v0, v1);
        };
      }
      case 3: {
        const a0 = args[0] as Code;
        const a1 = args[1] as Code;
        const a2 = args[2] as Code;
        return (frame) => {
          const v0 = a0(frame);
          if (v0 instanceof Promise) return after(resume(args, frame, [], 0, v0), spread);
          const v1 = a1(frame);
          if (v1 instanceof Promise) return after(resume(args, frame, [v0], 1, v1), spread);
          const v2 = a2(frame);
          if (v2 instanceof Promise) return after(resume(args, frame, [v0, v1], 2, v2), spread);
          callSite.current = position;
          return fn(v0, v1, v2);
        };
      }
      default:
        return (frame) => after(evaluateAll(args, frame, new Array(count), 0), spread);
    }
  }

  // ---------------------------------------------------------------- literals

  private compileVector(nodes: readonly Node[]): Code {
    if (nodes.every((node) => node.kind === "const")) {
      // Vectors are never mutated, so a constant vector can be one shared array.
      const value = Object.freeze(nodes.map((node) => (node as { value: unknown }).value));
      return () => value;
    }
    const items = nodes.map((node) => this.compile(node));
    const size = 16 + 8 * items.length;
    return (frame) =>
      after(evaluateAll(items, frame, new Array(items.length), 0), (values) => {
        active.allocate(size);
        return values;
      });
  }

  private compileMap(entries: ReadonlyArray<readonly [Node, Node]>): Code {
    const keys = entries.map(([key]) => this.compile(key));
    const values = entries.map(([, value]) => this.compile(value));
    const all = [...keys, ...values];
    const count = entries.length;
    const size = 32 + 40 * count;
    return (frame) =>
      after(evaluateAll(all, frame, new Array(all.length), 0), (resolved) => {
        const list = resolved as unknown[];
        active.allocate(size);
        const builder = new MapBuilder();
        for (let i = 0; i < count; i++) {
          if (!builder.has(list[i])) builder.set(list[i], list[count + i]);
        }
        return builder.build();
      });
  }

  // ---------------------------------------------------------------- for / doseq

  private compileFor(
    clauseNodes: readonly ForClause[],
    bodyNode: Node,
    collect: boolean,
    position: Position,
  ): Code {
    type Step =
      | { kind: "bind"; init: Code; bind: Binder; name: string; position: { line: number; column: number } }
      | { kind: "when" | "while"; test: Code }
      | { kind: "let"; inits: Code[]; binders: Binder[] };
    const steps: Step[] = clauseNodes.map((clause) => {
      switch (clause.kind) {
        case "bind": {
          const pattern = clause.pattern as Pattern;
          return {
            kind: "bind",
            init: this.compile(clause.init as Node),
            bind: this.binder(pattern),
            name: pattern.kind === "bind" ? pattern.name : "pattern",
            position: clause.position,
          };
        }
        case "let":
          return {
            kind: "let",
            inits: (clause.bindings ?? []).map((binding) => this.compile(binding.init)),
            binders: (clause.bindings ?? []).map((binding) => this.binder(binding.pattern)),
          };
        default:
          return { kind: clause.kind, test: this.compile(clause.test as Node) };
      }
    });
    const body = this.compile(bodyNode);
    const STOP = Symbol("stop");

    // Runs steps[index..] for the current bindings; returns STOP when a :while fails.
    const run = (frame: unknown[], index: number, out: unknown[]): unknown => {
      if (index === steps.length) {
        iterateAt(position);
        return after(body(frame), (value) => {
          if (collect) out.push(value);
          return undefined;
        });
      }
      const step = steps[index] as Step;
      switch (step.kind) {
        case "when":
          return after(step.test(frame), (value) =>
            isTruthy(value) ? run(frame, index + 1, out) : undefined,
          );
        case "while":
          return after(step.test(frame), (value) => (isTruthy(value) ? run(frame, index + 1, out) : STOP));
        case "let": {
          const bindFrom = (i: number): unknown => {
            if (i === step.inits.length) return run(frame, index + 1, out);
            return after((step.inits[i] as Code)(frame), (value) => {
              (step.binders[i] as Binder)(frame, value);
              return bindFrom(i + 1);
            });
          };
          return bindFrom(0);
        }
        case "bind":
          return after(step.init(frame), (collection) => {
            const items = itemsOf(collection);
            if (items === undefined) {
              throw new LispError(
                "type_error",
                `for binding '${step.name}' expected a collection, got: ${print(collection, { maxChars: 60 })} (${typeName(collection)})`,
                step.position,
              );
            }
            const each = (i: number): unknown => {
              for (; i < items.length; i++) {
                step.bind(frame, items[i]);
                const result = run(frame, index + 1, out);
                if (result instanceof Promise) {
                  return after(result, (resolved) => (resolved === STOP ? undefined : each(i + 1)));
                }
                if (result === STOP) return undefined;
              }
              return undefined;
            };
            return each(0);
          });
      }
    };
    return (frame) => {
      const out: unknown[] = [];
      return after(run(frame, 0, out), () => {
        if (!collect) return null;
        active.allocate(16 + 8 * out.length);
        return out;
      });
    };
  }
}

/** One loop iteration of the running program; a limit error points at the loop's form. */
function iterateAt(position: Position): void {
  const context = active;
  if (++context.iterations > context.limits.maxIterations)
    throw loopLimitError(context.limits.maxIterations).at(position);
  if (--context.fuel <= 0) context.refuel();
}

/** `(:k m)`: the commonest call in data programs, specialized. */
function compileKeywordLookup(keyword: Keyword, target: Code): Code {
  return (frame) => {
    const value = target(frame);
    if (value instanceof Promise) return after(value, (resolved) => keywordGet(keyword, resolved));
    return keywordGet(keyword, value);
  };
}

export function keywordGet(keyword: Keyword, value: unknown): unknown {
  return getField(value, keyword);
}

function invoke(fn: unknown, args: unknown[], position: Position): unknown {
  callSite.current = position;
  return callValue(fn, args);
}

/** `[& {:keys [a]}]`: rest arguments read as alternating keys and values. */
export function restToMap(rest: readonly unknown[], position: { line: number; column: number }): unknown {
  if (rest.length === 0) return null;
  if (rest.length === 1 && isMap(rest[0])) return rest[0];
  if (rest.length % 2 !== 0) {
    throw new LispError(
      "destructure_error",
      `keyword arguments must come in pairs, got an odd count (${rest.length})`,
      position,
    );
  }
  const builder = new MapBuilder();
  for (let i = 0; i < rest.length; i += 2) builder.set(rest[i], rest[i + 1]);
  return builder.build();
}
