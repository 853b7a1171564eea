/**
 * What PTC-Lisp functions inside a value keep alive: the values their closures captured, and the
 * values captured by functions inside those, and so on. A host that limits what programs leave
 * behind between runs (an agent's `memoryLimit` over its defs) measures these too; a closure is a
 * JS function, and without this list `(def f (let [big ...] (fn [] big)))` would keep any amount
 * of data unseen.
 */
import { CAPTURED_VALUES } from "./lisp-function.js";
import { isLispMap, isLispSet } from "./table-kind.js";

/**
 * Every value captured by a function found in `value` (in vectors, maps and sets the program
 * built, and in what those functions captured), each once. Host objects are not walked: a host
 * value holds no PTC-Lisp function the program made. Empty when there is none.
 */
export function capturedValues(value: unknown): unknown[] {
  const found: unknown[] = [];
  const seen = new Set<unknown>();
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const item = pending.pop();
    if (item === null || (typeof item !== "object" && typeof item !== "function")) continue;
    if (seen.has(item)) continue;
    seen.add(item);
    if (typeof item === "function") {
      const captured = (item as { [CAPTURED_VALUES]?: readonly unknown[] })[CAPTURED_VALUES];
      if (captured === undefined) continue;
      for (const one of captured) {
        found.push(one);
        pending.push(one);
      }
    } else if (Array.isArray(item)) {
      for (const one of item) pending.push(one);
    } else if (isLispMap(item)) {
      // A map derived from a host row reads the row's fields through to it, and a host getter
      // may throw: such a map is left out (the host's own data, not something the program made).
      const entries = readable(() => item.entries());
      for (const [key, one] of entries) pending.push(key, one);
    } else if (isLispSet(item)) {
      for (const one of readable(() => item.members())) pending.push(one);
    }
  }
  return found;
}

function readable<T>(read: () => readonly T[]): readonly T[] {
  try {
    return read();
  } catch {
    return [];
  }
}
