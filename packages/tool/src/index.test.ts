import { describe, expect, it } from "vitest";
import * as tool from "./index.js";

describe("@ptc/tool public API", () => {
  it("exports exactly the documented values", () => {
    expect(Object.keys(tool).sort()).toEqual([
      "ToolError",
      "canonicalCacheKey",
      "canonicalizeArgs",
      "coerceValue",
      "createTool",
      "createTools",
      "defaultExpose",
      "effectiveExpose",
      "filterByExpose",
      "findFieldKey",
      "formatValidationErrors",
      "fromJsonSchema",
      "isTool",
      "isToolError",
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
