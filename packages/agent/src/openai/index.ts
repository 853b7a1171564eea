/**
 * `@ptc/agent/openai`: a model adapter for OpenAI Chat Completions and compatible servers, built
 * on the platform `fetch`. It imports no SDK, so the subpath adds no dependency.
 */
export { createOpenAIModel } from "./create-openai-model.js";
export type { OpenAIFetch, OpenAIModelOptions } from "./openai-model-options.js";
