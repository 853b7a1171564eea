/**
 * Replays a recorded run: the model responses of a JSON Lines transcript (see the run option
 * `transcript`) become the steps of a scripted model, in the order they were received, failed
 * calls included. A real conversation with a live model thus becomes a deterministic test.
 */
import type { ModelResponse } from "@ptc/agent";
import {
  createScriptedModel,
  type ScriptedModel,
  type ScriptedModelOptions,
  type ScriptedStep,
} from "./scripted-model.js";

export class TranscriptFormatError extends Error {
  override readonly name = "TranscriptFormatError";
}

/** The scripted steps of a transcript: its responses, and an Error for each failed model call. */
export function stepsFromTranscript(jsonl: string): ScriptedStep[] {
  if (typeof jsonl !== "string") throw new TranscriptFormatError("a transcript is JSON Lines text");
  const steps: ScriptedStep[] = [];
  jsonl.split("\n").forEach((line, index) => {
    if (line.trim() === "") return;
    let record: { type?: unknown; response?: unknown; message?: unknown };
    try {
      record = JSON.parse(line);
    } catch {
      throw new TranscriptFormatError(`transcript line ${index + 1} is not JSON: ${line.slice(0, 80)}`);
    }
    if (record.type === "response") steps.push(record.response as ModelResponse);
    else if (record.type === "model-error") steps.push(new Error(String(record.message)));
  });
  return steps;
}

/** A scripted model answering as the recorded run's model did. */
export function replayTranscript(jsonl: string, options: ScriptedModelOptions = {}): ScriptedModel {
  return createScriptedModel(stepsFromTranscript(jsonl), options);
}
