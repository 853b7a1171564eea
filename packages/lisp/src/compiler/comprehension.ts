/**
 * `for` and `doseq` on the general evaluator: nested iteration over binding clauses with :let,
 * :when and :while. Every element visited, at every level, is a step of work that reads the clock
 * when due, whether the body runs for it or a :when filters it out: a product of collections whose
 * elements are all filtered out is as long as one that keeps them. Elements are not iterations:
 * only `recur` counts against maxIterations (docs/sandbox.md, "Iterations", says why).
 */
import type { ForClause, Node, Pattern } from "../analyzer/ast.js";
import { LispError } from "../errors.js";
import { print } from "../format/print.js";
import { vectorBytes } from "../runtime/allocation.js";
import { after } from "../runtime/async.js";
import { active } from "../runtime/context.js";
import { typeName } from "../runtime/describe.js";
import { itemsOf } from "../runtime/sequences.js";
import { type Code, isTruthy } from "./code.js";
import type { Binder } from "./destructure.js";
import { promotionPolicy } from "./promotion.js";

export function compileComprehension(
  compile: (node: Node) => Code,
  binder: (pattern: Pattern) => Binder,

  clauseNodes: readonly ForClause[],
  bodyNode: Node,
  collect: boolean,
  /**
   * Adaptive tier: generated code for this `for` with its first collection read from a slot past
   * the end of the frame (resume-nodes.ts). Used when that collection is large.
   */
  promoteLarge?: (itemsSlot: number) => Code | undefined,
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
          init: compile(clause.init as Node),
          bind: binder(pattern),
          name: pattern.kind === "bind" ? pattern.name : "pattern",
          position: clause.position,
        };
      }
      case "let":
        return {
          kind: "let",
          inits: (clause.bindings ?? []).map((binding) => compile(binding.init)),
          binders: (clause.bindings ?? []).map((binding) => binder(binding.pattern)),
        };
      default:
        return { kind: clause.kind, test: compile(clause.test as Node) };
    }
  });
  const body = compile(bodyNode);
  const STOP = Symbol("stop");

  // Runs steps[index..] for the current bindings; returns STOP when a :while fails.
  // The generated version (null: the generator has none), made the first time it pays.
  let large: Code | null | undefined;
  const runLarge = (frame: unknown[], items: readonly unknown[]): unknown => {
    if (large === undefined)
      large = (promoteLarge as (slot: number) => Code | undefined)(frame.length) ?? null;
    if (large === null) return undefined;
    const extended = frame.slice();
    extended.push(items);
    return large(extended);
  };
  /** Set when the whole `for` ran as generated code: its value. */
  let promoted: { value: unknown } | undefined;

  const run = (frame: unknown[], index: number, out: unknown[]): unknown => {
    if (index === steps.length) {
      return after(body(frame), (value) => {
        if (collect) out.push(value);
        return undefined;
      });
    }
    const step = steps[index] as Step;
    switch (step.kind) {
      case "when":
        return after(step.test(frame), (value) => (isTruthy(value) ? run(frame, index + 1, out) : undefined));
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
          if (index === 0 && promoteLarge !== undefined && items.length >= promotionPolicy.threshold) {
            const value = runLarge(frame, items);
            if (value !== undefined) {
              promoted = { value };
              return undefined;
            }
          }
          const each = (i: number): unknown => {
            const context = active;
            for (; i < items.length; i++) {
              // A step of work per element visited (see the top of this file).
              if (--context.fuel <= 0) context.refuel();
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
      if (promoted !== undefined) {
        const { value } = promoted;
        promoted = undefined;
        return value;
      }
      if (!collect) return null;
      active.allocate(vectorBytes(out.length));
      return out;
    });
  };
}
