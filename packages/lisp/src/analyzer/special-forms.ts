/**
 * The special forms: which names they are, which of them a local can shadow, and the dispatch
 * from a form's head to the module that analyzes it. The small forms with nothing to lay out (do,
 * comment, the discovery forms, the rejected Clojure forms) are handled right here.
 */
import { LispError } from "../errors.js";
import type { CollectionForm, Form } from "../reader/form.js";
import { QuotedSymbol } from "../values/quoted-symbol.js";
import {
  analyzeParallelCalls,
  analyzeParallelMap,
  analyzeReturnOrFail,
  analyzeStepDone,
  analyzeTask,
  analyzeTaskReset,
} from "./agent-forms.js";
import type { Node } from "./ast.js";
import { analyzeFn, analyzeFor, analyzeLet, analyzeLoop, analyzeRecur } from "./binding-forms.js";
import { analyzeAndOr, analyzeCase, analyzeIf, analyzeQuote } from "./control-forms.js";
import { analyzeDef, analyzeDefn } from "./def-forms.js";
import type { FormAnalyzer } from "./form-analyzer.js";
import type { Place } from "./scope.js";

export const SPECIAL_FORM_NAMES = new Set([
  "let",
  "fn",
  "loop",
  "recur",
  "def",
  "defn",
  "defonce",
  "if",
  "do",
  "and",
  "or",
  "quote",
  "comment",
  "case",
  "for",
  "doseq",
  "return",
  "fail",
  "task",
  "step-done",
  "task-reset",
  "pmap",
  "pcalls",
  ".",
  "doc",
  "dir",
  "apropos",
  "meta",
  "ns-publics",
  "fn*",
  "letfn",
]);

/**
 * True special forms keep their meaning even where a local of the same name exists
 * (`(let [if inc] (if true 1 2))` is 1), as in Clojure and the reference; macro-like forms
 * (when, let, fn, ->...) are shadowed by locals.
 */
export const UNSHADOWABLE = new Set([
  "if",
  "def",
  "defonce",
  "recur",
  "do",
  "return",
  "fail",
  "task",
  "step-done",
  "task-reset",
  "pmap",
  "pcalls",
  ".",
  "fn*",
  "letfn",
  "ns-publics",
]);

/** A list whose head `name` is in SPECIAL_FORM_NAMES. */
export function analyzeSpecialForm(
  analyzer: FormAnalyzer,
  name: string,
  args: readonly Form[],
  form: CollectionForm,
  place: Place,
): Node {
  switch (name) {
    case "let":
      return analyzeLet(analyzer, args, form, place);
    case "fn":
      return analyzeFn(analyzer, args, form, place, undefined);
    case "loop":
      return analyzeLoop(analyzer, args, form, place);
    case "recur":
      return analyzeRecur(analyzer, args, form, place);
    case "def":
    case "defonce":
      return analyzeDef(analyzer, name, args, form, place);
    case "defn":
      return analyzeDefn(analyzer, args, form, place);
    case "if":
      return analyzeIf(analyzer, args, form, place);
    case "do":
      return analyzer.body(args, form, place);
    case "and":
    case "or":
      return analyzeAndOr(analyzer, name, args, form, place);
    case "quote":
      return analyzeQuote(args, form);
    case "comment":
      return { kind: "const", value: null, position: form };
    case "case":
      return analyzeCase(analyzer, args, form, place);
    case "for":
    case "doseq":
      return analyzeFor(analyzer, name, args, form, place);
    case "return":
    case "fail":
      return analyzeReturnOrFail(analyzer, name, args, form, place);
    case "task":
      return analyzeTask(analyzer, args, form, place);
    case "step-done":
      return analyzeStepDone(analyzer, args, form, place);
    case "task-reset":
      return analyzeTaskReset(analyzer, args, form, place);
    case "pmap":
      return analyzeParallelMap(analyzer, args, form, place);
    case "pcalls":
      return analyzeParallelCalls(analyzer, args, form, place);
    case ".":
      throw new LispError(
        "invalid_form",
        "(. obj method) syntax is not supported. Use (.method obj) instead.",
        form,
      );
    case "fn*":
    case "letfn":
      throw new LispError(
        "invalid_form",
        `${name} is not supported; use (let [f (fn [x] ...)] ...) or defn`,
        form,
      );
    default:
      // doc, dir, apropos, meta, ns-publics: a bare symbol argument names a var, it is not read.
      return {
        kind: "discovery",
        operation: name,
        args: args.map((arg) =>
          arg.type === "symbol"
            ? ({ kind: "const", value: new QuotedSymbol(arg.name), position: arg } as Node)
            : analyzer.value(arg, place),
        ),
        position: form,
      };
  }
}
