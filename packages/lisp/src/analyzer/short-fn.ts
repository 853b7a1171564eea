/**
 * `#(...)` to `(fn [%1 %2 & %&] ...)`. The arity is the highest placeholder used (`%` is `%1`,
 * up to `%20`); `%&` collects the rest. `#(f)` calls f, `#(42)` returns 42, `#(%)` is identity.
 */
import { LispError } from "../errors.js";
import type { CollectionForm, Form } from "../reader/form.js";

const MAX_ARITY = 20;

function placeholderIndex(name: string): number | "rest" | undefined {
  if (name === "%") return 1;
  if (name === "%&") return "rest";
  if (/^%[0-9]+$/.test(name)) return Number(name.slice(1));
  return undefined;
}

interface Usage {
  maxIndex: number;
  rest: boolean;
}

function scan(form: Form, usage: Usage): void {
  switch (form.type) {
    case "symbol": {
      const index = placeholderIndex(form.name);
      if (index === "rest") usage.rest = true;
      else if (index !== undefined) {
        if (index < 1 || index > MAX_ARITY) {
          throw new LispError(
            "invalid_form",
            `${form.name} is out of range: #() supports %1 to %${MAX_ARITY} (max arity ${MAX_ARITY}); use (fn [...] ...) for more parameters`,
            form,
          );
        }
        usage.maxIndex = Math.max(usage.maxIndex, index);
      }
      return;
    }
    case "fn-literal":
      throw new LispError(
        "invalid_form",
        "Nested #() anonymous functions are not allowed: write the inner one as (fn [x] ...)",
        form,
      );
    case "list":
    case "vector":
    case "map":
    case "set":
      for (const item of form.items) scan(item, usage);
      return;
    default:
      return;
  }
}

function rename(form: Form): Form {
  switch (form.type) {
    case "symbol":
      return form.name === "%" ? { ...form, name: "%1" } : form;
    case "list":
    case "vector":
    case "map":
    case "set":
      return { ...form, items: form.items.map(rename) };
    default:
      return form;
  }
}

export function expandShortFn(form: CollectionForm): Form {
  const items = form.items;
  let body: Form | undefined;
  if (items.length === 0) body = undefined;
  else if (items.length === 1) {
    const only = items[0] as Form;
    body =
      only.type === "symbol" && placeholderIndex(only.name) === undefined
        ? { type: "list", items: [only], line: form.line, column: form.column }
        : only;
  } else body = { type: "list", items, line: form.line, column: form.column };

  const usage: Usage = { maxIndex: 0, rest: false };
  if (body !== undefined) scan(body, usage);
  const params: Form[] = [];
  for (let i = 1; i <= usage.maxIndex; i++)
    params.push({ type: "symbol", name: `%${i}`, line: form.line, column: form.column });
  if (usage.rest) {
    params.push({ type: "symbol", name: "&", line: form.line, column: form.column });
    params.push({ type: "symbol", name: "%&", line: form.line, column: form.column });
  }
  const fnItems: Form[] = [
    { type: "symbol", name: "fn", line: form.line, column: form.column },
    { type: "vector", items: params, line: form.line, column: form.column },
  ];
  if (body !== undefined) fnItems.push(rename(body));
  else fnItems.push({ type: "nil", line: form.line, column: form.column });
  return { type: "list", items: fnItems, line: form.line, column: form.column };
}
