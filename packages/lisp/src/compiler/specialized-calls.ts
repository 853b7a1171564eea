/**
 * Builtin calls whose written shape lets generated code skip the builtin's general entry: the
 * arguments a model writes most often are literals (a one-entry map, a keyword, a vector of
 * keywords), and knowing them when the code is generated saves building them and looking at
 * them again on every row. Each shape calls a runtime helper (codegen-runtime.ts) that gives the
 * builtin's result, charges and errors exactly; only the work of the general entry is saved.
 */
import type { Node } from "../analyzer/ast.js";
import type { Position } from "../reader/form.js";
import { Keyword } from "../values/keyword.js";
import { plainObjectTest } from "../values/plain-object.js";
import { FLAT_LIMIT } from "../values/versioned-table.js";
import { eachItem, inlinable, type LoopEmitter } from "./codegen-loops.js";
import { nestedSteadyState } from "./nested-updates.js";

/** The code of a specialized call, or undefined when the call has no special shape. */
export function specializedCall(
  g: LoopEmitter,
  name: string,
  args: readonly Node[],
  position: Position,
): string | undefined {
  switch (name) {
    case "merge-with":
      return mergeWithLiteralEntry(g, args);
    case "update":
    case "update-in":
      return updatePath(g, name, args, position);
    case "select-keys":
      return selectLiteralKeywords(g, args);
    case "apply":
      return applyBuiltinToItems(g, args, position);
    default:
      return undefined;
  }
}

/**
 * `(merge-with f acc {k v})`, the way programs count and sum per key row by row: the one-entry
 * map is never built. Arguments are evaluated in the order written (f, acc, k, v), as before.
 */
function mergeWithLiteralEntry(g: LoopEmitter, args: readonly Node[]): string | undefined {
  const entry = args.length === 3 ? args[2] : undefined;
  if (entry?.kind !== "map" || entry.entries.length !== 1) return undefined;
  const [key, value] = entry.entries[0] as readonly [Node, Node];
  const f = g.value(args[0] as Node);
  const acc = g.value(args[1] as Node);
  const k = g.value(key);
  const v = g.value(value);
  return g.bind(`$.mergeWithEntry(${f}, ${acc}, ${k}, ${v})`);
}

/** Longest literal path of update-in written out in place; longer ones keep the builtin. */
const MAX_PATH = 4;

/** The key expressions of `(update m k ...)` or of `(update-in m [k1 k2 ...] ...)`, or undefined. */
function pathOf(name: string, node: Node): readonly Node[] | undefined {
  if (name === "update") return [node];
  if (node.kind !== "vector" || node.items.length === 0 || node.items.length > MAX_PATH) return undefined;
  return node.items;
}

/** How f is applied to the old value and the extra arguments, written in place. */
type Apply = (g: LoopEmitter, old: string, extras: readonly string[]) => string;

/** f of an update written in place: `apply` it, or make its value (`fn`) for the builtin. */
interface Updater {
  readonly apply: Apply;
  readonly fn: () => string;
}

/**
 * f of an update, when its application can be written in place: a builtin that takes the
 * arguments (arithmetic of `+ - * inc dec` inline), a literal fn of that arity (its body inline),
 * or `(fnil f default)` of such a builtin (`(fnil + 0)`, `(fnil inc 0)`, `(fnil conj [])`), whose
 * default is evaluated where the fnil call stood. The builtin's arity check cannot be skipped:
 * only fns that take the arguments qualify. `prepare` runs where f is evaluated.
 */
function updaterOf(g: LoopEmitter, fNode: Node, arity: number): { prepare: () => Updater } | undefined {
  const literalFn = inlinable(fNode, arity);
  if (literalFn !== undefined) {
    return {
      prepare: () => ({
        apply: (gen, old, extras) => gen.inlineBody(literalFn, [old, ...extras]),
        fn: () => g.value(fNode),
      }),
    };
  }
  if (fNode.kind === "builtin" && g.builtinAccepts(fNode.name, arity)) {
    const name = fNode.name;
    return {
      prepare: () => ({
        apply: (gen, old, extras) => gen.builtinWith(name, [old, ...extras]),
        fn: () => g.value(fNode),
      }),
    };
  }
  if (
    fNode.kind === "call" &&
    fNode.callee.kind === "builtin" &&
    fNode.callee.name === "fnil" &&
    fNode.args.length === 2 &&
    fNode.args[0]?.kind === "builtin" &&
    g.builtinAccepts(fNode.args[0].name, arity)
  ) {
    const wrapped = fNode.args[0];
    const defaultNode = fNode.args[1] as Node;
    return {
      prepare: () => {
        const fallback = g.value(defaultNode);
        return {
          apply: (gen, old, extras) =>
            gen.builtinWith(wrapped.name, [gen.bind(`${old} === null ? ${fallback} : ${old}`), ...extras]),
          // The fnil function itself, from the default already evaluated.
          fn: () => g.bind(`${g.value(fNode.callee)}(${g.value(wrapped)}, ${fallback})`),
        };
      },
    };
  }
  return undefined;
}

/**
 * `(update row :amount * 1.2)`, `(update acc (:k o) (fnil inc 0))`, `(update-in acc [(:region o)
 * (:status o)] (fnil + 0) (:quantity o))`: on maps (or nil, read as an empty map) at every level,
 * each level's key is found by the builtin's write rule, f is applied in place (see updaterOf),
 * and each level is written back with the builtin's charges. Any other container (a vector, a
 * string...) sends the call to the builtin, with the values already computed, which does what it
 * always does. Arguments are evaluated once, in the order written.
 */
function updatePath(
  g: LoopEmitter,
  name: "update" | "update-in",
  args: readonly Node[],
  position: Position,
): string | undefined {
  if (args.length < 3) return undefined;
  const path = pathOf(name, args[1] as Node);
  if (path === undefined) return undefined;
  const fNode = args[2] as Node;
  const extraNodes = args.slice(3);
  const updater = updaterOf(g, fNode, 1 + extraNodes.length);
  if (updater === undefined) return undefined;
  // In the order written: the map, the keys, f (only fnil's default can do anything), the extras.
  const map = g.value(args[0] as Node);
  const keys = path.map((key) => g.value(key));
  const f = updater.prepare();
  const extras = extraNodes.map((node) => g.value(node));
  const literalPath = name === "update-in" && !path.every((key) => key.kind === "const");
  const result = g.temp();
  g.emit(`let ${result};`);
  // Between two map stages of a fused pipeline (fresh-stages.ts): the map the stage below made,
  // and the variable naming the map this call makes (nothing, unless it derives a new one).
  const fresh = g.freshUpdates.get(args);
  if (fresh?.output !== undefined) g.emit(`${fresh.output} = undefined;`);
  // The general way: the builtin with the values computed above (a literal path built as the
  // program would have built it).
  const general = g.block(() => {
    const builtin = g.value({ kind: "builtin", name, position });
    const pathValue =
      name === "update"
        ? (keys[0] as string)
        : literalPath
          ? g.bind(`$.vec([${keys.join(", ")}])`)
          : g.value(args[1] as Node);
    g.emit(`${result} = ${builtin}(${[map, pathValue, f.fn(), ...extras].join(", ")});`);
  });
  // Level by level: containers[i] is the map at depth i, slots[i] its key for the next level.
  const containers: string[] = [];
  const slots: string[] = [];
  const level = (depth: number, container: string): void => {
    const { target, found } = findSlot(g, container, path[depth] as Node, keys[depth] as string);
    const inner = g.block(() => {
      containers.push(target);
      const { slot, current } = found();
      slots.push(slot);
      if (depth === keys.length - 1) {
        if (literalPath) g.emit(`$.chargeVector(${keys.length});`);
        let value = f.apply(g, current, extras);
        // Below an owned accumulator, maps this reduce's update-in made change in place.
        const nested = g.nestedUpdates?.calls.has(args) ? g.nestedUpdates.made : undefined;
        for (let i = depth; i >= 0; i--)
          value = g.bind(
            i > 0 && nested !== undefined
              ? `$.assocNested(${containers[i]}, ${slots[i]}, ${value}, ${nested}, ${containers[0]})`
              : i === 0 && fresh?.input !== undefined
                ? `$.assocFresh(${containers[0]}, ${slots[0]}, ${value}, ${fresh.input})`
                : `$.assocCharged(${containers[i]}, ${slots[i]}, ${value})`,
          );
        // A new map, or the fresh one written in place: either way only the stage above gets it.
        if (fresh?.output !== undefined) {
          const kept = fresh.input === undefined ? "" : ` || ${containers[0]} === ${fresh.input}`;
          g.emit(`if (${value} !== ${containers[0]}${kept}) ${fresh.output} = ${value};`);
        }
        g.emit(`${result} = ${value};`);
      } else level(depth + 1, current);
    });
    g.emit(`if (${target} !== undefined) {`);
    g.emitAll(inner);
    g.emit("} else {");
    g.emitAll(general);
    g.emit("}");
  };
  // Below an owned accumulator, two keys: the steady state first (compiler/nested-updates.ts).
  const made = g.nestedUpdates?.calls.has(args) ? g.nestedUpdates.made : undefined;
  if (made === undefined || keys.length !== 2 || fresh !== undefined) level(0, map);
  else
    nestedSteadyState(
      g,
      { map, keys, made, result, literalPath },
      {
        apply: (old) => f.apply(g, old, extras),
        walk:
          inlinable(fNode, 1 + extras.length) === undefined
            ? { path: args[1] as Node, f: f.fn, extras }
            : undefined,
        levels: () => level(0, map),
      },
    );
  return result;
}

/**
 * The map one level of an update reads and writes (`target`: undefined when it is no map), and,
 * in the block where it is a map, the key written there (`slot`) and the value under it
 * (`current`): what updateTarget, updateSlot and updateFound find. A keyword key Object.prototype
 * has no field of (`direct`) is first read in place on a plain object (a tool's row, whose shape
 * V8 then knows): a field found there is an own one, the entry updateSlot finds, under the key it
 * gives. Anything else (a program map, a missing field) takes the three calls.
 */
function findSlot(
  g: LoopEmitter,
  container: string,
  keyNode: Node,
  key: string,
): { target: string; found: () => { slot: string; current: string } } {
  const keyword = keyNode.kind === "const" && keyNode.value instanceof Keyword ? keyNode.value : undefined;
  if (keyword === undefined || !keyword.direct) {
    const target = g.bind(`$.updateTarget(${container})`);
    return {
      target,
      found: () => ({ slot: g.bind(`$.updateSlot(${target}, ${key})`), current: g.bind("$.updateFound()") }),
    };
  }
  const map = g.named(container);
  const [target, slot, current] = [g.temp(), g.temp(), g.temp()];
  g.emit(`let ${target}, ${slot}, ${current};`);
  g.emit(
    `if (${plainObjectTest(map)} && (${current} = ${map}[${g.constant(keyword.name)}]) !== undefined) { ${target} = ${map}; ${slot} = ${g.constant(keyword.name)}; }`,
  );
  g.emit(
    `else { ${target} = $.updateTarget(${map}); if (${target} !== undefined) { ${slot} = $.updateSlot(${target}, ${key}); ${current} = $.updateFound(); } }`,
  );
  return { target, found: () => ({ slot, current }) };
}

/**
 * `(select-keys row [:id :region :amount])`: distinct keywords without hyphens are written as
 * they are (values/map-access.ts, builderPut), so the entries found make the small map directly.
 */
function selectLiteralKeywords(g: LoopEmitter, args: readonly Node[]): string | undefined {
  const keys = args.length === 2 ? args[1] : undefined;
  if (keys?.kind !== "vector" || keys.items.length > FLAT_LIMIT) return undefined;
  const keywords: Keyword[] = [];
  for (const item of keys.items) {
    if (item.kind !== "const" || !(item.value instanceof Keyword) || item.value.name.includes("-"))
      return undefined;
    if (keywords.includes(item.value)) return undefined;
    keywords.push(item.value);
  }
  const map = g.named(g.value(args[0] as Node));
  const result = g.temp();
  g.emit(`let ${result};`);
  // A plain object (a tool result's row): each field read in place, where V8 knows the row's
  // shape; a keyword of such a name has no other spelling to try (values/map-access.ts).
  if (keywords.every((keyword) => keyword.direct)) {
    const pairs = g.temp("pairs");
    const direct = g.block(() => {
      const fields = keywords.map((keyword) => g.bind(`${map}[${g.constant(keyword.name)}]`));
      const written = keywords.map((keyword, i) => `${g.constant(keyword)}, ${fields[i]}`);
      // A row that has every field (the usual case) gets its pairs as one array literal, sized
      // once: pushing onto an empty array allocates room for 16 slots, which for 100,000 rows is
      // megabytes of garbage, and collecting it costs more than the projection.
      g.emit(`let ${pairs};`);
      g.emit(
        `if (${fields.map((field) => `${field} !== undefined`).join(" && ")}) ${pairs} = [${written.join(", ")}];`,
      );
      g.emit("else {");
      g.emit(`${pairs} = [];`);
      for (const [i, field] of fields.entries())
        g.emit(`if (${field} !== undefined) ${pairs}.push(${written[i]});`);
      g.emit("}");
      g.emit(`${result} = $.selectedPairs(${pairs}, ${keywords.length});`);
    });
    g.emit(`if (${plainObjectTest(map)}) {`);
    g.emitAll(direct);
    g.emit("} else {");
    g.emit(`${result} = $.selectKeywords(${map}, ${g.constant(Object.freeze(keywords))});`);
    g.emit("}");
    return result;
  }
  g.emit(`${result} = $.selectKeywords(${map}, ${g.constant(Object.freeze(keywords))});`);
  return result;
}

/**
 * `(apply + window)`, `(apply max amounts)`: a builtin named in place, over one collection. A
 * vector of up to three items is passed as fixed arguments (no spread, no argument array);
 * anything else goes to apply itself.
 */
function applyBuiltinToItems(g: LoopEmitter, args: readonly Node[], position: Position): string | undefined {
  const fused = applyMergeWithOfEntries(g, args);
  if (fused !== undefined) return fused;
  if (args.length !== 2 || args[0]?.kind !== "builtin") return undefined;
  const fn = g.value(args[0]);
  const coll = g.value(args[1] as Node);
  const apply = g.value({ kind: "builtin", name: "apply", position });
  return g.bind(`$.applyBuiltin(${fn}, ${coll}, ${apply})`);
}

/**
 * `(apply merge-with + (map (fn [o] {(:status o) (:amount o)}) rows))`, a model's group-and-sum:
 * one loop computes each row's key and value, charging the one-entry map and the vector the map
 * stage would have built, and merge-with folds the pairs (merge-with.ts, mergeWithPairs). No map per
 * row is ever made. Anything unusual raises an error and the unit runs on the general evaluator.
 */
function applyMergeWithOfEntries(g: LoopEmitter, args: readonly Node[]): string | undefined {
  if (args.length !== 3 || args[0]?.kind !== "builtin" || args[0].name !== "merge-with") return undefined;
  const stage = args[2] as Node;
  if (stage.kind !== "call" || stage.callee.kind !== "builtin" || stage.callee.name !== "map")
    return undefined;
  if (stage.args.length !== 2) return undefined;
  const fn = inlinable(stage.args[0] as Node, 1);
  if (fn === undefined || fn.body.kind !== "map" || fn.body.entries.length !== 1) return undefined;
  const [keyNode, valueNode] = fn.body.entries[0] as readonly [Node, Node];
  // In the order written: f, then the map stage (its collection, then each row).
  const f = g.value(args[1] as Node);
  const items = g.bind(`$.collection(${g.value(stage.args[1] as Node)})`);
  const pairs = g.temp("pairs");
  g.emit(`${g.contextName}.work(${items}.length);`);
  g.emit(`$.chargeVector(${items}.length);`);
  // Two slots per row, allocated at once (pushing 200,000 slots grows the array a dozen times).
  g.emit(`const ${pairs} = new Array(2 * ${items}.length);`);
  eachItem(g, items, (item, _raw, i) => {
    g.inlineWith(fn, [item], () => {
      const key = g.value(keyNode);
      const value = g.value(valueNode);
      g.emit("$.chargeSingleMap();");
      g.emit(`${pairs}[2 * ${i}] = ${key};`);
      g.emit(`${pairs}[2 * ${i} + 1] = ${g.normalized(value)};`);
    });
  });
  return g.bind(`$.mergeWithPairs(${f}, ${pairs})`);
}
