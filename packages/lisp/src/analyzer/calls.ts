/**
 * Call heads whose spelling gives them a meaning of their own: `(tool/name ...)`,
 * `(budget/remaining)`, the `(data/key)` mistake, and the interop forms `(.method obj ...)` and
 * `(Class. ...)`. Plain function calls stay in the analyzer's list dispatch.
 */
import { LispError } from "../errors.js";
import { quotedName } from "../quoted-text.js";
import { type CollectionForm, describeForm, type Form, type Position } from "../reader/form.js";
import { namedArgumentsAdvice } from "../runtime/tool-parameters.js";
import type { Node } from "./ast.js";
import type { FormAnalyzer } from "./form-analyzer.js";
import type { Place } from "./scope.js";

/** A call whose head is `ns/member`; undefined when the namespace is not one of these. */
export function analyzeNamespacedCall(
  analyzer: FormAnalyzer,
  ns: string,
  member: string,
  args: readonly Form[],
  form: CollectionForm,
  place: Place,
): Node | undefined {
  switch (ns) {
    case "tool":
      return analyzeToolCall(analyzer, member, args, form, place);
    case "data":
      throw new LispError(
        "invalid_form",
        `unknown namespace data/ call: data/${quotedName(member)} is a value, not a function; write data/${quotedName(member)} without parentheses`,
        form,
      );
    case "budget":
      if (member !== "remaining") {
        throw new LispError(
          "invalid_form",
          `Unknown budget function: budget/${member}. Available: budget/remaining`,
          form,
        );
      }
      if (args.length !== 0)
        throw new LispError("invalid_arity", "(budget/remaining) takes no arguments", form);
      return { kind: "budget", position: form };
    default:
      return undefined;
  }
}

function analyzeToolCall(
  analyzer: FormAnalyzer,
  written: string,
  args: readonly Form[],
  form: CollectionForm,
  place: Place,
): Node {
  const name = analyzer.resolveTool(written, form);
  if (args.length === 0) return { kind: "tool", name, args: undefined, position: form };
  if (args.length === 1) {
    const only = args[0] as Form;
    if (
      only.type === "string" ||
      only.type === "number" ||
      only.type === "vector" ||
      only.type === "boolean" ||
      only.type === "set"
    ) {
      throw positionalToolArgs(analyzer, name, args, form);
    }
    return { kind: "tool", name, args: analyzer.value(only, place), position: form };
  }
  // Keyword style: (tool/x :k v :k2 v2)
  if (args.length % 2 === 0 && args.every((arg, index) => index % 2 === 1 || arg.type === "keyword")) {
    const entries: Array<readonly [Node, Node]> = [];
    for (let i = 0; i < args.length; i += 2) {
      entries.push([analyzer.value(args[i] as Form, place), analyzer.value(args[i + 1] as Form, place)]);
    }
    return { kind: "tool", name, args: { kind: "map", entries, position: form }, position: form };
  }
  throw positionalToolArgs(analyzer, name, args, form);
}

/** The advice names the tool's own parameters when its host tool shows a signature. */
function positionalToolArgs(
  analyzer: FormAnalyzer,
  name: string,
  args: readonly Form[],
  position: Position,
): LispError {
  const sample = args[0] as Form;
  const advice = namedArgumentsAdvice(name, analyzer.toolParameters(name), args.map(describeForm));
  return new LispError(
    "invalid_tool_args",
    `Tool calls require named arguments. Use (tool/${name} {:key value}), not positional args. Got ${sample.type} ${describeForm(sample)} — ${advice}`,
    position,
  );
}

/** An interop call: the builtin `bridge` gets the member or class name, then the arguments. */
function interopCall(
  analyzer: FormAnalyzer,
  bridge: string,
  member: string,
  args: readonly Form[],
  form: CollectionForm,
  place: Place,
): Node {
  return {
    kind: "call",
    callee: { kind: "builtin", name: bridge, position: form },
    args: [
      { kind: "const", value: member, position: form },
      ...args.map((arg) => analyzer.value(arg, place)),
    ],
    position: form,
  };
}

/** `(.method obj args...)`. */
export function analyzeMethodCall(
  analyzer: FormAnalyzer,
  name: string,
  args: readonly Form[],
  form: CollectionForm,
  place: Place,
): Node {
  return interopCall(analyzer, "invoke-method", name, args, form, place);
}

/** `(Class. args...)`. */
export function analyzeConstructor(
  analyzer: FormAnalyzer,
  name: string,
  args: readonly Form[],
  form: CollectionForm,
  place: Place,
): Node {
  return interopCall(analyzer, "invoke-constructor", name.slice(0, -1), args, form, place);
}
