/**
 * Generated code for `(update-in acc [k1 k2] f x)` in a reduce whose owned accumulator only such
 * calls derive (accumulator-use.ts, nestedUpdateCalls), in its steady state: the accumulator is
 * owned and the map under k1 is one this reduce's update-in made. One call reads the old leaf
 * (builtins/support/nested-in-place.ts, nestedLeaf), f is applied in place, and one call writes the
 * leaf into that map and hands the accumulator back (nestedStore), where the level-by-level walk
 * (specialized-calls.ts) finds each level's target, then derives and rewrites both levels. Every
 * other case (the first row of a new k1, an accumulator no longer owned, anything not a map)
 * takes the builtin's walk or that one, in the else branch. Charges are the walk's: the path vector
 * where it would be charged, then an entry at each level.
 */
import type { Node } from "../analyzer/ast.js";
import type { LoopEmitter } from "./codegen-loops.js";

interface NestedCall {
  /** The accumulator's expression, the two keys' values, the set of made maps, the result variable. */
  readonly map: string;
  readonly keys: readonly string[];
  readonly made: string;
  readonly result: string;
  /** Whether the path is a vector the program would build (charged), not a constant one. */
  readonly literalPath: boolean;
}

/** How the leaf's new value is written in place, and how the other rows walk the path. */
interface Walks {
  readonly apply: (old: string) => string;
  /**
   * When f is a builtin or (fnil builtin default), making its value has no effect and no charge:
   * the other rows take the builtin's walk with the reduce's set of made maps (updateInBelowOwned),
   * given the path node and f's value. Otherwise (a literal fn, inlined) they take `levels`.
   */
  readonly walk:
    | { readonly path: Node; readonly f: () => string; readonly extras: readonly string[] }
    | undefined;
  readonly levels: () => void;
}

export function nestedSteadyState(g: LoopEmitter, call: NestedCall, walks: Walks): void {
  const { map, keys, made, result, literalPath } = call;
  const old = g.bind(`$.nestedLeaf(${map}, ${keys[0]}, ${keys[1]}, ${made})`);
  const steady = g.block(() => {
    // Copied at once: f, applied below, may run program code that takes this path again.
    const topSlot = g.bind("$.nestedAt.topSlot");
    const inner = g.bind("$.nestedAt.inner");
    const slot = g.bind("$.nestedAt.slot");
    if (literalPath) g.emit("$.chargeVector(2);");
    const value = walks.apply(old);
    g.emit(`${result} = $.nestedStore(${map}, ${topSlot}, ${inner}, ${slot}, ${value}, ${made});`);
  });
  const walk = walks.walk;
  const other = g.block(() => {
    if (walk === undefined) return walks.levels();
    // The path as the program builds it: a vector of the keys, charged, or the constant one.
    const path = literalPath ? g.bind(`$.vec([${keys.join(", ")}])`) : g.value(walk.path);
    const args = [made, map, path, walk.f(), ...walk.extras];
    g.emit(`${result} = $.updateInBelowOwned(${args.join(", ")});`);
  });
  g.emit(`if (${old} !== undefined) {`);
  g.emitAll(steady);
  g.emit("} else {");
  g.emitAll(other);
  g.emit("}");
}
