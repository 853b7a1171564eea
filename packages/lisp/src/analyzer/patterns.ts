/**
 * Destructuring patterns: symbols, vectors with `&` rest, maps with :keys/:strs/:or/:as,
 * explicit `{name :key}` entries, nested at any depth. Used by let, fn params, loop, for and doseq.
 */
import { LispError } from "../errors.js";
import { describeForm, type Form, isSymbol, type Position } from "../reader/form.js";
import { Keyword } from "../values/keyword.js";
import type { Node, Pattern } from "./ast.js";
import type { Scope } from "./scope.js";

export interface PatternAnalyzer {
  /** Analyzes a default (`:or`) expression in the scope being built. */
  analyzeDefault(form: Form, scope: Scope): Node;
}

const RESERVED = new Set(["nil", "true", "false"]);

function unsupported(message: string, position: Position): LispError {
  return new LispError("unsupported_pattern", message, position);
}

/** Declares a plain symbol binding; rejects names that can never be bound. */
function bindSymbol(name: string, position: Position, scope: Scope): Pattern {
  if (RESERVED.has(name))
    throw unsupported(`cannot bind the literal ${name}; choose a name such as value`, position);
  if (name.includes("/") && name !== "/") {
    throw unsupported(`cannot bind the namespaced name ${name}; local names have no namespace`, position);
  }
  if (name === "&")
    throw unsupported(
      "'&' must be followed by a rest binding inside a vector pattern, e.g. [x & more]",
      position,
    );
  return { kind: "bind", slot: scope.declare(name).slot, name };
}

/**
 * Analyzes a binding pattern. Defaults are analyzed before the pattern's own names are declared,
 * so `:or` values cannot refer to names bound by the same pattern (as in Clojure, where it is
 * undefined behaviour).
 */
export function analyzePattern(form: Form, scope: Scope, analyzer: PatternAnalyzer): Pattern {
  switch (form.type) {
    case "symbol":
      return bindSymbol(form.name, form, scope);
    case "vector":
      return analyzeSequentialPattern(form.items, form, scope, analyzer);
    case "map":
      return analyzeMapPattern(form.items, form, scope, analyzer);
    case "nil":
    case "boolean":
      throw unsupported(`cannot bind the literal ${describeForm(form)}; choose a name such as value`, form);
    default:
      throw unsupported(
        `unsupported binding pattern ${describeForm(form)}: use a symbol, a vector pattern [a b & more] or a map pattern {:keys [a b]}`,
        form,
      );
  }
}

function analyzeSequentialPattern(
  items: readonly Form[],
  position: Position,
  scope: Scope,
  analyzer: PatternAnalyzer,
): Pattern {
  const patterns: Pattern[] = [];
  let rest: Pattern | undefined;
  for (let i = 0; i < items.length; i++) {
    const item = items[i] as Form;
    if (item.type === "keyword" && item.name === "as") {
      throw unsupported(
        ":as inside a vector pattern is not supported; bind the whole value in its own let binding first",
        item,
      );
    }
    if (isSymbol(item, "&")) {
      const restForm = items[i + 1];
      if (restForm === undefined || i + 2 !== items.length) {
        throw unsupported(
          "'&' must be followed by exactly one rest binding at the end, e.g. [x & more]",
          item,
        );
      }
      rest = analyzePattern(restForm, scope, analyzer);
      break;
    }
    patterns.push(analyzePattern(item, scope, analyzer));
  }
  return { kind: "seq", items: patterns, rest, position };
}

function keyForName(form: Form, kind: "keys" | "strs"): { key: unknown; name: string; position: Position } {
  if (form.type === "symbol")
    return { key: kind === "keys" ? Keyword.of(form.name) : form.name, name: form.name, position: form };
  if (form.type === "keyword" && kind === "keys")
    return { key: Keyword.of(form.name), name: form.name, position: form };
  throw unsupported(`:${kind} expects symbols, e.g. {:${kind} [id name]}; got ${describeForm(form)}`, form);
}

function literalKey(form: Form): unknown {
  switch (form.type) {
    case "keyword":
      return Keyword.of(form.name);
    case "string":
      return form.value;
    case "number":
    case "boolean":
      return form.value;
    case "nil":
      return null;
    default:
      throw unsupported(
        `map pattern keys must be literals such as :id or "id"; got ${describeForm(form)}`,
        form,
      );
  }
}

function analyzeMapPattern(
  items: readonly Form[],
  position: Position,
  scope: Scope,
  analyzer: PatternAnalyzer,
): Pattern {
  const defaults = new Map<string, Form>();
  let asForm: Form | undefined;
  const named: Array<{ key: unknown; name: string; position: Position }> = [];
  const nested: Array<{ key: unknown; form: Form }> = [];

  for (let i = 0; i < items.length; i += 2) {
    const keyForm = items[i] as Form;
    const valueForm = items[i + 1] as Form;
    if (keyForm.type === "keyword" && (keyForm.name === "keys" || keyForm.name === "strs")) {
      if (valueForm.type !== "vector") {
        throw unsupported(
          `:${keyForm.name} must be followed by a vector of names, e.g. {:${keyForm.name} [id name]}`,
          valueForm,
        );
      }
      for (const nameForm of valueForm.items) named.push(keyForName(nameForm, keyForm.name));
    } else if (keyForm.type === "keyword" && keyForm.name === "syms") {
      throw unsupported(":syms destructuring is not supported; use :keys or :strs", keyForm);
    } else if (keyForm.type === "keyword" && keyForm.name === "or") {
      if (valueForm.type !== "map")
        throw unsupported(":or must be followed by a map of defaults, e.g. {:or {limit 10}}", valueForm);
      for (let j = 0; j < valueForm.items.length; j += 2) {
        const nameForm = valueForm.items[j] as Form;
        if (nameForm.type !== "symbol")
          throw unsupported(`:or keys must be the bound names; got ${describeForm(nameForm)}`, nameForm);
        defaults.set(nameForm.name, valueForm.items[j + 1] as Form);
      }
    } else if (keyForm.type === "keyword" && keyForm.name === "as") {
      if (valueForm.type !== "symbol")
        throw unsupported(`:as must be followed by a name; got ${describeForm(valueForm)}`, valueForm);
      asForm = valueForm;
    } else {
      nested.push({ key: literalKey(valueForm), form: keyForm });
    }
  }

  // Defaults first (see analyzePattern), in the enclosing scope.
  const analyzedDefaults = new Map<string, Node>();
  for (const [name, form] of defaults) analyzedDefaults.set(name, analyzer.analyzeDefault(form, scope));

  const entries: Array<{ key: unknown; pattern: Pattern; fallback: Node | undefined }> = [];
  for (const { key, name, position: at } of named) {
    entries.push({ key, pattern: bindSymbol(name, at, scope), fallback: analyzedDefaults.get(name) });
  }
  for (const { key, form } of nested) {
    const fallback = form.type === "symbol" ? analyzedDefaults.get(form.name) : undefined;
    entries.push({ key, pattern: analyzePattern(form, scope, analyzer), fallback });
  }
  const whole = asForm === undefined ? undefined : analyzePattern(asForm, scope, analyzer);
  return { kind: "map", entries, whole, position };
}

/**
 * Text of a parameter vector for printing closures: `#fn[x y]`. Made for every fn form analyzed,
 * so plain names (almost every parameter) are joined as they come, without a mapped array.
 */
export function patternText(forms: readonly Form[]): string {
  let text = "";
  for (let i = 0; i < forms.length; i++) {
    const form = forms[i] as Form;
    const part = form.type === "symbol" ? form.name : describeForm(form);
    text = i === 0 ? part : `${text} ${part}`;
  }
  return text;
}
