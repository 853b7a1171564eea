/**
 * Loops the fast tier writes in place of builtin calls (codegen.ts calls in here): a literal
 * callback of `map`, `mapv`, `filter`, `remove` and `reduce` inlined into one loop, and lazy
 * pipelines (`take`/`first` over stages, analyzer/pipelines.ts) fused into one loop that stops
 * early. The happy path only: anything unusual raises an error, and the unit runs again on the
 * general evaluator, which calls the builtins themselves.
 */
import type { Node } from "../analyzer/ast.js";
import { isPipelinePlan, LAZY_PIPELINE, type PipelinePlan } from "../analyzer/pipelines.js";
import { Keyword } from "../values/keyword.js";
import { ownedAccumulator } from "./accumulator-use.js";
import { GenerationGap } from "./fast-tier.js";
import { recursOutward } from "./purity.js";

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
  /** `(:k value)`, with the generator's fast reads. */
  field(value: string, keyword: Keyword): string;
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
  /** The body of a literal fn for these argument names, inline; returns the name of its value. */
  inlineBody(fn: Extract<Node, { kind: "fn" }>, argumentNames: readonly string[]): string;
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
      // A function that only conjes onto its accumulator is left to the builtin, which lets
      // conj append in place (runtime/owned-vector.ts).
      if (fn === undefined || ownedAccumulator(fn)) return undefined;
      const init = g.value(args[1] as Node);
      const items = g.bind(`$.collection(${g.value(args[2] as Node)})`);
      return inlineReduce(g, fn, init, items);
    }
    case "count": {
      // (count (filter pred coll)): the matches counted, the vector charged but never built.
      const inner = args.length === 1 ? args[0] : undefined;
      if (inner?.kind !== "call" || inner.callee.kind !== "builtin") return undefined;
      const select = inner.callee.name;
      if ((select !== "filter" && select !== "remove") || inner.args.length !== 2) return undefined;
      const body = inlineCallback(g, inner.args[0] as Node);
      if (body === undefined) return undefined;
      const items = g.bind(`$.collection(${g.value(inner.args[1] as Node)})`);
      return inlineCount(g, body, items, select === "filter");
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
    case LAZY_PIPELINE:
      return fusedPipeline(g, args);
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
function fusedPipeline(g: LoopEmitter, args: readonly Node[]): string | undefined {
  const planNode = args[0];
  // A program naming the internal builtin itself gets the builtin, and its error.
  if (planNode?.kind !== "const" || !isPipelinePlan(planNode.value)) return undefined;
  const plan = planNode.value;
  const valueNodes = args.slice(1);
  const source = plan.args[plan.args.length - 1];
  if (typeof source !== "object" || !fusable(source)) return undefined;
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
    builtinIndexes.has(index) || inlinableCallback(node) ? undefined : g.value(node),
  );
  const label = g.temp("P");
  if (plan.op === "take") {
    const count = names[plan.args[0] as number] as string;
    const out = g.temp("out");
    g.emit(`if (typeof ${count} !== "number" || !Number.isInteger(${count})) throw $.notFused();`);
    g.emit(`const ${out} = [];`);
    const body = g.block(() =>
      stream(g, source, valueNodes, names, (item) => {
        g.emit(`${out}.push(${item});`);
        g.emit(`if (${out}.length >= ${count}) break ${label};`);
      }),
    );
    g.emit(`${label}: if (${count} > 0) {`);
    g.emitAll(body);
    g.emit("}");
    return g.bind(`$.vec(${out})`);
  }
  const first = g.temp("first");
  g.emit(`let ${first} = null;`);
  const body = g.block(() =>
    stream(g, source, valueNodes, names, (item) => {
      g.emit(`${first} = ${item};`);
      g.emit(`break ${label};`);
    }),
  );
  g.emit(`${label}: {`);
  g.emitAll(body);
  g.emit("}");
  return first;
}

/** Emits a loop producing the items of `stage`, handing each (a name) to `sink`. */
function stream(
  g: LoopEmitter,
  stage: PipelinePlan,
  valueNodes: readonly Node[],
  names: ReadonlyArray<string | undefined>,
  sink: (item: string) => void,
): void {
  const callback = (index: number, arity: number): ((items: string[]) => string) => {
    const node = valueNodes[index] as Node;
    const fn = inlinable(node, arity);
    if (fn !== undefined) return (items) => g.inlineBody(fn, items);
    if (arity === 1) {
      const read = fieldCallback(g, node);
      if (read !== undefined) return ([item]) => read(item as string);
    }
    // A callback left unevaluated above (it was expected to be inlined) has no effect: make it here.
    const f = g.bind(`$.callback(${names[index] ?? g.value(node)})`);
    return (items) => g.bind(`$.answer(${f}(${items.join(", ")}))`);
  };
  const input = stage.args[stage.args.length - 1] as number | PipelinePlan;
  const upstream = (inner: (item: string) => void): void => {
    if (typeof input === "number") sourceLoop(g, names[input] as string, inner);
    else stream(g, input, valueNodes, names, inner);
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
        const body = g.block(() => sink(item));
        g.emit(`if (${stage.op === "filter" ? "" : "!"}${g.truthy(test)}) {`);
        g.emitAll(body);
        g.emit("}");
      });
      return;
    }
    case "keep": {
      const f = callback(stage.args[0] as number, 1);
      upstream((item) => {
        const result = f([item]);
        const body = g.block(() => sink(result));
        g.emit(`if (${result} !== null && ${result} !== undefined) {`);
        g.emitAll(body);
        g.emit("}");
      });
      return;
    }
    case "map-indexed": {
      const index = g.temp("k");
      g.emit(`let ${index} = 0;`);
      const f = callback(stage.args[0] as number, 2);
      upstream((item) => sink(f([g.bind(`${index}++`), item])));
      return;
    }
    case "partition": {
      const size = g.bind(`$.positive(${names[stage.args[0] as number]})`);
      const step = stage.args.length === 3 ? g.bind(`$.positive(${names[stage.args[1] as number]})`) : size;
      const window = g.temp("w");
      const filled = g.temp("filled");
      const skip = g.temp("skip");
      // The window is allocated at its final size and filled by index: a chunk of two pushed
      // onto [] would allocate a backing store for sixteen.
      g.emit(`let ${window} = new Array(${size});`);
      g.emit(`let ${filled} = 0;`);
      g.emit(`let ${skip} = 0;`);
      upstream((item) => {
        const chunk = g.temp("chunk");
        const k = g.temp("k");
        const body = g.block(() => sink(chunk));
        g.emit(`if (${skip} > 0) ${skip}--;`);
        g.emit(`else {`);
        g.emit(`${window}[${filled}++] = ${item};`);
        g.emit(`if (${filled} === ${size}) {`);
        g.emit(`$.chargeVector(${size});`);
        g.emit(`const ${chunk} = ${window};`);
        g.emit(`${window} = new Array(${size});`);
        g.emit(`if (${step} >= ${size}) { ${filled} = 0; ${skip} = ${step} - ${size}; }`);
        // Overlapping chunks: the next window starts as the last size - step items.
        g.emit(
          `else { for (let ${k} = ${step}; ${k} < ${size}; ${k}++) ${window}[${k} - ${step}] = ${chunk}[${k}]; ${filled} = ${size} - ${step}; }`,
        );
        g.emitAll(body);
        g.emit("}");
        g.emit("}");
      });
      return;
    }
    case "interleave": {
      // Two one-to-one chains (maps only) over vectors, in lockstep.
      const sides = [stage.args[0], stage.args[1]] as [number | PipelinePlan, number | PipelinePlan];
      const chains = sides.map((side) => oneToOne(side));
      const sources = chains.map((chain) => g.bind(`$.lazySource(${names[chain.source]})`));
      // The maps of each chain, innermost first, prepared before the loop.
      const maps = chains.map((chain) => chain.maps.map((mapIndex) => callback(mapIndex, 1)));
      const j = g.temp("j");
      const body = g.block(() => {
        g.emit(`if (--${g.contextName}.fuel <= 0) ${g.contextName}.refuel();`);
        sources.forEach((source, side) => {
          const raw = g.bind(`${source}[${j}]`);
          let item = g.bind(`${raw} === undefined ? null : ${raw}`);
          for (const apply of maps[side] as Array<(items: string[]) => string>) item = apply([item]);
          sink(item);
        });
      });
      g.emit(
        `for (let ${j} = 0, n = Math.min(${sources[0]}.length, ${sources[1]}.length); ${j} < n; ${j}++) {`,
      );
      g.emitAll(body);
      g.emit("}");
      return;
    }
    case "distinct": {
      const seen = g.temp("seen");
      g.emit(`const ${seen} = new Set();`);
      upstream((item) => {
        const key = g.bind(`$.hash(${item})`);
        const body = g.block(() => sink(item));
        g.emit(`if (!${seen}.has(${key})) {`);
        g.emit(`${seen}.add(${key});`);
        g.emitAll(body);
        g.emit("}");
      });
      return;
    }
    default:
      throw new GenerationGap(`no fused code for ${stage.op}`);
  }
}

/** A loop over a vector source, one fuel unit per item. */
function sourceLoop(g: LoopEmitter, value: string, sink: (item: string) => void): void {
  const items = g.bind(`$.lazySource(${value})`);
  const i = g.temp("i");
  const body = g.block(() => {
    g.emit(`if (--${g.contextName}.fuel <= 0) ${g.contextName}.refuel();`);
    const raw = g.bind(`${items}[${i}]`);
    sink(g.bind(`${raw} === undefined ? null : ${raw}`));
  });
  g.emit(`for (let ${i} = 0; ${i} < ${items}.length; ${i}++) {`);
  g.emitAll(body);
  g.emit("}");
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
    const raw = g.bind(`${items}[${i}]`);
    body(g.bind(`${raw} === undefined ? null : ${raw}`), raw, i);
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
function keywordJuxt(node: Node): Keyword[] | undefined {
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
function fieldCallback(g: LoopEmitter, node: Node): ((item: string) => string) | undefined {
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

function inlineReduce(
  g: LoopEmitter,
  fn: Extract<Node, { kind: "fn" }>,
  init: string,
  items: string,
): string {
  const acc = g.temp("acc");
  // Detached, as the builtin does: the caller's hold on an initial map keeps no history alive.
  // Normalized once here and at every step, so the body binds it as it is.
  g.emit(`let ${acc} = $.detach(${init});`);
  g.emit(`if (${acc} === undefined) ${acc} = null;`);
  g.markDefined(acc);
  g.emit(`${g.contextName}.work(${items}.length);`);
  eachItem(g, items, (item) => {
    const value = g.inlineBody(fn, [acc, item]);
    g.emit(`${acc} = ${g.normalized(value)};`);
  });
  return acc;
}

/** inlineSelect's loop, counting the items it would keep (charged as the vector it would make). */
function inlineCount(
  g: LoopEmitter,
  callback: (item: string) => string,
  items: string,
  wanted: boolean,
): string {
  const kept = g.temp("kept");
  g.emit(`${g.contextName}.work(${items}.length);`);
  g.emit(`let ${kept} = 0;`);
  eachItem(g, items, (item) => {
    const value = callback(item);
    g.emit(`if (${wanted ? g.truthy(value) : `!${g.truthy(value)}`}) ${kept}++;`);
  });
  g.emit(`$.chargeVector(${kept});`);
  g.markDefined(kept);
  return kept;
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
  const sum = g.temp("sum");
  g.emit(`${g.contextName}.work(${items}.length);`);
  g.emit(`let ${sum} = 0;`);
  eachItem(g, items, (item) => {
    const value = g.field(item, keyword);
    const add = g.block(() => g.emit(`${sum} = ${g.builtinWith("+", [sum, value])};`));
    g.emit(`if (${value} !== null) {`);
    g.emitAll(add);
    g.emit("}");
  });
  return sum;
}

/**
 * `(reduce + 0 xs)` or `(reduce max xs)` with a builtin: a direct call per item (arithmetic
 * inline), with the builtin reduce's rules: without an initial value an empty collection gives
 * nil and the first item starts the fold.
 */
function inlineReduceBuiltin(g: LoopEmitter, name: string, init: string | undefined, items: string): string {
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

/** A callback value that a fused pipeline inlines instead of evaluating (a literal fn). */
function inlinableCallback(node: Node): boolean {
  if (keywordJuxt(node) !== undefined) return true;
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
function fusable(stage: PipelinePlan): boolean {
  const input = stage.args[stage.args.length - 1] as number | PipelinePlan;
  const below = typeof input === "number" || fusable(input);
  switch (stage.op) {
    case "map":
      return stage.args.length === 2 && below;
    case "filter":
    case "remove":
    case "keep":
    case "map-indexed":
    case "distinct":
      return below;
    case "partition":
      return stage.args.length <= 3 && below;
    case "interleave":
      return isOneToOne(stage.args[0] as number | PipelinePlan) && isOneToOne(input);
    default:
      return false;
  }
}
