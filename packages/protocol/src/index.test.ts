import { describe, expect, it } from "vitest";
import * as protocol from "./index.js";

describe("@ptc/protocol public API", () => {
  it("exports exactly the documented values", () => {
    expect(Object.keys(protocol).sort()).toEqual([
      "COMPACT_REFERENCE_CARD",
      "DEFAULT_FEEDBACK_MAX_CHARS",
      "DEFAULT_PREVIEW_MAX_CHARS",
      "ERROR_REASONS",
      "LISP_EVAL_TOOL_NAME",
      "MIXED_WITH_LISP_EVAL_MESSAGE",
      "MULTIPLE_TOOL_CALLS_MESSAGE",
      "ProtocolError",
      "REFERENCE_CARD_MAX_BYTES",
      "UNTRUSTED_PREAMBLE",
      "buildErrorFeedback",
      "buildExecutionFeedback",
      "classifyErrorReason",
      "combinedModeReferenceCard",
      "isProtocolError",
      "renderError",
      "renderProtocolError",
      "renderPtcToolsSection",
      "renderSuccess",
      "renderSuccessFromStep",
      "renderToolNamespace",
      "requestTools",
      "toolDescription",
      "toolSchema",
      "unknownNativeToolMessage",
      "unwrapUntrusted",
      "validateProgram",
      "wellFormedText",
      "wellFormedValue",
      "wrapUntrusted",
      "wrapUntrustedWithPreamble",
    ]);
  });
});
