/**
 * Maps that one `map` stage of a fused pipeline makes and the next one only updates:
 * `(->> rows (map #(update % :amount * 1.2)) (map #(update-in % [:quantity] inc)) ...)`.
 *
 * The first stage's fn is a call of `update`/`update-in` and nothing else, so when that call
 * derives a new map (not the one it was given), the stage hands on a map that nobody else holds.
 * The next stage's fn is also such a call, on its parameter, which it mentions nowhere else
 * (accumulator-use.ts, ownedAccumulator): the map it is given can then be written in place
 * (builtins/maps.ts, assocFresh) instead of derived from, so the row costs one map, not two.
 * Generated code checks at run time that the map is the one the stage below made.
 */
import type { Node } from "../analyzer/ast.js";
import { ownedAccumulator } from "./accumulator-use.js";

type FnNode = Extract<Node, { kind: "fn" }>;

/** The argument list of the `update`/`update-in` call that is the whole body of `fn`, if it is one. */
export function wholeBodyUpdate(fn: FnNode): readonly Node[] | undefined {
  let body = fn.body;
  while (body.kind === "do" && body.body.length === 1) body = body.body[0] as Node;
  if (body.kind !== "call" || body.callee.kind !== "builtin") return undefined;
  const name = body.callee.name;
  if ((name !== "update" && name !== "update-in") || body.args.length < 3) return undefined;
  return body.args;
}

/**
 * Whether that call updates the fn's one parameter, which the fn uses nowhere else: then the map
 * it is given may be changed in place when nobody else holds it.
 */
export function updatesOnlyItsInput(fn: FnNode, args: readonly Node[]): boolean {
  const first = fn.params[0];
  const target = args[0];
  return (
    fn.params.length === 1 &&
    fn.rest === undefined &&
    first?.kind === "bind" &&
    target?.kind === "local" &&
    target.slot === first.slot &&
    ownedAccumulator(fn)
  );
}
