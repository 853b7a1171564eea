/**
 * `@ptc/agent/ai-sdk`: run the agent on any AI SDK language model (specification V3).
 *
 * ```ts
 * import { openai } from "@ai-sdk/openai";
 * import { fromLanguageModel } from "@ptc/agent/ai-sdk";
 *
 * const model = fromLanguageModel(openai("gpt-4.1-mini"), { temperature: 0 });
 * ```
 *
 * Needs the optional peer `@ai-sdk/provider` for its types; the root entry never imports this.
 */
export { fromLanguageModel } from "./from-language-model.js";
export type { FromLanguageModelOptions } from "./to-call-options.js";
