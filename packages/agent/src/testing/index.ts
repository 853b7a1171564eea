/** Test helpers for `@ptc/agent`: a strict scripted model that drives runs offline. */

export { replayTranscript, stepsFromTranscript, TranscriptFormatError } from "./replay-transcript.js";
export {
  createScriptedModel,
  type ScriptedModel,
  type ScriptedModelOptions,
  type ScriptedStep,
  UnconsumedModelStepsError,
  UnexpectedModelCallError,
} from "./scripted-model.js";
