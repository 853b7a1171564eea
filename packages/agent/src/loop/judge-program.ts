/**
 * The one judge of a program's outcome, whatever carried the program (a fenced block, `lisp_eval`
 * in the PTC-Lisp loop or in combined mode, the single-shot path). It only decides; what the loop
 * keeps of a verdict is keep-verdict.ts, and how the model is told is each transport's reply.
 *
 * The order is the same for every transport: an error, then `(fail v)`, then `(return v)` against
 * the signature, then the single-turn rule, then explicit completion on a final turn, then the
 * memory limit; a program that passes all of them continues the loop. Transports differ only in
 * which of these rules apply (`rulesOf`), so a difference between them is visible in one place.
 */
import { type ErrorReason, format, type RunResult } from "@ptc/lisp";
import type { ValidationIssue } from "@ptc/tool";
import type { TurnType } from "../step/step-types.js";
import { toHostValue } from "./host-value.js";
import { checkReturn, memoryOverLimit } from "./program-checks.js";
import type { Run } from "./run-types.js";

/** What carried the program, as far as judging it goes. */
export type ProgramTransport = "content" | "tool_call" | "combined" | "single_shot";

export interface JudgeRules {
  /**
   * `(return v)` ends the run when `v` fits the signature. Not in combined mode (a return is a
   * tool result like any value) nor on the single-shot path (its one value is the answer as is).
   */
  readonly returnEnds: boolean;
  /** A one-turn agent's value is the answer without `(return v)`. */
  readonly singleTurn: boolean;
  /** This is the final turn of an explicit-completion agent: it must return or fail. */
  readonly mustComplete: boolean;
  /** The memory a program leaves is held to `memoryLimit` (the single-shot path keeps none). */
  readonly memoryLimit: boolean;
}

export function rulesOf(run: Run, transport: ProgramTransport, type: TurnType): JudgeRules {
  const { agent } = run;
  const oneTurn = agent.maxTurns === 1 && agent.retryTurns === 0;
  switch (transport) {
    case "content":
      return {
        returnEnds: true,
        singleTurn: oneTurn && agent.completionMode === "implicit",
        mustComplete: agent.completionMode === "explicit" && type !== "normal",
        memoryLimit: true,
      };
    case "tool_call":
      // The tool-call transport answers a one-turn agent's value whatever its completion mode.
      return { returnEnds: true, singleTurn: oneTurn, mustComplete: false, memoryLimit: true };
    case "combined":
      return { returnEnds: false, singleTurn: false, mustComplete: false, memoryLimit: true };
    case "single_shot":
      return { returnEnds: false, singleTurn: true, mustComplete: false, memoryLimit: false };
  }
}

export type ProgramVerdict =
  /** The program failed (not by `(fail v)`): fed back, the loop goes on. */
  | {
      readonly kind: "error";
      readonly reason: ErrorReason;
      readonly message: string;
      readonly line: number | undefined;
    }
  /** `(fail v)`: `v` as a value (`failValue`), as host data and as the text the model and the step read. */
  | {
      readonly kind: "fail";
      readonly failValue: unknown;
      readonly value: unknown;
      readonly text: string;
    }
  /**
   * The run's answer: a `(return v)` that fits the signature, or a one-turn agent's value. `value`
   * is host data; `programValue` the value as the program made it, for the feedback that shows it.
   */
  | {
      readonly kind: "answer";
      readonly value: unknown;
      readonly programValue: unknown;
      readonly returned: boolean;
    }
  /** A `(return v)` whose value does not fit the signature. */
  | {
      readonly kind: "invalid_return";
      readonly value: unknown;
      readonly message: string;
      readonly errors: readonly ValidationIssue[];
    }
  /** The final turn of an explicit-completion agent ended without `(return v)` or `(fail v)`. */
  | { readonly kind: "must_return_missing"; readonly value: unknown }
  /** The memory the program left is over `memoryLimit`: the run ends, or the turn is rolled back. */
  | {
      readonly kind: "memory_limit";
      readonly value: unknown;
      readonly size: number;
      readonly limit: number;
      readonly strategy: "strict" | "rollback";
    }
  /** A value to feed back: the loop goes on with what the program kept. */
  | { readonly kind: "continue"; readonly value: unknown; readonly programValue: unknown };

/** Judges a program's `result` and the `memory` it left, by the rules of its transport. */
export function judgeProgram(
  run: Run,
  result: RunResult,
  memory: Readonly<Record<string, unknown>>,
  rules: JudgeRules,
): ProgramVerdict {
  const { agent } = run;
  if (!result.ok && result.error.reason !== "fail") {
    return {
      kind: "error",
      reason: result.error.reason,
      message: result.error.message,
      line: result.error.line,
    };
  }
  if (!result.ok) {
    // Before the single-turn rule: a one-turn agent's `(fail v)` is never its answer.
    const failValue = result.error.value;
    return {
      kind: "fail",
      failValue,
      value: toHostValue(failValue, agent.floatPrecision),
      text: format(failValue),
    };
  }
  const value = toHostValue(result.value, agent.floatPrecision);
  if (result.returned && rules.returnEnds) {
    const validation = checkReturn(run, value);
    return validation.ok
      ? { kind: "answer", value, programValue: result.value, returned: true }
      : { kind: "invalid_return", value, message: validation.message, errors: validation.errors };
  }
  if (rules.singleTurn) return { kind: "answer", value, programValue: result.value, returned: false };
  if (rules.mustComplete) return { kind: "must_return_missing", value };
  const over = rules.memoryLimit ? memoryOverLimit(run, memory) : undefined;
  if (over !== undefined) {
    return {
      kind: "memory_limit",
      value,
      ...over,
      strategy: agent.memoryStrategy === "strict" ? "strict" : "rollback",
    };
  }
  return { kind: "continue", value, programValue: result.value };
}
