/**
 * `let` on the general evaluator: bindings run in order, each init seeing the names bound before
 * it, and an init that waits on a tool holds the rest until it resolves. The common shapes are
 * written out, each its own function literal so that its calls see only what that shape serves:
 * one plain name (with a constant or a local as its init, written in the node); one pattern (what
 * the analyzer wraps around a fn whose parameter is a pattern, read straight from the parameter's
 * slot when it is one); two bindings unrolled. Anything longer loops.
 */
import type { Binding } from "../analyzer/ast.js";
import { after } from "../runtime/async.js";
import type { Code } from "./code.js";
import type { Binder } from "./destructure.js";
import { keyedParameter } from "./key-binders.js";
import { shortcutStats } from "./number-shortcuts.js";

/** One-name lets whose init is a constant or a local, written in the node (the tests read it). */
export const letInitStats = { constants: 0, locals: 0 };

export function compileLet(
  bindings: readonly Binding[],
  body: Code,
  inits: readonly Code[],
  binders: readonly Binder[],
): Code {
  const simpleSlots = bindings.map((binding) =>
    binding.pattern.kind === "bind" ? binding.pattern.slot : -1,
  );
  if (bindings.length === 1 && simpleSlots[0] !== -1) {
    const slot = simpleSlots[0] as number;
    const init = inits[0] as Code;
    const initNode = (bindings[0] as Binding).init;
    if (initNode.kind === "const") {
      // `(let [limit 10] ...)`: the value written here, not answered by a call of its node.
      letInitStats.constants++;
      const value = initNode.value === undefined ? null : initNode.value;
      return (frame) => {
        frame[slot] = value;
        return body(frame);
      };
    }
    if (initNode.kind === "local") {
      // `(let [x y] ...)`: the slot copied here.
      letInitStats.locals++;
      const from = initNode.slot;
      return (frame) => {
        const value = frame[from];
        frame[slot] = value === undefined ? null : value;
        return body(frame);
      };
    }
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
  if (bindings.length === 1) {
    // One destructuring binding: what the analyzer wraps around a fn body whose parameter is a
    // pattern (`(fn [{:keys [id amount]}] ...)`), run once per call.
    const bind = binders[0] as Binder;
    const init = inits[0] as Code;
    const initNode = (bindings[0] as Binding).init;
    if (initNode.kind === "local") {
      // The parameter's own slot: read here, not by a call of the local's node, once per call.
      shortcutStats.localInits++;
      const from = initNode.slot;
      const keyed = keyedParameter(bind, from, body);
      if (keyed !== undefined) return keyed;
      return (frame) => {
        bind(frame, frame[from]);
        return body(frame);
      };
    }
    return (frame) => {
      const value = init(frame);
      if (value instanceof Promise) {
        return after(value, (resolved) => {
          bind(frame, resolved);
          return body(frame);
        });
      }
      bind(frame, value);
      return body(frame);
    };
  }
  if (bindings.length === 2) {
    // Two bindings, unrolled: each binder call its own site (`(let [{:keys [a b]} o [x y] v] ...)`).
    const [init0, init1] = inits as [Code, Code];
    const [bind0, bind1] = binders as [Binder, Binder];
    const second = (frame: unknown[]): unknown => {
      const value = init1(frame);
      if (value instanceof Promise) {
        return after(value, (resolved) => {
          bind1(frame, resolved);
          return body(frame);
        });
      }
      bind1(frame, value);
      return body(frame);
    };
    return (frame) => {
      const value = init0(frame);
      if (value instanceof Promise) {
        return after(value, (resolved) => {
          bind0(frame, resolved);
          return second(frame);
        });
      }
      bind0(frame, value);
      return second(frame);
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
