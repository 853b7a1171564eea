/**
 * The records of a run transcript, one JSON object per line: every model request and response,
 * every event (with arguments and results), and the final step. Nothing secret is written: model
 * adapters keep their keys to themselves, and strings that look like API keys are redacted anyway.
 */
import type { AgentEvent } from "../events/event-types.js";
import type { ModelRequest } from "../model/model-types.js";

export type TranscriptRecord =
  | {
      readonly type: "run";
      readonly agentName: string | undefined;
      readonly agentId: string;
      readonly timestamp: number;
    }
  | {
      readonly type: "request";
      readonly agentId: string;
      readonly request: Omit<ModelRequest, "signal" | "stream"> & { readonly stream?: boolean };
    }
  | { readonly type: "response"; readonly agentId: string; readonly response: unknown }
  | { readonly type: "model-error"; readonly agentId: string; readonly message: string }
  | { readonly type: "event"; readonly event: AgentEvent }
  | { readonly type: "step"; readonly agentId: string; readonly ok: boolean; readonly step: unknown };

/** Receives each record of a run (and of the agents it calls) as it happens. */
export type TranscriptWriter = (record: TranscriptRecord) => void;

/**
 * What the run option `transcript` takes: a writer, or an object with one as `write` (what
 * `createJsonlTranscript()` returns, passed as it is).
 */
export type TranscriptOption = TranscriptWriter | { readonly write: TranscriptWriter };

/** The writer of a `transcript` option. */
export function transcriptWriterOf(option: TranscriptOption | undefined): TranscriptWriter | undefined {
  if (option === undefined || typeof option === "function") return option;
  return (record) => option.write(record);
}
