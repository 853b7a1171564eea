/**
 * Loops the fast tier writes in place of builtin calls (codegen.ts calls in here): a literal
 * callback of `map`, `mapv`, `filter`, `remove`, `some`, `every?` and `reduce` inlined into one loop (pipelines of
 * several stages are fused in fused-pipelines.ts). The happy path only: anything unusual raises
 * an error, and the unit runs again on the general evaluator, which calls the builtins themselves.
 */
import type { Node } from "../analyzer/ast.js";
import { Keyword } from "../values/keyword.js";
import { nestedUpdateCalls, ownedAccumulator } from "./accumulator-use.js";
import { recursOutward } from "./purity.js";
import { addTerm, addToSum, startSum, summedTerm, sumValue } from "./running-sum.js";

/** What the loops need of the generator (codegen.ts). */
export interface LoopEmitter {
  /** The run context's variable in the function being generated. */
  readonly contextName: string;
  /** Emits code computing `node`; returns an expression naming its value. */
  value(node: Node): string;
  /** Emits `const name = expression;` and returns the name. */
  bind(expression: string): string;
  emit(line: string): void;
  /** Lines emitted earlier with `block`, into the current block. */
  emitAll(lines: readonly string[]): void;
  /** Runs `body` collecting the lines it emits, and returns them. */
  block(body: () => void): string[];
  temp(prefix?: string): string;
  truthy(expression: string): string;
  /** `(:k value)`, with the generator's fast reads (`raw`: a missing field may stay undefined). */
  field(value: string, keyword: Keyword, raw?: boolean): string;
  /** Whether `expression` is known never to be undefined. */
  isDefined(expression: string): boolean;
  /** Records that a name (assigned only defined values) is never undefined. */
  markDefined(name: string): void;
  /** `expression`, with undefined read as nil unless it is known to be defined. */
  normalized(expression: string): string;
  /** `expression` as a name (a literal is bound to one first), usable as a member-access target. */
  named(expression: string): string;
  /** The name of a constant (in `K`) holding `value`. */
  constant(value: unknown): string;
  /** Whether `name` is a builtin that takes `count` arguments. */
  builtinAccepts(name: string, count: number): boolean;
  /** A call of builtin `name` (which takes that many) on computed values; returns the result's name. */
  builtinWith(name: string, args: readonly string[]): string;
  /**
   * The parameters of a literal fn bound to these argument names, for what `emitBody` emits
   * (parts of the fn's body, with `value`).
   */
  inlineWith(fn: Extract<Node, { kind: "fn" }>, argumentNames: readonly string[], emitBody: () => void): void;
  /** Emits the bindings of nested lets, then `inner` for the innermost body, in their scope. */
  withLets(node: Node, inner: (body: Node) => void): void;
  /** The body of a literal fn for these argument names, inline; returns the name of its value. */
  inlineBody(fn: Extract<Node, { kind: "fn" }>, argumentNames: readonly string[]): string;
  /**
   * While the body of a reduce fn is inlined whose owned accumulator only update-in of one path
   * length derives (accumulator-use.ts, nestedUpdateCalls): those calls' argument lists, and the
   * name of the set of maps the reduce's update-in made below the accumulator.
   */
  nestedUpdates: { readonly calls: ReadonlySet<readonly Node[]>; readonly made: string } | undefined;
  /**
   * While a fused pipeline's `map` stage is written whose fn is one update call
   * (fresh-stages.ts): that call's argument list, with the variable naming the map the stage below
   * made fresh (`input`, when this call may change it in place) and the variable in which this
   * stage names the map it makes fresh for the stage above (`output`).
   */
  freshUpdates: Map<
    readonly Node[],
    { readonly input: string | undefined; readonly output: string | undefined }
  >;
}

// ------------------------------------------------------------------ inlined callbacks

/**
 * `(map (fn [x] ...) coll)`, `(filter #(...) coll)`, `(map :amount coll)`, `(reduce (fn [acc x]
 * ...) init coll)` with a literal function (or keyword): one loop with the function's body inline, as a JS programmer would write it,
 * instead of a call per item through the function's entry checks. The builtin's charges (work up
 * front, a clock read every 1,024 items, the result vector) are the same. Anything unusual
 * (a collection that is not one, an error in the body) raises an error, and the unit runs
 * again on the general evaluator, which calls the real builtin.
 */
export function inlineHigherOrder(g: LoopEmitter, name: string, args: readonly Node[]): string | undefined {
  switch (name) {
    case "map":
    case "mapv":
    case "filter":
    case "remove": {
      const body = args.length === 2 ? inlineCallback(g, args[0] as Node) : undefined;
      if (body === undefined) return undefined;
      const items = g.bind(`$.collection(${g.value(args[1] as Node)})`);
      return name === "map" || name === "mapv"
        ? inlineMap(g, body, items)
        : inlineSelect(g, body, items, name === "filter");
    }
    case "some":
    case "every?": {
      const body = args.length === 2 ? inlineCallback(g, args[0] as Node) : undefined;
      if (body === undefined) return undefined;
      const items = g.bind(`$.collection(${g.value(args[1] as Node)})`);
      return inlineScan(g, body, items, name === "some");
    }
    case "reduce": {
      if (args.length !== 2 && args.length !== 3) return undefined;
      const f = args[0] as Node;
      // (reduce + 0 xs), (reduce max xs): a builtin that takes two arguments, called in place
      // (conj is left to the builtin, which appends to a vector it owns).
      if (f.kind === "builtin" && f.name !== "conj" && g.builtinAccepts(f.name, 2)) {
        const init = args.length === 3 ? g.value(args[1] as Node) : undefined;
        const items = g.bind(`$.collection(${g.value(args[args.length - 1] as Node)})`);
        return inlineReduceBuiltin(g, f.name, init, items);
      }
      const fn = args.length === 3 ? inlinable(f, 2) : undefined;
      if (fn === undefined) return undefined;
      const init = g.value(args[1] as Node);
      const items = g.bind(`$.collection(${g.value(args[2] as Node)})`);
      g.emit(`${g.contextName}.work(${items}.length);`);
      return inlineFold(g, fn, init, (step) => eachItem(g, items, step));
    }
    case "group-by":
    case "sum-by": {
      // (group-by :region rows), (sum-by :amount orders): the field read in place, where V8
      // learns the rows' shape, instead of a shared reader called per row.
      const keyword = args.length === 2 && args[0]?.kind === "const" ? args[0].value : undefined;
      if (!(keyword instanceof Keyword)) return undefined;
      const items = g.bind(`$.collection(${g.value(args[1] as Node)})`);
      return name === "group-by" ? inlineGroupBy(g, keyword, items) : inlineSumBy(g, keyword, items);
    }
    default:
      return undefined;
  }
}

/**
 * The loop every inlined builtin makes over a collection's items: the item as read (`raw`) and
 * with undefined read as nil (`item`) handed to `body`, and a clock read every 1,024 items, as
 * the builtins do. Each caller charges the work of the whole collection itself, where its builtin
 * does.
 */
export function eachItem(
  g: LoopEmitter,
  items: string,
  body: (item: string, raw: string, index: string) => void,
  start = 0,
): void {
  const i = g.temp("i");
  const lines = g.block(() => {
    // $.collection hands over no undefined item: the item is read as it is.
    const item = g.bind(`${items}[${i}]`);
    g.markDefined(item);
    body(item, item, i);
    g.emit(`if ((${i} & 1023) === 1023) ${g.contextName}.work(1024);`);
  });
  g.emit(`for (let ${i} = ${start}; ${i} < ${items}.length; ${i}++) {`);
  g.emitAll(lines);
  g.emit("}");
}

/**
 * The body of a one-argument callback written in place: a literal fn's body, or a keyword's field
 * read (`(map :amount rows)`). A keyword literal is a constant, so nothing is skipped by not
 * evaluating it.
 */
function inlineCallback(g: LoopEmitter, node: Node): ((item: string) => string) | undefined {
  const fn = inlinable(node, 1);
  if (fn !== undefined) return (item) => g.inlineBody(fn, [item]);
  return fieldCallback(g, node);
}

/** The keywords of `(juxt :a :b ...)` written with keyword literals only, else undefined. */
export function keywordJuxt(node: Node): Keyword[] | undefined {
  if (node.kind !== "call" || node.callee.kind !== "builtin" || node.callee.name !== "juxt") return undefined;
  if (node.args.length === 0) return undefined;
  const keywords: Keyword[] = [];
  for (const arg of node.args) {
    if (arg.kind !== "const" || !(arg.value instanceof Keyword)) return undefined;
    keywords.push(arg.value);
  }
  return keywords;
}

/**
 * A one-argument callback that reads fields, written in place: a keyword (`(map :amount rows)`)
 * or a juxt of keywords (`(map (juxt :region :status) rows)`, a vector of the fields, charged as
 * juxt charges it). Neither has an effect, so not evaluating the callback itself changes nothing.
 */
export function fieldCallback(g: LoopEmitter, node: Node): ((item: string) => string) | undefined {
  if (node.kind === "const" && node.value instanceof Keyword) {
    const keyword = node.value;
    return (item) => g.field(item, keyword);
  }
  const keywords = keywordJuxt(node);
  if (keywords === undefined) return undefined;
  return (item) => {
    const fields = keywords.map((keyword) => g.field(item, keyword));
    g.emit(`$.chargeVector(${keywords.length});`);
    return g.bind(`[${fields.join(", ")}]`);
  };
}

function inlineMap(g: LoopEmitter, callback: (item: string) => string, items: string): string {
  const out = g.temp("out");
  g.emit(`${g.contextName}.work(${items}.length);`);
  g.emit(`const ${out} = $.vec(new Array(${items}.length));`);
  eachItem(g, items, (item, _raw, i) => {
    const value = callback(item);
    g.emit(`${out}[${i}] = ${value} === undefined ? null : ${value};`);
  });
  return out;
}

/**
 * `(some pred coll)`: the first truthy result of the predicate, or nil; `(every? pred coll)`:
 * false at the first falsy result, else true. The loop stops there, as the builtins' scan does,
 * and charges what it charges (the whole collection's work up front).
 */
function inlineScan(
  g: LoopEmitter,
  callback: (item: string) => string,
  items: string,
  some: boolean,
): string {
  const out = g.temp("found");
  g.emit(`${g.contextName}.work(${items}.length);`);
  g.emit(`let ${out} = ${some ? "null" : "true"};`);
  g.markDefined(out);
  // The body's own blocks are labelled blocks, never loops, so a plain break leaves this loop.
  eachItem(g, items, (item) => {
    const value = callback(item);
    if (some) g.emit(`if (${g.truthy(value)}) { ${out} = ${value}; break; }`);
    else g.emit(`if (!${g.truthy(value)}) { ${out} = false; break; }`);
  });
  return out;
}

function inlineSelect(
  g: LoopEmitter,
  callback: (item: string) => string,
  items: string,
  wanted: boolean,
): string {
  const out = g.temp("out");
  g.emit(`${g.contextName}.work(${items}.length);`);
  g.emit(`const ${out} = [];`);
  eachItem(g, items, (item, raw) => {
    const value = callback(item);
    g.emit(`if (${wanted ? g.truthy(value) : `!${g.truthy(value)}`}) ${out}.push(${raw});`);
  });
  return g.bind(`$.vec(${out})`);
}

/**
 * `(reduce (fn [acc x] ...) init coll)` with the fn's body inline, `loop` emitting the iteration
 * (each item handed to the step). The accumulator is detached, as the builtin has it: the caller's
 * hold on an initial map keeps no history alive. A fn that only derives its accumulator
 * (accumulator-use.ts) folds as the builtin's reduceOwning does (aggregation.ts): from a copy
 * nobody else holds, named in its ownership token while each step runs, so that conj, assoc,
 * update, merge-with... change it in place; once a step hands back anything else, nothing is
 * owned. The token is restored however the loop ends.
 */
export function inlineFold(
  g: LoopEmitter,
  fn: Extract<Node, { kind: "fn" }>,
  init: string,
  loop: (step: (item: string) => void) => void,
): string {
  const acc = g.temp("acc");
  // Normalized once here and at every step, so the body binds it as it is.
  g.emit(`let ${acc} = $.detach(${init});`);
  g.emit(`if (${acc} === undefined) ${acc} = null;`);
  g.markDefined(acc);
  const term = summedTerm(fn);
  if (term !== undefined) {
    // (fn [acc x] (+ acc T)): a running sum of the terms (running-sum.ts), from the initial value.
    const running = startSum(g, acc);
    loop((item) =>
      g.inlineWith(fn, ["null", item], () => g.withLets(term, (body) => addTerm(g, running, body))),
    );
    return sumValue(g, running);
  }
  if (!ownedAccumulator(fn)) {
    loop((item) => g.emit(`${acc} = ${g.normalized(g.inlineBody(fn, [acc, item]))};`));
    return acc;
  }
  const token = g.temp("token");
  const owned = g.temp("owned");
  const previous = g.temp("previous");
  g.emit(`const ${token} = $.ownerToken(${acc});`);
  g.emit(`if (${token} !== null) ${acc} = $.ownedCopy(${acc});`);
  g.emit(`let ${owned} = ${token} === null ? undefined : ${acc};`);
  g.emit(`const ${previous} = ${token} === null ? undefined : ${token}.current;`);
  const calls = nestedUpdateCalls(fn);
  const outer = g.nestedUpdates;
  let made: string | undefined;
  if (calls !== undefined) {
    made = g.temp("made");
    g.emit(`const ${made} = new Set();`);
  }
  g.nestedUpdates = made === undefined || calls === undefined ? undefined : { calls, made };
  const body = g.block(() =>
    loop((item) => {
      g.emit(`if (${token} !== null) ${token}.current = ${owned};`);
      g.emit(`${acc} = ${g.normalized(g.inlineBody(fn, [acc, item]))};`);
      g.emit(`if (${acc} !== ${owned}) ${owned} = undefined;`);
    }),
  );
  g.nestedUpdates = outer;
  g.emit("try {");
  g.emitAll(body);
  g.emit(`} finally { if (${token} !== null) ${token}.current = ${previous}; }`);
  return acc;
}

/** `(group-by :k coll)`: the builtin's groups (aggregation.ts), filled by one loop. */
function inlineGroupBy(g: LoopEmitter, keyword: Keyword, items: string): string {
  const groups = g.temp("groups");
  g.emit(`${g.contextName}.work(${items}.length);`);
  g.emit(`const ${groups} = $.groups();`);
  eachItem(g, items, (item, raw) => {
    g.emit(`${groups}.add(${g.field(item, keyword)}, ${raw});`);
  });
  return g.bind(`${groups}.build(${items}.length)`);
}

/**
 * `(sum-by :k coll)`: nil fields are skipped, numbers added as `+` adds them (inline); anything
 * else is an error, which reruns the unit on the general evaluator, where sum-by reports it.
 */
function inlineSumBy(g: LoopEmitter, keyword: Keyword, items: string): string {
  g.emit(`${g.contextName}.work(${items}.length);`);
  const running = startSum(g, undefined);
  eachItem(g, items, (item) => {
    const value = g.field(item, keyword);
    const add = g.block(() => addToSum(g, running, value));
    g.emit(`if (${value} !== null) {`);
    g.emitAll(add);
    g.emit("}");
  });
  return sumValue(g, running);
}

/**
 * `(reduce + 0 xs)` or `(reduce max xs)` with a builtin: a direct call per item (arithmetic
 * inline), with the builtin reduce's rules: without an initial value an empty collection gives
 * nil and the first item starts the fold.
 */
function inlineReduceBuiltin(g: LoopEmitter, name: string, init: string | undefined, items: string): string {
  if (name === "+") {
    // A running sum (running-sum.ts); an empty collection without an initial value is nil.
    g.emit(`${g.contextName}.work(${items}.length);`);
    const first = init ?? g.bind(`${items}.length === 0 ? 0 : ${items}[0]`);
    const running = startSum(g, first);
    eachItem(g, items, (item) => addToSum(g, running, item), init === undefined ? 1 : 0);
    const sum = sumValue(g, running);
    return init === undefined ? g.bind(`${items}.length === 0 ? null : ${sum}`) : sum;
  }
  const acc = g.temp("acc");
  if (init === undefined) g.emit(`let ${acc} = ${items}.length === 0 ? null : ${items}[0];`);
  else g.emit(`let ${acc} = $.detach(${init});`);
  const loop = g.block(() => {
    g.emit(`${g.contextName}.work(${items}.length);`);
    eachItem(
      g,
      items,
      (item) => g.emit(`${acc} = ${g.normalized(g.builtinWith(name, [acc, item]))};`),
      init === undefined ? 1 : 0,
    );
  });
  if (init === undefined) g.emit(`if (${items}.length > 0) {`);
  g.emitAll(loop);
  if (init === undefined) g.emit("}");
  return g.bind(`${acc} === undefined ? null : ${acc}`);
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
