/**
 * What each top-level form of a program reads and defines, from its text alone. PTC-Lisp has no
 * way to reach a binding, a tool, `*1` or `data/...` other than by writing its name (no `eval`,
 * no `resolve`, no dynamic `def`), so the names a form mentions are a sound over-approximation of
 * where its values can come from. Mentions inside quotes and unused branches count too: more
 * caution, never less.
 */
import { type Form, read } from "@ptc/lisp";

export interface FormReads {
  /** Names the form binds with `def`, `defn` or `defonce`, anywhere inside it. */
  readonly defines: readonly string[];
  /** Those it binds with `defonce`, which keeps a value the name already has. */
  readonly definesOnce: ReadonlySet<string>;
  /** Every name the form mentions: bindings, `tool/...`, `*1`, `data/...`, special forms. */
  readonly mentions: ReadonlySet<string>;
}

const DEFINING = new Set(["def", "defn", "defonce", "defn-"]);

/** The forms of a program in order, or undefined when it does not read (it then never ran). */
export function programReads(source: string): FormReads[] | undefined {
  let forms: Form[];
  try {
    forms = read(source);
  } catch {
    return undefined;
  }
  return forms.map((form) => {
    const defines: string[] = [];
    const definesOnce = new Set<string>();
    const mentions = new Set<string>();
    collect(form, defines, definesOnce, mentions);
    return { defines, definesOnce, mentions };
  });
}

function collect(root: Form, defines: string[], definesOnce: Set<string>, mentions: Set<string>): void {
  const stack: Form[] = [root];
  while (stack.length > 0) {
    const form = stack.pop() as Form;
    switch (form.type) {
      case "symbol":
      case "var":
      case "quote":
        mentions.add(form.name);
        break;
      case "list":
      case "vector":
      case "map":
      case "set":
      case "fn-literal": {
        const [head, name] = form.items;
        if (
          form.type === "list" &&
          head?.type === "symbol" &&
          DEFINING.has(head.name) &&
          name?.type === "symbol"
        ) {
          // The name being bound is not a read: `(def rows [])` does not depend on the old rows.
          defines.push(name.name);
          if (head.name === "defonce") definesOnce.add(name.name);
          stack.push(head, ...form.items.slice(2));
        } else {
          stack.push(...form.items);
        }
        break;
      }
      default:
        break;
    }
  }
}
