/**
 * The forms that choose what runs: if, and/or, case, and quote. Each passes tail position on to
 * the branches that can end the form, so `recur` stays legal there and nowhere else.
 */
import { LispError } from "../errors.js";
import { type CollectionForm, describeForm, type Form } from "../reader/form.js";
import { hashKey } from "../values/hash-key.js";
import { Keyword } from "../values/keyword.js";
import { QuotedSymbol } from "../values/quoted-symbol.js";
import type { Node } from "./ast.js";
import type { FormAnalyzer } from "./form-analyzer.js";
import type { Place } from "./scope.js";

export function analyzeIf(
  analyzer: FormAnalyzer,
  args: readonly Form[],
  form: CollectionForm,
  place: Place,
): Node {
  if (args.length < 2 || args.length > 3)
    throw new LispError("invalid_arity", "expected (if cond then else?)", form);
  return {
    kind: "if",
    test: analyzer.value(args[0] as Form, place),
    consequent: analyzer.analyze(args[1] as Form, place),
    alternative:
      args[2] === undefined
        ? { kind: "const", value: null, position: form }
        : analyzer.analyze(args[2], place),
    position: form,
  };
}

export function analyzeAndOr(
  analyzer: FormAnalyzer,
  name: "and" | "or",
  args: readonly Form[],
  form: CollectionForm,
  place: Place,
): Node {
  if (args.length === 0) return { kind: "const", value: name === "and" ? true : null, position: form };
  if (args.length === 1) return analyzer.analyze(args[0] as Form, place);
  return {
    kind: name,
    items: args.map((arg, index) =>
      name === "or" && analyzer.isSoftSymbol(arg, place)
        ? { kind: "var", name: (arg as { name: string }).name, position: arg, soft: true }
        : index === args.length - 1
          ? analyzer.analyze(arg, place)
          : analyzer.value(arg, place),
    ),
    position: form,
  };
}

export function analyzeQuote(args: readonly Form[], form: CollectionForm): Node {
  const quoted = args[0];
  if (args.length !== 1)
    throw new LispError(
      "invalid_arity",
      `(quote symbol) requires exactly 1 symbol, got ${args.length}`,
      form,
    );
  if (quoted?.type !== "symbol") {
    throw new LispError(
      "invalid_form",
      `quote only supports symbols, got ${describeForm(quoted as Form)}; write a vector [...] for data`,
      form,
    );
  }
  return { kind: "const", value: new QuotedSymbol(quoted.name), position: form };
}

export function analyzeCase(
  analyzer: FormAnalyzer,
  args: readonly Form[],
  form: CollectionForm,
  place: Place,
): Node {
  if (args.length === 0)
    throw new LispError("invalid_form", "case requires at least an expression to test", form);
  const value = analyzer.value(args[0] as Form, place);
  const pairs = args.slice(1);
  const table = new Map<unknown, number>();
  const clauses: Node[] = [];
  const count = pairs.length - (pairs.length % 2);
  for (let i = 0; i < count; i += 2) {
    const test = pairs[i] as Form;
    const index = clauses.length;
    clauses.push(analyzer.analyze(pairs[i + 1] as Form, place));
    const constants = test.type === "list" ? test.items : [test];
    if (test.type === "list" && test.items.length === 0) {
      throw new LispError("invalid_form", "case grouped match must contain at least one value", test);
    }
    for (const constant of constants) {
      const key = hashKey(caseConstant(constant));
      if (!table.has(key)) table.set(key, index);
    }
  }
  const fallback =
    pairs.length % 2 === 1 ? analyzer.analyze(pairs[pairs.length - 1] as Form, place) : undefined;
  return { kind: "case", value, table, clauses, fallback, position: form };
}

function caseConstant(form: Form): unknown {
  switch (form.type) {
    case "nil":
      return null;
    case "boolean":
    case "number":
    case "string":
      return form.value;
    case "keyword":
      return Keyword.of(form.name);
    case "symbol":
      return new QuotedSymbol(form.name);
    case "vector":
      return form.items.map((item) => caseConstant(item));
    default:
      throw new LispError(
        "invalid_form",
        `case test constants must be literals, got ${describeForm(form)}`,
        form,
      );
  }
}
