import { describe, expect, it } from "vitest";
import * as tool from "./index.js";

describe("@ptc/tool public API", () => {
  it("exports exactly the documented values", () => {
    expect(Object.keys(tool).sort()).toEqual([
      "TOOL_DEFINITION_KEYS",
      "ToolError",
      "canonicalCacheKey",
      "canonicalizeArgs",
      "coerceValue",
      "createTool",
      "createTools",
      "defaultExpose",
      "describeUnknownKeys",
      "effectiveExpose",
      "filterByExpose",
      "findFieldKey",
      "findUnknownKeys",
      "formatValidationErrors",
      "fromJsonSchema",
      "isTool",
      "isToolError",
      "nearestName",
      "normalizeKey",
      "normalizeKeys",
      "orderedTools",
      "parametersJsonSchema",
      "parseFinalAnswer",
      "parseIsoDatetime",
      "parseSignature",
      "renderSignature",
      "renderType",
      "resolveToolName",
      "returnsList",
      "sanitizeToolName",
      "signatureToJsonSchema",
      "toLispKey",
      "toNativeToolSchema",
      "typeToJsonSchema",
      "validateInput",
      "validateReturn",
      "validateToolArgs",
      "validateType",
    ]);
  });
});
