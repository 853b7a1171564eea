/**
 * The turn a run paused in, internally: what the paused attempt left (the program's ledger, the
 * native calls already answered, the calls that really ran) and which calls wait, then, after
 * `resume`, the same with each waiting call's decision. A resumed turn handles the same model
 * response again, so nothing the attempt did is done twice and nothing it did is lost.
 */
import type { LedgerEntry } from "@ptc/lisp";
import type { Message } from "../model/model-types.js";
import type { NormalizedResponse } from "../model/normalize-response.js";
import type { ExposureLayer, ToolCallRecord, TurnType } from "../step/step-types.js";

/** A call that needs a decision, as the layer that held it knows it. */
export interface HeldCall {
  readonly toolName: string;
  /** The checked arguments: what the tool receives once approved. */
  readonly args: Readonly<Record<string, unknown>>;
  readonly layer: ExposureLayer;
  /** Native: the call's index in the model's response. */
  readonly index?: number;
  /** Program: the call's position, and its arguments as the program sent them (the ledger's form). */
  readonly position?: string;
  readonly programArgs?: Readonly<Record<string, unknown>>;
}

/** A held call with the id a person decides it by. */
export interface WaitingCall extends HeldCall {
  readonly id: string;
}

/** A native call of the paused turn that was answered already: its tool message and records. */
export interface AnsweredCall {
  readonly content: string;
  readonly records: readonly ToolCallRecord[];
}

/** What a turn's handler reports when it cannot go on without decisions. */
export type TurnPause =
  | {
      readonly layer: "native";
      /** Per call of the response, in order: its answer, or null while it waits. */
      readonly answered: readonly (AnsweredCall | null)[];
      readonly held: readonly HeldCall[];
    }
  | {
      readonly layer: "ptc_lisp";
      /** The program's calls so far, with results (a later attempt replays them). */
      readonly ledger: readonly LedgerEntry[];
      /** Every call that really ran in the attempts of this turn, for the step. */
      readonly records: readonly ToolCallRecord[];
      readonly held: readonly HeldCall[];
    };

export type Decision = { readonly approved: true } | { readonly approved: false; readonly message: string };

/** The paused turn after `resume`, for its handler: the attempt's leftovers and the decisions. */
export type ResumedTurn =
  | {
      readonly layer: "native";
      readonly answered: readonly (AnsweredCall | null)[];
      /** By call index. */
      readonly decisions: ReadonlyMap<number, { readonly call: WaitingCall; readonly decision: Decision }>;
    }
  | {
      readonly layer: "ptc_lisp";
      /** The attempt's ledger plus an entry per decision (approved, or its rejection as an error). */
      readonly ledger: readonly LedgerEntry[];
      /** Calls that ran in earlier attempts, and a record of each rejected call. */
      readonly records: readonly ToolCallRecord[];
      /** Approved calls: each one's approval id by its position (records are marked by it). */
      readonly approved: ReadonlyMap<string, string>;
    };

/** What the program and the model read of a rejected call. */
export function rejectionText(message: string): string {
  return `not approved: ${message}`;
}

/** Where a paused turn stood: enough to handle its response again without asking the model. */
export interface TurnAt {
  readonly type: TurnType;
  readonly response: NormalizedResponse;
  readonly streamed: boolean;
  /** The system prompt and messages the turn sent (for its record). */
  readonly system: string;
  readonly messages: readonly Message[];
}
