/**
 * Pipelines (analyzer/pipelines.ts) fused into one loop over their source, each stage inline:
 * `(take n (map f (partition 2 (interleave xs ys))))` leaves the loop as soon as it has n items,
 * `(reduce + 0 (map :amount (filter p rows)))` folds each item as it comes, with no vector between
 * the stages: what a JS programmer writes by hand. Only the common shapes (a chain of one-input
 * stages, interleave of two one-to-one chains, partition without padding); anything else calls the
 * lazy-pipeline builtin. The happy path only: a source the stages cannot read, a count that is
 * not an integer, an error, raise an error, and the unit runs again on the general evaluator,
 * where the builtin does exactly what the program says.
 */
import type { Node } from "../analyzer/ast.js";
import {
  isPipelinePlan,
  LAZY_PIPELINE,
  type PipelinePlan,
  pullsPrefix,
  unboundedStream,
} from "../analyzer/pipelines.js";
import { fieldCallback, inlinable, inlineFold, keywordJuxt, type LoopEmitter } from "./codegen-loops.js";
import { GenerationGap } from "./fast-tier.js";
import { updatesOnlyItsInput, wholeBodyUpdate } from "./fresh-stages.js";
import { addTerm, addToSum, setSum, startSum, sumValue } from "./running-sum.js";

/**
 * Whether the pipeline being written reads its sources whole. Then a source is checked for
 * undefined items once, up front (`$.stageSource`, a copy when there are any), and items are read
 * as they are; a pipeline that stops early (`take`, `first`, a take stage) must not scan its whole
 * input, so it reads the source as it is (`$.lazySource`) and reads each item as nil when undefined.
 */
let wholeInput = true;

/** Runs `write` with `wholeInput` set as given, restored after (pipelines nest in callbacks). */
function readingWhole<T>(whole: boolean, write: () => T): T {
  const saved = wholeInput;
  wholeInput = whole;
  try {
    return write();
  } finally {
    wholeInput = saved;
  }
}

/**
 * Whether a call is a pipeline consumed whole that fusedPipeline writes as one loop: the adaptive
 * tier moves it to generated code when its input is large. (`take` and `first` stay: they do the
 * work of the items they take, however large the input.)
 */
export function fusesIntoOneLoop(node: Extract<Node, { kind: "call" }>): boolean {
  if (node.callee.kind !== "builtin" || node.callee.name !== LAZY_PIPELINE) return false;
  const planNode = node.args[0];
  if (planNode?.kind !== "const" || !isPipelinePlan(planNode.value)) return false;
  const plan = planNode.value;
  const source = plan.args[plan.args.length - 1];
  return !pullsPrefix(plan.op) && typeof source === "object" && fusable(source) && !takes(source);
}

/** Whether a stage or one below it is a `take` (its work is bounded by what it takes). */
function takes(stage: number | PipelinePlan): boolean {
  if (typeof stage === "number") return false;
  return stage.op === "take" || stage.args.some((arg) => typeof arg === "object" && takes(arg));
}

export function fusedPipeline(g: LoopEmitter, args: readonly Node[]): string | undefined {
  const planNode = args[0];
  // A program naming the internal builtin itself gets the builtin, and its error.
  if (planNode?.kind !== "const" || !isPipelinePlan(planNode.value)) return undefined;
  const plan = planNode.value;
  const valueNodes = args.slice(1);
  const source = plan.args[plan.args.length - 1];
  if (typeof source !== "object" || !fusable(source)) return undefined;
  // Every value in program order, except literal fns that will be inlined (making one has no
  // effect) and the builtins of the stages (not needed here).
  const builtinIndexes = new Set<number>();
  const collectBuiltins = (stage: PipelinePlan): void => {
    builtinIndexes.add(stage.fn);
    for (const arg of stage.args) if (typeof arg === "object") collectBuiltins(arg);
  };
  collectBuiltins(plan);
  // The {} of (into {} ...) is made where it is used, if at all: the fused into makes no map for it.
  const intoTarget = plan.op === "into" && typeof plan.args[0] === "number" ? plan.args[0] : -1;
  const names = valueNodes.map((node, index) =>
    builtinIndexes.has(index) ||
    inlinableCallback(node) ||
    (index === intoTarget && node.kind === "map" && node.entries.length === 0)
      ? undefined
      : g.value(node),
  );
  if (!pullsPrefix(plan.op))
    return readingWhole(!takes(source), () => consumeStream(g, plan, source, valueNodes, names));
  return readingWhole(false, () => prefix(g, plan, source, valueNodes, names));
}

/**
 * The vector cap (values/vector-limit.ts), read once before the loop, for a stream that may be
 * longer than its inputs (analyzer/pipelines.ts's unboundedStream); else undefined, and no check.
 */
function capOf(g: LoopEmitter, source: PipelinePlan): string | undefined {
  return unboundedStream(source) ? g.bind("$.vectorPolicy.maxLength") : undefined;
}

/** `take` or `first` over the stream: a loop left as soon as it has its items. */
function prefix(
  g: LoopEmitter,
  plan: PipelinePlan,
  source: PipelinePlan,
  valueNodes: readonly Node[],
  names: ReadonlyArray<string | undefined>,
): string {
  if (plan.op === "take") {
    const count = names[plan.args[0] as number] as string;
    const out = g.temp("out");
    g.emit(`if (typeof ${count} !== "number" || !Number.isInteger(${count})) throw $.notFused();`);
    g.emit(`const ${out} = [];`);
    const cap = capOf(g, source);
    labeledStream(
      g,
      source,
      valueNodes,
      names,
      (item, label) => {
        if (cap !== undefined)
          g.emit(`if (${out}.length >= ${cap}) throw $.vectorTooLong(${out}.length + 1);`);
        g.emit(`${out}.push(${item});`);
        g.emit(`if (${out}.length >= ${count}) break ${label};`);
      },
      `${count} > 0`,
    );
    return g.bind(`$.vec(${out})`);
  }
  const first = g.temp("first");
  g.emit(`let ${first} = null;`);
  labeledStream(g, source, valueNodes, names, (item, label) => {
    g.emit(`${first} = ${item};`);
    g.emit(`break ${label};`);
  });
  return first;
}

/**
 * The loop over `from`'s items in a block labeled for leaving it early (by the sink, or a take
 * stage: `break label`), entered only when `guard` holds, if one is given.
 */
function labeledStream(
  g: LoopEmitter,
  from: number | PipelinePlan,
  valueNodes: readonly Node[],
  names: ReadonlyArray<string | undefined>,
  sink: (item: string, label: string) => void,
  guard?: string,
): void {
  const label = g.temp("P");
  const body = g.block(() => streamOf(g, from, true, valueNodes, names, (item) => sink(item, label), label));
  g.emit(guard === undefined ? `${label}: {` : `${label}: if (${guard}) {`);
  g.emitAll(body);
  g.emit("}");
}

/**
 * A callback of a stage (or of a consumer) written in place where it can be: a literal fn's body,
 * a keyword's field read; else the callback's value, called.
 */
function stageCallback(
  g: LoopEmitter,
  valueNodes: readonly Node[],
  names: ReadonlyArray<string | undefined>,
  index: number,
  arity: number,
): (items: string[]) => string {
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
}

/**
 * A consumer of the whole stream (reduce, count, apply, into...). The lazy-pipeline builtin
 * collects the stream into one vector, charges it, and calls the consumer with it; this does the
 * same, except that a fold (count, reduce with a builtin or a literal fn, mapv with a callback
 * written in place) is done item by item in the loop, charging the vector it never builds.
 */
function consumeStream(
  g: LoopEmitter,
  plan: PipelinePlan,
  source: PipelinePlan,
  valueNodes: readonly Node[],
  names: ReadonlyArray<string | undefined>,
): string {
  const last = plan.args.length - 1;
  const nodeAt = (position: number): Node => valueNodes[plan.args[position] as number] as Node;
  const valueAt = (position: number): string =>
    names[plan.args[position] as number] ?? g.value(nodeAt(position));
  const count = g.temp("n");
  g.emit(`let ${count} = 0;`);
  g.markDefined(count);
  // The loop, in a labeled block that a take stage leaves early. `from` streams another stage's
  // items instead (the input of a map whose callback the fold writes in place).
  // A fold that writes the map stage's fn in place streams that stage's input (see noteItemsOnly).
  if (source.op === "map") noteItemsOnly(source, valueNodes);
  // A stream longer than its inputs is counted against the vector cap as the lazy-pipeline
  // builtin collects it, though a fold builds no vector: the engines stop alike.
  const cap = capOf(g, source);
  const fold = (step: (item: string) => void, from: number | PipelinePlan = source): void =>
    labeledStream(g, from, valueNodes, names, (item) => {
      if (cap !== undefined) g.emit(`if (${count} >= ${cap}) throw $.vectorTooLong(${count} + 1);`);
      step(item);
      g.emit(`${count}++;`);
    });
  switch (plan.op) {
    case "count":
      fold(() => {});
      g.emit(`$.chargeVector(${count});`);
      return count;
    case "reduce": {
      const f = nodeAt(0);
      const acc = g.temp("acc");
      if (f.kind === "builtin" && f.name === "+") {
        // A running sum (running-sum.ts): from the initial value, or from the first item (none: nil).
        const running = startSum(g, last === 2 ? valueAt(1) : undefined);
        const mapFn =
          last === 2 && source.op === "map" && source.args.length === 2
            ? inlinable(valueNodes[source.args[0] as number] as Node, 1)
            : undefined;
        if (mapFn !== undefined) {
          // (reduce + 0 (map (fn [x] (* a b)) ...)): the callback's body is the term, added in
          // place (a product as a double with its float flag): no value per item to box.
          fold(
            (item) =>
              g.inlineWith(mapFn, [item], () => g.withLets(mapFn.body, (body) => addTerm(g, running, body))),
            source.args[1] as number | PipelinePlan,
          );
          g.emit(`$.chargeVector(${count});`);
          return sumValue(g, running);
        }
        fold((item) => {
          if (last === 2) addToSum(g, running, item);
          else {
            const first = g.block(() => setSum(g, running, item));
            g.emit(`if (${count} === 0) {`);
            g.emitAll(first);
            g.emit("} else {");
            addToSum(g, running, item);
            g.emit("}");
          }
        });
        g.emit(`$.chargeVector(${count});`);
        const sum = sumValue(g, running);
        return last === 2 ? sum : g.bind(`${count} === 0 ? null : ${sum}`);
      }
      if (f.kind === "builtin" && f.name !== "conj" && g.builtinAccepts(f.name, 2)) {
        // (reduce + 0 ...), (reduce max ...): without an initial value the first item starts the
        // fold and an empty stream gives nil, as the builtin has it.
        if (last === 2) g.emit(`let ${acc} = $.detach(${valueAt(1)});`);
        else g.emit(`let ${acc} = null;`);
        fold((item) => {
          const step = g.block(() => g.emit(`${acc} = ${g.normalized(g.builtinWith(f.name, [acc, item]))};`));
          if (last === 2) g.emitAll(step);
          else {
            g.emit(`if (${count} === 0) ${acc} = ${item};`);
            g.emit("else {");
            g.emitAll(step);
            g.emit("}");
          }
        });
        g.emit(`$.chargeVector(${count});`);
        return g.bind(`${acc} === undefined ? null : ${acc}`);
      }
      const fn = last === 2 ? inlinable(f, 2) : undefined;
      if (fn === undefined) break;
      const folded = inlineFold(g, fn, valueAt(1), fold);
      g.emit(`$.chargeVector(${count});`);
      return folded;
    }
    case "apply": {
      // (apply max (map :amount rows)): max and min of plain numbers kept as the items come, as
      // max itself compares them (the first NaN decides, and nothing after it is looked at).
      // Anything else (no items: the arity error; another kind of number) reruns the unit.
      const f = nodeAt(0);
      if (f.kind !== "builtin" || (f.name !== "max" && f.name !== "min")) break;
      const best = g.temp("best");
      const nan = g.temp("nan");
      g.emit(`let ${best} = null;`);
      g.emit(`let ${nan} = false;`);
      fold((item) => {
        g.emit(`if (typeof ${item} !== "number") { if (!${nan}) throw $.notFused(); }`);
        g.emit(`else if (${count} === 0) ${best} = ${item};`);
        g.emit(`else if (!${nan}) {`);
        g.emit(`if (${item} !== ${item} || ${best} !== ${best}) { ${best} = NaN; ${nan} = true; }`);
        g.emit(`else if (${item} ${f.name === "max" ? ">" : "<"} ${best}) ${best} = ${item};`);
        g.emit("}");
      });
      g.emit(`$.chargeVector(${count});`);
      g.emit(`if (${count} === 0) throw $.notFused();`);
      return best;
    }
    case "mapv": {
      const f = nodeAt(0);
      if (inlinable(f, 1) === undefined && fieldCallback(g, f) === undefined) break;
      const callback = stageCallback(g, valueNodes, names, plan.args[0] as number, 1);
      const out = g.temp("out");
      g.emit(`const ${out} = [];`);
      fold((item) => {
        const value = callback([item]);
        g.emit(`${out}.push(${g.normalized(value)});`);
      });
      // The collected vector, then mapv's own.
      g.emit(`$.chargeVector(${count});`);
      return g.bind(`$.vec(${out})`);
    }
    case "into": {
      // (into {} (map (fn [[_ k v]] [k v]) xs)): keys and values collected flat, no entry vector
      // made, and the map built from them as into builds it (builtins/support/into-map.ts).
      const to = nodeAt(0);
      const fn =
        to.kind === "map" && to.entries.length === 0 && source.op === "map" && source.args.length === 2
          ? inlinable(valueNodes[source.args[0] as number] as Node, 1)
          : undefined;
      if (fn === undefined || pairItems(fn.body) === undefined) break;
      const flat = g.temp("out");
      g.emit(`const ${flat} = [];`);
      fold(
        (item) =>
          g.inlineWith(fn, [item], () =>
            g.withLets(fn.body, (body) => {
              const [key, value] = (pairItems(body) as readonly Node[]).map((node) => g.value(node));
              g.emit(`${flat}.push(${g.normalized(key as string)}, ${g.normalized(value as string)});`);
            }),
          ),
        source.args[1] as number | PipelinePlan,
      );
      g.emit(`$.chargeVector(${count});`);
      return g.bind(`$.mapOfFlatPairs(${flat})`);
    }
    default:
      break;
  }
  const out = g.temp("out");
  g.emit(`const ${out} = [];`);
  fold((item) => g.emit(`${out}.push(${item});`));
  const items = g.bind(`$.vec(${out})`);
  const consumer = g.value(valueNodes[plan.fn] as Node);
  if (plan.op === "apply" && nodeAt(0).kind === "builtin")
    return g.bind(`$.applyBuiltin(${valueAt(0)}, ${items}, ${consumer})`);
  const args = plan.args.map((_, position) => (position === last ? items : valueAt(position)));
  return g.bind(`$.answer(${consumer}(${args.join(", ")}))`);
}

/** The items of the two-item vector literal `[k v]` a fn body is under its lets, or undefined. */
function pairItems(node: Node): readonly Node[] | undefined {
  if (node.kind === "let") return pairItems(node.body);
  return node.kind === "vector" && node.items.length === 2 ? node.items : undefined;
}

/**
 * Per generator, the item names a `map` stage whose fn is one update call handed on, with the
 * variable naming the map it made fresh (fresh-stages.ts). Names are unique to one generator.
 */
const freshItemsOf = new WeakMap<LoopEmitter, Map<string, string>>();

/** Emits a loop producing the items of `stage`, handing each (a name) to `sink`. */
function stream(
  g: LoopEmitter,
  stage: PipelinePlan,
  valueNodes: readonly Node[],
  names: ReadonlyArray<string | undefined>,
  sink: (item: string) => void,
  stop: string,
): void {
  const callback = (index: number, arity: number) => stageCallback(g, valueNodes, names, index, arity);
  const input = stage.args[stage.args.length - 1] as number | PipelinePlan;
  const upstream = (inner: (item: string) => void): void =>
    streamOf(g, input, stage.op !== "distinct", valueNodes, names, inner, stop);
  switch (stage.op) {
    case "take": {
      // Ends the whole stream (`break` to the label around the loop) once it has passed n items,
      // before anything upstream computes another one.
      const n = names[stage.args[0] as number] as string;
      const taken = g.temp("taken");
      g.emit(`if (typeof ${n} !== "number" || !Number.isInteger(${n})) throw $.notFused();`);
      g.emit(`let ${taken} = 0;`);
      g.emit(`if (${n} <= 0) break ${stop};`);
      upstream((item) => {
        sink(item);
        g.emit(`if (++${taken} >= ${n}) break ${stop};`);
      });
      return;
    }
    case "map": {
      noteItemsOnly(stage, valueNodes);
      const f = callback(stage.args[0] as number, 1);
      const fn = inlinable(valueNodes[stage.args[0] as number] as Node, 1);
      const update = fn === undefined ? undefined : wholeBodyUpdate(fn);
      if (fn === undefined || update === undefined) {
        upstream((item) => sink(f([item])));
        return;
      }
      // A stage whose fn is one update call (fresh-stages.ts): it names the map it makes fresh
      // for a map stage above, and may write in place the one a map stage below made fresh.
      const output = g.temp("fresh");
      g.emit(`let ${output};`);
      const fromMapStage = typeof input === "object" && input.op === "map";
      const freshItems = freshItemsOf.get(g) ?? new Map<string, string>();
      freshItemsOf.set(g, freshItems);
      upstream((item) => {
        const below = fromMapStage ? freshItems.get(item) : undefined;
        const made = below !== undefined && updatesOnlyItsInput(fn, update) ? below : undefined;
        g.freshUpdates.set(update, { input: made, output });
        const value = f([item]);
        g.freshUpdates.delete(update);
        freshItems.set(value, output);
        sink(value);
      });
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
      const literalSize = literalCount(valueNodes[stage.args[0] as number] as Node);
      const literalStep =
        stage.args.length === 3 ? literalCount(valueNodes[stage.args[1] as number] as Node) : literalSize;
      if (literalSize !== undefined && literalStep !== undefined && literalSize <= 8) {
        literalWindows(g, literalSize, literalStep, upstream, sink);
        return;
      }
      const size = g.bind(`$.positive(${names[stage.args[0] as number]})`);
      const step = stage.args.length === 3 ? g.bind(`$.positive(${names[stage.args[1] as number]})`) : size;
      const window = g.temp("w");
      const filled = g.temp("filled");
      const skip = g.temp("skip");
      // The window is allocated at its final size and filled by index: a chunk of two pushed
      // onto [] would allocate a backing store for sixteen. A size past $.windowSlots (the
      // program's n, maybe 2^32) starts smaller and grows as items are written past its end.
      g.emit(`let ${window} = new Array($.windowSlots(${size}));`);
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
        // A new window of `size` slots, and up to as many copied: work the source loop does not
        // count (a thousand overlapping chunks of a thousand are a million copies).
        g.emit(`${g.contextName}.work(${size});`);
        g.emit(`const ${chunk} = ${window};`);
        g.emit(`${window} = new Array($.windowSlots(${size}));`);
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
      const whole = wholeInput;
      const sources = chains.map((chain) =>
        g.bind(`$.${whole ? "stageSource" : "lazySource"}(${names[chain.source]}, true)`),
      );
      // The maps of each chain, innermost first, prepared before the loop.
      const maps = chains.map((chain) => chain.maps.map((mapIndex) => callback(mapIndex, 1)));
      const j = g.temp("j");
      // The items short of a whole 1,024 up front (see sourceLoop).
      g.emit(`${g.contextName}.work(Math.min(${sources[0]}.length, ${sources[1]}.length) & 1023);`);
      const body = g.block(() => {
        g.emit(`if ((${j} & 1023) === 1023) ${g.contextName}.work(1024);`);
        sources.forEach((source, side) => {
          let item = sourceItem(g, `${source}[${j}]`, whole);
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
      g.emit(`const ${seen} = $.seen();`);
      upstream((item) => {
        const body = g.block(() => sink(item));
        g.emit(`if (${seen}.add(${item})) {`);
        g.emitAll(body);
        g.emit("}");
      });
      return;
    }
    case "re-seq": {
      // The source's matches, each found as the loop asks for it (support/str-regex.ts).
      const matches = g.bind(
        `$.matchCursor(${names[stage.args[0] as number]}, ${names[stage.args[1] as number]})`,
      );
      const match = g.temp("m");
      const body = g.block(() => {
        g.markDefined(match);
        sink(match);
      });
      const next = itemsOnly.has(stage) ? "nextItems" : "next";
      g.emit(
        `for (let ${match} = ${matches}.${next}(); ${match} !== undefined; ${match} = ${matches}.${next}()) {`,
      );
      g.emitAll(body);
      g.emit("}");
      return;
    }
    default:
      throw new GenerationGap(`no fused code for ${stage.op}`);
  }
}

/**
 * The re-seq sources whose matches go straight into a fn that only destructures them by index
 * (`(map (fn [[_ k v]] ...) (re-seq ...))`), for which the native engine's result stands in for
 * each match vector (MatchCursor.nextItems).
 */
const itemsOnly = new WeakSet<PipelinePlan>();

/**
 * Marks the re-seq under a one-collection `map` stage whose fn is written in place and takes its
 * match as a vector pattern without `&` (it reads items by index, and nothing else sees the match).
 */
function noteItemsOnly(mapStage: PipelinePlan, valueNodes: readonly Node[]): void {
  const source = mapStage.args[1];
  if (mapStage.op !== "map" || mapStage.args.length !== 2 || typeof source !== "object") return;
  if (source.op !== "re-seq") return;
  const fn = inlinable(valueNodes[mapStage.args[0] as number] as Node, 1);
  const param = fn?.params[0];
  if (param?.kind === "seq" && param.rest === undefined) itemsOnly.add(source);
}

/** A count written as a positive integer literal (`(partition 3 1 xs)`), else undefined. */
function literalCount(node: Node): number | undefined {
  if (node.kind !== "const") return undefined;
  const value = node.value;
  return typeof value === "number" && Number.isInteger(value) && value > 0 ? value : undefined;
}

/**
 * `(partition 3 1 xs)` with literal counts: the window is a shift register of `size` variables
 * holding the last items, and each chunk is a new array of them (allocated at its size as a literal
 * of nulls and filled; no buffer filled by index and copied for the next window). A chunk
 * is due when `size` items have come in since the start or `step` since the last chunk; with a
 * step larger than the size, the items between chunks are skipped.
 */
function literalWindows(
  g: LoopEmitter,
  size: number,
  step: number,
  upstream: (inner: (item: string) => void) => void,
  sink: (item: string) => void,
): void {
  const slots = Array.from({ length: size }, () => g.temp("s"));
  const count = g.temp("count");
  const skip = g.temp("skip");
  for (const slot of slots) g.emit(`let ${slot} = null;`);
  g.emit(`let ${count} = 0;`);
  if (step > size) g.emit(`let ${skip} = 0;`);
  upstream((item) => {
    const chunk = g.temp("chunk");
    const body = g.block(() => {
      g.emit(`$.chargeVector(${size});`);
      // Made as [null, ...] then filled, not as [s0, s1, ...]: a literal of numbers would be an
      // array of unboxed doubles (or small integers), and the code that reads chunks (apply,
      // destructuring, the builtins) would meet one more kind of array and turn megamorphic; the
      // general engine's chunks (lazy-pipeline.ts, chunkOf) are made the same way.
      g.emit(`const ${chunk} = [${slots.map(() => "null").join(", ")}];`);
      for (let k = 0; k < size; k++) g.emit(`${chunk}[${k}] = ${slots[k]};`);
      // Overlapping windows: the next is due `step` items later; else the next starts afresh.
      g.emit(`${count} = ${step < size ? size - step : 0};`);
      if (step > size) g.emit(`${skip} = ${step - size};`);
      sink(chunk);
    });
    if (step > size) g.emit(`if (${skip} > 0) ${skip}--; else {`);
    for (let k = 0; k + 1 < size; k++) g.emit(`${slots[k]} = ${slots[k + 1]};`);
    g.emit(`${slots[size - 1]} = ${item};`);
    g.emit(`if (++${count} === ${size}) {`);
    g.emitAll(body);
    g.emit("}");
    if (step > size) g.emit("}");
  });
}

/** The items of a stage's input: a stage's stream, or a loop over a source value. */
function streamOf(
  g: LoopEmitter,
  input: number | PipelinePlan,
  sets: boolean,
  valueNodes: readonly Node[],
  names: ReadonlyArray<string | undefined>,
  sink: (item: string) => void,
  stop: string,
): void {
  if (typeof input === "number") sourceLoop(g, names[input] as string, sets, sink);
  else stream(g, input, valueNodes, names, sink, stop);
}

/**
 * A loop over a stage's source (read as the stage's builtin reads it: a set is refused where
 * `sets` is false), charging its work every 1,024 items as the inlined builtins do (a counter in
 * memory touched per item would cost more than a short stage does). The items short of a whole
 * 1,024 are charged up front: otherwise a source of fewer than 1,024 items would never be
 * charged, and such a pipeline nested in another (a filter over 1,000 rows for each of 1,000
 * rows) would run a million items without reading the clock.
 */
function sourceLoop(g: LoopEmitter, value: string, sets: boolean, sink: (item: string) => void): void {
  const whole = wholeInput;
  const items = g.bind(`$.${whole ? "stageSource" : "lazySource"}(${value}, ${sets})`);
  g.emit(`${g.contextName}.work(${items}.length & 1023);`);
  const i = g.temp("i");
  const body = g.block(() => {
    g.emit(`if ((${i} & 1023) === 1023) ${g.contextName}.work(1024);`);
    sink(sourceItem(g, `${items}[${i}]`, whole));
  });
  g.emit(`for (let ${i} = 0; ${i} < ${items}.length; ${i}++) {`);
  g.emitAll(body);
  g.emit("}");
}

/** An item read from a source: as it is when the source was checked whole, else undefined as nil. */
function sourceItem(g: LoopEmitter, read: string, whole: boolean): string {
  if (!whole) return g.bind(`${g.bind(read)} ?? null`);
  const item = g.bind(read);
  g.markDefined(item);
  return item;
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
    case "take":
      return stage.args.length === 2 && below;
    case "re-seq":
      return true;
    case "interleave":
      return isOneToOne(stage.args[0] as number | PipelinePlan) && isOneToOne(input);
    default:
      return false;
  }
}
