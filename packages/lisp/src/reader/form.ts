/**
 * Forms: what the reader produces and the analyzer consumes. Every form knows where it starts in
 * the source (1-based line and column), so every later error can point at it.
 */
import { quotedName } from "../quoted-text.js";
import type { WholeFloat } from "../values/numbers.js";

export interface Position {
  readonly line: number;
  readonly column: number;
}

interface FormBase extends Position {}

export interface NilForm extends FormBase {
  readonly type: "nil";
}
export interface BooleanForm extends FormBase {
  readonly type: "boolean";
  readonly value: boolean;
}
export interface NumberForm extends FormBase {
  readonly type: "number";
  readonly value: number | bigint | WholeFloat;
}
/** Strings and character literals: PTC-Lisp has no character type (`\a` is "a"). */
export interface StringForm extends FormBase {
  readonly type: "string";
  readonly value: string;
}
export interface KeywordForm extends FormBase {
  readonly type: "keyword";
  readonly name: string;
}
export interface SymbolForm extends FormBase {
  readonly type: "symbol";
  readonly name: string;
}
export interface RegexForm extends FormBase {
  readonly type: "regex";
  readonly source: string;
}
/** `#'name` */
export interface VarForm extends FormBase {
  readonly type: "var";
  readonly name: string;
}
/** `'name`: only symbols may be quoted. */
export interface QuoteForm extends FormBase {
  readonly type: "quote";
  readonly name: string;
}
export interface CollectionForm extends FormBase {
  /** `fn-literal` is `#(...)`; a map's items alternate key, value. */
  readonly type: "list" | "vector" | "map" | "set" | "fn-literal";
  readonly items: readonly Form[];
}

export type Form =
  | NilForm
  | BooleanForm
  | NumberForm
  | StringForm
  | KeywordForm
  | SymbolForm
  | RegexForm
  | VarForm
  | QuoteForm
  | CollectionForm;

export function isSymbol(form: Form | undefined, name?: string): form is SymbolForm {
  return form !== undefined && form.type === "symbol" && (name === undefined || form.name === name);
}

export function isCollection(form: Form | undefined, type: CollectionForm["type"]): form is CollectionForm {
  return form !== undefined && form.type === type;
}

/**
 * Source-like text of a form, for error messages ("got keyword :whend"); a very long one keeps its
 * start and says how long it was (quoted-text.ts).
 */
export function describeForm(form: Form): string {
  return quotedName(formText(form));
}

function formText(form: Form): string {
  switch (form.type) {
    case "nil":
      return "nil";
    case "boolean":
      return String(form.value);
    case "number":
      return typeof form.value === "object" ? `${form.value.value}.0` : String(form.value);
    case "string":
      return JSON.stringify(form.value);
    case "keyword":
      return `:${form.name}`;
    case "symbol":
      return form.name;
    case "regex":
      return `#"${form.source}"`;
    case "var":
      return `#'${form.name}`;
    case "quote":
      return `'${form.name}`;
    case "list":
      return `(${form.items.map(formText).join(" ")})`;
    case "vector":
      return `[${form.items.map(formText).join(" ")}]`;
    case "map":
      return `{${form.items.map(formText).join(" ")}}`;
    case "set":
      return `#{${form.items.map(formText).join(" ")}}`;
    case "fn-literal":
      return `#(${form.items.map(formText).join(" ")})`;
  }
}
