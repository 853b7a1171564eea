/**
 * Test helpers for `@ptc/agent`: a strict scripted model that drives runs offline, and the
 * builders and readers of the conversations it has.
 */
export {
  fencedProgram,
  lispEvalCall,
  type NativeCall,
  programValueOf,
  readProgramValue,
  toolCalls,
  toolMessageOf,
  toolResultOf,
} from "./conversation.js";
export { replayTranscript, stepsFromTranscript, TranscriptFormatError } from "./replay-transcript.js";
export {
  createScriptedModel,
  type ScriptedModel,
  type ScriptedModelOptions,
  type ScriptedStep,
  UnconsumedModelStepsError,
  UnexpectedModelCallError,
} from "./scripted-model.js";
