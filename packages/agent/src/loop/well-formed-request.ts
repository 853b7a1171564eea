/**
 * What a model is sent is well-formed Unicode. Used by every model call (call-model.ts) and by
 * `previewPrompt`, which promises to show exactly what the first request sends.
 */
import { wellFormedText, wellFormedValue } from "@ptc/protocol";
import type { ModelRequest } from "../model/model-types.js";

/**
 * The request with every text in it well-formed (`wellFormedValue` of @ptc/protocol): a lone surrogate anywhere
 * in the conversation would make a strict provider refuse every later request of the run.
 */
export function wellFormedRequest<R extends Omit<ModelRequest, "signal" | "stream" | "cache">>(
  request: R,
): R {
  const system = wellFormedText(request.system);
  const messages = wellFormedValue(request.messages);
  const tools = request.tools === undefined ? undefined : wellFormedValue(request.tools);
  if (system === request.system && messages === request.messages && tools === request.tools) return request;
  return { ...request, system, messages, ...(tools === undefined ? {} : { tools }) };
}
