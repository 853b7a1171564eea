/**
 * The forms that bind locals: let, loop and recur, fn, and the glue between the analyzer and
 * for/doseq (iteration.ts). They lay out the frame slots of their names and the recur targets;
 * destructuring itself is patterns.ts.
 */
import { LispError } from "../errors.js";
import { type CollectionForm, type Form, isSymbol } from "../reader/form.js";
import type { Binding, Node, Pattern, RecurTarget } from "./ast.js";
import type { FormAnalyzer } from "./form-analyzer.js";
import { analyzeIteration } from "./iteration.js";
import { analyzePattern, patternText } from "./patterns.js";
import type { Place, Scope } from "./scope.js";

/** Analyzes binding pairs in `scope` (which receives the names, in order). */
function analyzeBindings(
  analyzer: FormAnalyzer,
  vector: CollectionForm,
  scope: Scope,
  place: Place,
  what = "let",
): Binding[] {
  if (vector.items.length % 2 !== 0) {
    throw new LispError(
      "invalid_form",
      `${what} bindings require even number of forms (name value pairs)`,
      vector,
    );
  }
  const bindings: Binding[] = [];
  for (let i = 0; i < vector.items.length; i += 2) {
    const init = analyzer.valueIn(vector.items[i + 1] as Form, scope, place);
    const pattern = bindingPattern(analyzer, vector.items[i] as Form, scope, place);
    bindings.push({ pattern, init });
  }
  return bindings;
}

function bindingPattern(analyzer: FormAnalyzer, form: Form, scope: Scope, place: Place): Pattern {
  return analyzePattern(form, scope, {
    analyzeDefault: (defaultForm, at) => analyzer.valueIn(defaultForm, at, place),
  });
}

export function analyzeLet(
  analyzer: FormAnalyzer,
  args: readonly Form[],
  form: CollectionForm,
  place: Place,
): Node {
  const vector = args[0];
  if (vector !== undefined && vector.type !== "vector")
    throw new LispError("invalid_form", "let bindings must be a vector", vector);
  if (vector === undefined || args.length < 2)
    throw new LispError("invalid_arity", "expected (let [bindings] body ...)", form);
  const scope = place.scope.child();
  const bindings = analyzeBindings(analyzer, vector, scope, place);
  const inner: Place = { ...place, scope };
  return { kind: "let", bindings, body: analyzer.body(args.slice(1), form, inner), position: form };
}

export function analyzeLoop(
  analyzer: FormAnalyzer,
  args: readonly Form[],
  form: CollectionForm,
  place: Place,
): Node {
  const vector = args[0];
  if (vector === undefined || vector.type !== "vector" || args.length < 2) {
    throw new LispError("invalid_arity", "expected (loop [bindings] body ...)", form);
  }
  const scope = place.scope.child();
  const bindings = analyzeBindings(analyzer, vector, scope, place, "loop");
  const rawSlots = bindings.map((binding) =>
    binding.pattern.kind === "bind" ? binding.pattern.slot : scope.fn.allocate(),
  );
  const target: RecurTarget = { rawSlots, label: "loop" };
  const body = analyzer.body(args.slice(1), form, { ...place, scope, recur: target });
  return { kind: "loop", bindings, target, body, position: form };
}

export function analyzeRecur(
  analyzer: FormAnalyzer,
  args: readonly Form[],
  form: CollectionForm,
  place: Place,
): Node {
  const target = place.recur;
  if (target === undefined) {
    throw new LispError(
      "invalid_form",
      "recur must be in tail position (the last expression of a loop or fn body)",
      form,
    );
  }
  return { kind: "recur", target, args: args.map((arg) => analyzer.value(arg, place)), position: form };
}

export function analyzeFn(
  analyzer: FormAnalyzer,
  args: readonly Form[],
  form: CollectionForm,
  place: Place,
  defName: string | undefined,
): Node {
  let rest = args;
  let name = defName;
  if (isSymbol(rest[0])) {
    name = (rest[0] as { name: string }).name;
    rest = rest.slice(1);
  }
  const params = rest[0];
  if (params === undefined || (params.type !== "vector" && rest.length < 2)) {
    throw new LispError(
      "invalid_arity",
      "expected (fn [params] body ...) or (fn name [params] body ...)",
      form,
    );
  }
  if (params.type === "list") {
    throw new LispError(
      "invalid_form",
      "multi-arity fn is not supported; define one function per arity",
      params,
    );
  }
  if (params.type !== "vector") throw new LispError("invalid_form", "fn parameters must be a vector", params);

  const scope = place.scope.function();
  const selfSlot = name === undefined || args[0]?.type !== "symbol" ? undefined : scope.declare(name).slot;
  const fixed: Pattern[] = [];
  let restPattern: Pattern | undefined;
  let restAsMap = false;
  const items = params.items;
  const rawSlots: number[] = [];
  // Raw slots receive the arguments; patterns that are not plain names destructure from them.
  const deferred: Array<{ raw: number; form: Form; index: number }> = [];
  for (let i = 0; i < items.length; i++) {
    const item = items[i] as Form;
    if (item.type === "symbol" && item.name === "&") {
      const restForm = items[i + 1];
      if (restForm === undefined || i + 2 !== items.length) {
        throw new LispError(
          "unsupported_pattern",
          "'&' must be followed by exactly one rest parameter, e.g. [x & more]",
          item,
        );
      }
      restAsMap = restForm.type === "map";
      const raw = scope.fn.allocate();
      rawSlots.push(raw);
      deferred.push({ raw, form: restForm, index: -1 });
      break;
    }
    if (item.type === "symbol") {
      const pattern = bindingPattern(analyzer, item, scope, place);
      fixed.push(pattern);
      rawSlots.push((pattern as { slot: number }).slot);
    } else {
      const raw = scope.fn.allocate();
      rawSlots.push(raw);
      fixed.push({ kind: "ignore" });
      deferred.push({ raw, form: item, index: fixed.length - 1 });
    }
  }
  // Destructuring params become a let around the body, reading the raw slots.
  const destructure: Binding[] = [];
  for (const { raw, form: patternForm, index } of deferred) {
    const pattern = bindingPattern(analyzer, patternForm, scope, place);
    if (index === -1) restPattern = pattern;
    else fixed[index] = pattern;
    destructure.push({ pattern, init: { kind: "local", slot: raw, name: "", position: patternForm } });
  }
  const target: RecurTarget = { rawSlots, label: "fn" };
  const inner: Place = { scope, recur: target, inShortFn: false };
  const bodyForms = rest.slice(1);
  let body = analyzer.body(bodyForms, form, inner);
  if (destructure.length > 0) body = { kind: "let", bindings: destructure, body, position: form };
  return {
    kind: "fn",
    name,
    selfSlot,
    params: fixed,
    rest: restPattern,
    restAsMap,
    target,
    body,
    frameSize: scope.fn.frameSize,
    captures: scope.fn.captures,
    signature: patternText(items),
    position: form,
  };
}

export function analyzeFor(
  analyzer: FormAnalyzer,
  name: "for" | "doseq",
  args: readonly Form[],
  form: CollectionForm,
  place: Place,
): Node {
  const { clauses, bodyScope, bodyForms } = analyzeIteration(name, args, form, place.scope, {
    analyzeValue: (valueForm, scope) => analyzer.valueIn(valueForm, scope, place),
    analyzeBindings: (vector, scope) => analyzeBindings(analyzer, vector, scope, place),
    analyzePatternIn: (patternForm, scope) => bindingPattern(analyzer, patternForm, scope, place),
  });
  const body = analyzer.body(bodyForms, form, { ...place, scope: bodyScope, recur: undefined });
  return { kind: "for", clauses, body, collect: name === "for", position: form };
}
