/**
 * Calls on the general evaluator: to known builtins (checked arity, fixed-arity paths, binary
 * intrinsics with operands read inline), to keywords (`(:k m)`), and to any value. Each argument
 * that waits on a tool is awaited before the next argument is evaluated.
 */
import type { Node } from "../analyzer/ast.js";
import type { Position } from "../reader/form.js";
import { after } from "../runtime/async.js";
import { callValue, checkBuiltinArity } from "../runtime/call.js";
import { callSite } from "../runtime/call-site.js";
import { type VarSpec, varSpec } from "../runtime/var-cell.js";
import { Keyword } from "../values/keyword.js";
import { FUNCTION_INFO, type LispFunction } from "../values/lisp-function.js";
import { getField } from "../values/map-access.js";
import type { Code } from "./code.js";
import { evaluateAll, invoke, resume } from "./evaluation.js";
import { binaryIntrinsic, binaryNode, type Operand, operandCode } from "./intrinsics.js";
import { shortcutStats } from "./number-shortcuts.js";
import { readVar } from "./var-read.js";

export function compileCall(
  compile: (node: Node) => Code,
  requireBuiltin: (name: string, position: Position) => LispFunction,

  calleeNode: Node,
  argNodes: readonly Node[],
  position: { line: number; column: number },
): Code {
  if (calleeNode.kind === "builtin") {
    const intrinsic = argNodes.length === 2 ? binaryIntrinsic(calleeNode.name) : undefined;
    if (intrinsic !== undefined)
      return compileBinaryIntrinsic(compile, intrinsic, argNodes[0] as Node, argNodes[1] as Node, position);
    const fn = requireBuiltin(calleeNode.name, calleeNode.position);
    const info = fn[FUNCTION_INFO];
    if (argNodes.length === 1 && info.minArity <= 1 && info.maxArity >= 1) {
      // `(inc i)`, `(count xs)`, `(str (:name o))`: the argument read inline, no closure for it.
      const arg = operand(compile, argNodes[0] as Node);
      if (arg.kind === "local") {
        const slot = arg.slot;
        const counted = countingShortcut(calleeNode.name, slot, fn, position);
        if (counted !== undefined) return counted;
        return (frame) => {
          callSite.current = position;
          return fn(frame[slot]);
        };
      }
      if (arg.kind === "field") {
        const slot = arg.slot;
        const keyword = arg.keyword;
        return (frame) => {
          const value = getField(frame[slot], keyword);
          callSite.current = position;
          return fn(value);
        };
      }
      if (arg.kind === "code") return compileBuiltinCall(fn, [arg.code], position);
    }
    if (argNodes.length === 2 && info.minArity <= 2 && info.maxArity >= 2) {
      // `(get m (:id o))`, `(contains? s x)`: any two-argument builtin call reads its locals,
      // constants and field reads inline, as the intrinsics do (same order, same call site).
      return compileBinaryIntrinsic(
        compile,
        fn as (a: unknown, b: unknown) => unknown,
        argNodes[0] as Node,
        argNodes[1] as Node,
        position,
      );
    }
    return compileBuiltinCall(
      fn,
      argNodes.map((arg) => compile(arg)),
      position,
    );
  }
  const args = argNodes.map((arg) => compile(arg));
  if (calleeNode.kind === "const" && calleeNode.value instanceof Keyword && args.length === 1) {
    const target = argNodes[0] as Node;
    if (target.kind === "local") {
      // `(:k x)` on a local: one closure, the slot read inline.
      const keyword = calleeNode.value;
      const slot = target.slot;
      return (frame) => getField(frame[slot], keyword);
    }
    return compileKeywordLookup(calleeNode.value, args[0] as Code);
  }
  if (calleeNode.kind === "var" && (args.length === 1 || args.length === 2))
    return compileVarCall(
      varSpec(calleeNode.name, calleeNode.position, calleeNode.soft === true),
      args,
      position,
    );
  const callee = compile(calleeNode);
  const count = args.length;
  // The one- and two-argument makers below (and compileVarCall's) repeat one preamble: kept
  // written out per size for the reason given at compileBuiltinCall.
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
  const call = (values: unknown): unknown => {
    const list = values as unknown[];
    return invoke(list[0], list.slice(1), position);
  };
  return (frame) => after(evaluateAll(all, frame, new Array(all.length), 0), call);
}

/**
 * `(inc i)`, `(dec n)` on a local, the step of most loops: a safe integer stepped in the node
 * itself, a function literal for each (see number-shortcuts.ts for why); anything else (a float, a
 * big integer, not a number) goes to the builtin.
 */
function countingShortcut(
  name: string,
  slot: number,
  fn: LispFunction,
  position: Position,
): Code | undefined {
  if (name === "inc") {
    shortcutStats.counting++;
    return (frame) => {
      const value = frame[slot];
      if (typeof value === "number" && Number.isSafeInteger(value) && value < Number.MAX_SAFE_INTEGER)
        return value + 1;
      callSite.current = position;
      return fn(value);
    };
  }
  if (name === "dec") {
    shortcutStats.counting++;
    return (frame) => {
      const value = frame[slot];
      if (typeof value === "number" && Number.isSafeInteger(value) && value > Number.MIN_SAFE_INTEGER)
        return value - 1;
      callSite.current = position;
      return fn(value);
    };
  }
  return undefined;
}

/**
 * `(f x)`, `(f x y)` with `f` a var (a defn, recursion through its own name): the var read inline
 * rather than by a closure of its own (a var's value is never a promise), as the other calls
 * do, else.
 */
function compileVarCall(spec: VarSpec, args: readonly Code[], position: Position): Code {
  // Codes in the order of the values resume fills (the callee at 0: already read when it runs).
  const readCallee: Code = () => readVar(spec);
  if (args.length === 1) {
    const a0 = args[0] as Code;
    const codes = [readCallee, a0];
    const finish = (values: unknown): unknown =>
      invoke((values as unknown[])[0], [(values as unknown[])[1]], position);
    return (frame) => {
      const fn = readVar(spec);
      const v0 = a0(frame);
      if (v0 instanceof Promise) return after(resume(codes, frame, [fn], 1, v0), finish);
      callSite.current = position;
      if (typeof fn === "function" && (fn as Partial<LispFunction>)[FUNCTION_INFO]?.builtin === false)
        return fn(v0);
      return callValue(fn, [v0]);
    };
  }
  const a0 = args[0] as Code;
  const a1 = args[1] as Code;
  const codes = [readCallee, a0, a1];
  const finish = (values: unknown): unknown => {
    const list = values as unknown[];
    return invoke(list[0], [list[1], list[2]], position);
  };
  return (frame) => {
    const fn = readVar(spec);
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

/** How a call argument is read: locals and constants inline (see intrinsics.ts). */
function operand(compile: (node: Node) => Code, node: Node): Operand {
  if (node.kind === "local") return { kind: "local", slot: node.slot };
  if (node.kind === "const") return { kind: "const", value: node.value };
  const field = localField(node);
  if (field !== undefined) return field;
  return { kind: "code", code: compile(node) };
}

/** `(:k x)` with `x` a local, as an operand read inline; else undefined. */
function localField(node: Node): Extract<Operand, { kind: "field" }> | undefined {
  if (node.kind !== "call" || node.args.length !== 1) return undefined;
  const callee = node.callee;
  const target = node.args[0] as Node;
  if (callee.kind !== "const" || !(callee.value instanceof Keyword) || target.kind !== "local")
    return undefined;
  return { kind: "field", slot: target.slot, keyword: callee.value };
}

function compileBinaryIntrinsic(
  compile: (node: Node) => Code,

  op: (a: unknown, b: unknown) => unknown,
  left: Node,
  right: Node,
  position: { line: number; column: number },
): Code {
  const a = operand(compile, left);
  const b = operand(compile, right);
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

/**
 * A call of a known builtin with its arguments as compiled code. The cases for one, two and three
 * arguments repeat the same preamble (evaluate, check for a promise, go on) on purpose: each is
 * its own function literal, so the argument calls and the builtin call of each see only the
 * calls of that size, and a fold into one loop over an array (the default case) allocates the array
 * per call and shares one call site among every size. Last round's per-shape literals paid and
 * the generic helpers lost (docs/benchmarks-history.md, "Issue 22's third round"), so they stay written out.
 */
export function compileBuiltinCall(fn: LispFunction, args: readonly Code[], position: Position): Code {
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
      // `(str "order " id " for " c ": " p)`, `(format t a b c)`: the arguments evaluated in this
      // node's own loop and the builtin called from here; only an argument that waits on a tool
      // takes the asynchronous path (as vectors do, compile.ts).
      manyArgumentStats.inline++;
      return (frame) => {
        const values = new Array<unknown>(count);
        for (let i = 0; i < count; i++) {
          const value = (args[i] as Code)(frame);
          if (value instanceof Promise) return after(resume(args, frame, values, i, value), spread);
          values[i] = value;
        }
        callSite.current = position;
        return fn(...values);
      };
  }
}

/** Builtin calls of four or more arguments evaluated in their own node (the tests read it). */
export const manyArgumentStats = { inline: 0 };

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
