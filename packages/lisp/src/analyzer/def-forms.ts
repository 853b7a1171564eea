/**
 * def, defonce and defn: the forms that define session vars. It also finds every name a program
 * defines before analysis starts, so a function may call one defined later in the same program.
 */
import { LispError } from "../errors.js";
import { type CollectionForm, describeForm, type Form, type Position } from "../reader/form.js";
import type { Node } from "./ast.js";
import { analyzeFn } from "./binding-forms.js";
import type { FormAnalyzer } from "./form-analyzer.js";
import type { Place } from "./scope.js";

const DEF_FORMS = new Set(["def", "defn", "defonce"]);

/**
 * Every name the program defines with def/defn/defonce, wherever it appears. A form's type is read
 * once: forms come in several shapes, so each read is a slow, megamorphic one.
 */
export function collectDefinedNames(forms: readonly Form[], into: Set<string>): void {
  for (const form of forms) {
    switch (form.type) {
      case "list": {
        const head = form.items[0];
        if (head !== undefined && head.type === "symbol" && DEF_FORMS.has(head.name)) {
          const name = form.items[1];
          if (name?.type === "symbol") into.add(name.name);
        }
        collectDefinedNames(form.items, into);
        break;
      }
      case "vector":
      case "map":
      case "set":
      case "fn-literal":
        collectDefinedNames(form.items, into);
        break;
      default:
        break;
    }
  }
}

function defName(tag: string, form: Form | undefined, position: Position): string {
  if (form === undefined) throw new LispError("invalid_arity", `expected (${tag} name value)`, position);
  if (form.type !== "symbol") {
    throw new LispError("invalid_form", `${tag} name must be a symbol, got: ${describeForm(form)}`, form);
  }
  if (form.name.includes("/") && form.name !== "/") {
    throw new LispError(
      "invalid_form",
      `${tag} name must not have a namespace: ${form.name}; write a plain name`,
      form,
    );
  }
  return form.name;
}

export function analyzeDef(
  analyzer: FormAnalyzer,
  tag: "def" | "defonce",
  args: readonly Form[],
  form: CollectionForm,
  place: Place,
): Node {
  const name = defName(tag, args[0], form);
  if (args.length === 1)
    throw new LispError(
      "invalid_arity",
      `expected (${tag} name value), got (${tag} name) without value`,
      form,
    );
  if (args.length === 3 && args[1]?.type !== "string") {
    throw new LispError(
      "invalid_arity",
      `expected (${tag} name value) or (${tag} name docstring value)`,
      form,
    );
  }
  if (args.length > 3)
    throw new LispError(
      "invalid_arity",
      `expected (${tag} name value) or (${tag} name docstring value)`,
      form,
    );
  const valueForm = args[args.length - 1] as Form;
  return {
    kind: "def",
    name,
    value: analyzer.value(valueForm, place),
    once: tag === "defonce",
    position: form,
  };
}

export function analyzeDefn(
  analyzer: FormAnalyzer,
  args: readonly Form[],
  form: CollectionForm,
  place: Place,
): Node {
  const name = defName("defn", args[0], form);
  let rest = args.slice(1);
  if (rest[0]?.type === "string" && rest.length > 1) rest = rest.slice(1);
  const params = rest[0];
  if (params === undefined) throw new LispError("invalid_arity", "expected (defn name [params] body)", form);
  if (params.type === "list") {
    throw new LispError(
      "invalid_form",
      "multi-arity defn not supported, use separate defn forms for each arity",
      params,
    );
  }
  if (params.type !== "vector")
    throw new LispError("invalid_arity", "expected (defn name [params] body)", form);
  const fn = analyzeFn(analyzer, rest, form, { ...place, recur: undefined }, name);
  return { kind: "def", name, value: fn, once: false, position: form };
}
