/**
 * The turn record of a judged program (`step.turns[n].result` and `success`), the same for every
 * transport: the host reads one shape per verdict whatever carried the program.
 */
import type { TurnRecord } from "./drive-turns.js";
import type { ProgramVerdict } from "./judge-program.js";

/** What every record of a program has, whatever its verdict. */
export interface ProgramRecordBase {
  readonly rawResponse: string;
  readonly program: string;
  readonly prints: readonly string[];
  readonly toolCalls: TurnRecord["toolCalls"];
}

export function verdictRecord(base: ProgramRecordBase, verdict: ProgramVerdict): TurnRecord {
  switch (verdict.kind) {
    case "error":
      return {
        ...base,
        result: { error: { reason: verdict.reason, message: verdict.message } },
        success: false,
      };
    case "invalid_return":
      return {
        ...base,
        result: {
          reason: "return_validation_failed",
          message: verdict.message,
          actualValue: verdict.value,
          errors: verdict.errors,
        },
        success: false,
      };
    case "answer":
    case "continue":
      return { ...base, result: verdict.value, success: true };
    case "fail":
    case "must_return_missing":
    case "memory_limit":
      return { ...base, result: verdict.value, success: false };
  }
}
