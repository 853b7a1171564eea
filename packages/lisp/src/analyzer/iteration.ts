/**
 * `for` and `doseq`: binding pairs (cartesian product, destructuring), the
 * :when, :let and :while modifiers, and a body. Checked here so that a malformed comprehension
 * fails before the program runs, with the reference's reason names.
 */
import { LispError } from "../errors.js";
import { quotedName } from "../quoted-text.js";
import { type CollectionForm, describeForm, type Form } from "../reader/form.js";
import type { ForClause, Node } from "./ast.js";
import type { Scope } from "./scope.js";

export interface IterationAnalyzer {
  analyzeValue(form: Form, scope: Scope): Node;
  analyzeBindings(
    bindings: CollectionForm,
    scope: Scope,
  ): Array<{ pattern: import("./ast.js").Pattern; init: Node }>;
  analyzePatternIn(form: Form, scope: Scope): import("./ast.js").Pattern;
}

function literalKind(form: Form): string | undefined {
  switch (form.type) {
    case "number":
      return "number";
    case "keyword":
      return "keyword";
    case "boolean":
      return "boolean";
    default:
      return undefined;
  }
}

export function analyzeIteration(
  name: "for" | "doseq",
  args: readonly Form[],
  form: CollectionForm,
  scope: Scope,
  analyzer: IterationAnalyzer,
): { clauses: ForClause[]; bodyScope: Scope; bodyForms: readonly Form[] } {
  const bindingsForm = args[0];
  if (bindingsForm === undefined || bindingsForm.type !== "vector") {
    throw new LispError("invalid_arity", `expected (${name} [bindings] body ...)`, form);
  }
  const bodyForms = args.slice(1);
  if (bodyForms.length === 0) {
    throw new LispError(
      "invalid_arity",
      name === "for"
        ? "for requires at least one body expression"
        : "doseq requires at least one body expression, missing body",
      form,
    );
  }
  const items = bindingsForm.items;
  if (items.length === 0)
    throw new LispError("invalid_form", "for/doseq requires at least one binding pair", bindingsForm);

  const clauses: ForClause[] = [];
  let current = scope;
  let sawBinding = false;
  for (let i = 0; i < items.length; i += 2) {
    const head = items[i] as Form;
    const value = items[i + 1];
    if (head.type === "keyword") {
      if (!sawBinding) {
        throw new LispError(
          "invalid_form",
          `expected a binding symbol, got keyword :${quotedName(head.name)}. Keywords like :when/:let/:while must follow a binding pair`,
          head,
        );
      }
      if (head.name !== "when" && head.name !== "let" && head.name !== "while") {
        throw new LispError(
          "invalid_form",
          `unknown modifier :${head.name} in for/doseq. Known: :when, :let, :while`,
          head,
        );
      }
      if (value === undefined)
        throw new LispError("invalid_form", `modifier :${head.name} requires a value`, head);
      if (head.name === "let") {
        if (value.type !== "vector") {
          throw new LispError(
            "invalid_form",
            `:let modifier requires a vector of bindings, got: ${describeForm(value)}`,
            value,
          );
        }
        current = current.child();
        clauses.push({ kind: "let", bindings: analyzer.analyzeBindings(value, current), position: head });
      } else {
        clauses.push({ kind: head.name, test: analyzer.analyzeValue(value, current), position: head });
      }
      continue;
    }
    if (value === undefined) {
      throw new LispError("invalid_form", "for/doseq bindings require pairs, got trailing element", head);
    }
    const kind = literalKind(value);
    if (kind !== undefined) {
      const label = head.type === "symbol" ? `'${head.name}' ` : "";
      // A type error, as the same binding reports when the value arrives at run time.
      throw new LispError(
        "type_error",
        `${name} binding ${label}expected a collection, got: ${describeForm(value)} (${kind})`,
        value,
      );
    }
    const init = analyzer.analyzeValue(value, current);
    current = current.child();
    clauses.push({ kind: "bind", pattern: analyzer.analyzePatternIn(head, current), init, position: head });
    sawBinding = true;
  }
  return { clauses, bodyScope: current, bodyForms };
}
