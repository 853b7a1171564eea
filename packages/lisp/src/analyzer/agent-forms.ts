/**
 * The forms an agent program uses to talk to its host: return and fail end the run, task,
 * step-done and task-reset write the journal, pmap and pcalls run work in parallel. Here they are
 * only checked for arity; their meaning is in the compiler and the host.
 */
import { LispError } from "../errors.js";
import type { CollectionForm, Form } from "../reader/form.js";
import type { Node } from "./ast.js";
import type { FormAnalyzer } from "./form-analyzer.js";
import type { Place } from "./scope.js";

export function analyzeReturnOrFail(
  analyzer: FormAnalyzer,
  name: "return" | "fail",
  args: readonly Form[],
  form: CollectionForm,
  place: Place,
): Node {
  if (args.length !== 1) {
    throw new LispError(
      "invalid_arity",
      name === "return" ? "expected (return value)" : "expected (fail error)",
      form,
    );
  }
  return { kind: name, value: analyzer.value(args[0] as Form, place), position: form };
}

export function analyzeTask(
  analyzer: FormAnalyzer,
  args: readonly Form[],
  form: CollectionForm,
  place: Place,
): Node {
  if (args.length !== 2) throw new LispError("invalid_arity", 'expected (task "id" expr)', form);
  return {
    kind: "task",
    id: analyzer.value(args[0] as Form, place),
    body: analyzer.value(args[1] as Form, place),
    position: form,
  };
}

export function analyzeStepDone(
  analyzer: FormAnalyzer,
  args: readonly Form[],
  form: CollectionForm,
  place: Place,
): Node {
  if (args.length !== 2) throw new LispError("invalid_arity", "expected (step-done id summary)", form);
  return {
    kind: "step-done",
    id: analyzer.value(args[0] as Form, place),
    summary: analyzer.value(args[1] as Form, place),
    position: form,
  };
}

export function analyzeTaskReset(
  analyzer: FormAnalyzer,
  args: readonly Form[],
  form: CollectionForm,
  place: Place,
): Node {
  if (args.length !== 1) throw new LispError("invalid_arity", "expected (task-reset id)", form);
  return { kind: "task-reset", id: analyzer.value(args[0] as Form, place), position: form };
}

export function analyzeParallelMap(
  analyzer: FormAnalyzer,
  args: readonly Form[],
  form: CollectionForm,
  place: Place,
): Node {
  if (args.length !== 2) throw new LispError("invalid_arity", "expected (pmap f coll)", form);
  return {
    kind: "parallel-map",
    fn: analyzer.value(args[0] as Form, place),
    coll: analyzer.value(args[1] as Form, place),
    position: form,
  };
}

export function analyzeParallelCalls(
  analyzer: FormAnalyzer,
  args: readonly Form[],
  form: CollectionForm,
  place: Place,
): Node {
  return {
    kind: "parallel-calls",
    thunks: args.map((arg) => analyzer.value(arg, place)),
    position: form,
  };
}
