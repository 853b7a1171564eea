/**
 * Turns one successful program run into what the model sees: the `user=> ...` preview, printed
 * output capped at `feedbackMaxChars`, and previews of memory bindings that changed. The
 * structured fields are always filled; the human-readable `feedback` string follows the
 * reference's rules: no result block when the program printed or the agent has a single turn,
 * no memory block for single-turn agents.
 */
import type { ExecutionFeedback } from "./execution-feedback-types.js";
import { formatValue, previewValue } from "./lisp-text.js";
import { MAX_LISTED_VARS, quotedName } from "./quoted-name.js";
import { truncateChars } from "./truncate.js";
import { UNTRUSTED_PREAMBLE, wrapUntrusted } from "./untrusted.js";
import { describeShape } from "./value-shape.js";

export const DEFAULT_PREVIEW_MAX_CHARS = 250;

/** What a successful run produced. A `@ptc/lisp` run result fits, plus the session's memory. */
export interface ProgramStep {
  readonly value: unknown;
  readonly prints?: readonly string[] | undefined;
  /** The program's `def` bindings after the run. */
  readonly memory?: Readonly<Record<string, unknown>> | undefined;
}

export interface ExecutionFeedbackOptions {
  /** The bindings before the run, to tell what changed. Default `{}`. */
  readonly previousMemory?: Readonly<Record<string, unknown>> | undefined;
  /** The agent's `maxTurns`; 1 suppresses the result and memory blocks. Default 5. */
  readonly maxTurns?: number;
  /** Cap on printed output. Default 512. */
  readonly feedbackMaxChars?: number;
  /** Cap on each value preview. Default 250. */
  readonly previewMaxChars?: number;
  /**
   * Bindings previewed by their shape only (`<vector of 1842 maps>`), never their values: the
   * agent names those that hold data of a tool whose preview policy shows the model no values.
   */
  readonly shapeOnly?: ReadonlySet<string>;
}

export function buildExecutionFeedback(
  step: ProgramStep,
  options: ExecutionFeedbackOptions = {},
): ExecutionFeedback {
  const maxTurns = options.maxTurns ?? 5;
  const feedbackMaxChars = options.feedbackMaxChars ?? 512;
  const previewMaxChars = options.previewMaxChars ?? DEFAULT_PREVIEW_MAX_CHARS;
  const prints = step.prints ?? [];

  let printsText: string | undefined;
  let printsTruncated = false;
  if (prints.length > 0) {
    const cut = truncateChars(prints.join("\n"), feedbackMaxChars);
    printsTruncated = cut.truncated;
    printsText = cut.truncated
      ? `${cut.text}\n... (truncated at ${feedbackMaxChars} chars; print specific fields instead)`
      : cut.text;
  }

  let result: string | null = null;
  let resultTruncated = false;
  if (step.value !== null && step.value !== undefined && !isVarReference(step.value)) {
    const shown = previewValue(step.value, previewMaxChars);
    result = `user=> ${shown.text}`;
    resultTruncated = shown.truncated;
  }

  const memory = memorySection(
    step.memory,
    options.previousMemory ?? {},
    previewMaxChars,
    options.shapeOnly ?? new Set(),
  );
  const multiTurn = maxTurns > 1;
  const parts = [
    printsText === undefined && multiTurn ? wrapUntrusted(result, "result") : undefined,
    wrapUntrusted(printsText, "println"),
    multiTurn ? wrapUntrusted(memory.hint, "memory") : undefined,
  ].filter((part): part is string => part !== undefined);

  const visibleTruncated = printsTruncated || resultTruncated;
  return {
    feedback: parts.length === 0 ? "" : `${UNTRUSTED_PREAMBLE}\n\n${parts.join("\n\n")}`,
    prints: [...prints],
    result,
    memory: { changed: memory.changed, storedKeys: memory.storedKeys, truncated: memory.truncated },
    visibleTruncated,
    truncated: visibleTruncated || memory.truncated,
  };
}

function memorySection(
  memory: Readonly<Record<string, unknown>> | undefined,
  previous: Readonly<Record<string, unknown>>,
  previewMaxChars: number,
  shapeOnly: ReadonlySet<string>,
): { hint: string | undefined; changed: Record<string, string>; storedKeys: string[]; truncated: boolean } {
  const storedKeys = memory === undefined ? [] : Object.keys(memory).sort(compareCodeUnits);
  if (memory === undefined || storedKeys.length === 0)
    return { hint: undefined, changed: {}, storedKeys, truncated: false };

  const changedNames = storedKeys.filter((name) => !sameValue(previous[name], memory[name]));
  if (changedNames.length === 0)
    return {
      hint: `Stored: ${listedNames(storedKeys)}`,
      changed: {},
      storedKeys,
      truncated: storedKeys.length > MAX_LISTED_VARS,
    };

  const changed: Record<string, string> = {};
  let truncated = changedNames.length > MAX_LISTED_VARS;
  let shaped = false;
  const lines = changedNames.slice(0, MAX_LISTED_VARS).map((name) => {
    const hidden = shapeOnly.has(name);
    shaped ||= hidden;
    const shown = hidden
      ? { text: describeShape(memory[name]), truncated: false }
      : previewValue(memory[name], previewMaxChars);
    truncated ||= shown.truncated;
    Object.defineProperty(changed, name, {
      value: shown.text,
      enumerable: true,
      writable: true,
      configurable: true,
    });
    return `;; ${quotedName(name)} = ${shown.text}`;
  });
  const note = truncated
    ? `\n;; (truncated at ${previewMaxChars} chars; use println on specific fields)`
    : "";
  const shapeNote = shaped ? `\n${SHAPE_NOTE}` : "";
  const more = changedNames.length - MAX_LISTED_VARS;
  if (more > 0) lines.push(`;; ... (${more} more changed)`);
  return { hint: lines.join("\n") + note + shapeNote, changed, storedKeys, truncated };
}

/** `a, b, c`, or the first MAX_LISTED_VARS names and how many more there are. */
function listedNames(names: readonly string[]): string {
  const listed = names.slice(0, MAX_LISTED_VARS).map(quotedName).join(", ");
  const more = names.length - MAX_LISTED_VARS;
  return more > 0 ? `${listed}, ... (${more} more)` : listed;
}

/** Why some previews show no values, and how to see them. */
export const SHAPE_NOTE =
  ";; (<...> previews hold tool data shown by shape only; println or return the fields you need)";

// A missing binding and one bound to nil look the same, as in the reference: a new `(def x nil)`
// is not reported as a change. Values compare by their Clojure text, which is canonical (sorted
// map keys, one spelling per number), after a cheap identity check.
function sameValue(before: unknown, after: unknown): boolean {
  const a = before ?? null;
  const b = after ?? null;
  if (Object.is(a, b)) return true;
  if (a === null || b === null) return false;
  return formatValue(a) === formatValue(b);
}

// `(def x 1)` evaluates to a var reference (`#'x`), which is not a result worth showing. PTC-Lisp's
// own value classes report their type name; plain objects are data and never vars.
function isVarReference(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return false;
  const prototype = Object.getPrototypeOf(value);
  if (prototype === Object.prototype || prototype === null) return false;
  return (value as { typeName?: unknown }).typeName === "var";
}

function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
