/**
 * Where a call goes and with which key: explicit options first, then `OPENAI_BASE_URL` and
 * `OPENAI_API_KEY`. Resolved at call time, not at creation, so a model created before the
 * environment is loaded (dotenv, secrets managers) still finds its key.
 */
import { ModelCallError } from "@ptc/agent";
import type { OpenAIModelOptions } from "./openai-model-options.js";

export const DEFAULT_BASE_URL = "https://api.openai.com/v1";

export interface Endpoint {
  /** `${baseURL}/chat/completions`. */
  readonly url: string;
  readonly apiKey: string | undefined;
  /** True for OpenAI's own host, which requires a key and has its own token limit field. */
  readonly isOpenAI: boolean;
}

export function resolveEndpoint(options: OpenAIModelOptions): Endpoint {
  const baseURL = nonEmpty(options.baseURL) ?? nonEmpty(readEnv("OPENAI_BASE_URL")) ?? DEFAULT_BASE_URL;
  const apiKey = nonEmpty(options.apiKey) ?? nonEmpty(readEnv("OPENAI_API_KEY"));
  const isOpenAI = hostnameOf(baseURL) === "api.openai.com";
  if (apiKey === undefined && isOpenAI) {
    throw new ModelCallError(
      "client_error",
      "No OpenAI API key: pass `apiKey` to createOpenAIModel or set OPENAI_API_KEY. " +
        "Servers that need no key (Ollama, vLLM, LM Studio) work once you pass their `baseURL`.",
    );
  }
  return { url: `${baseURL.replace(/\/+$/, "")}/chat/completions`, apiKey, isOpenAI };
}

function readEnv(name: string): string | undefined {
  // Browsers, workers and edge runtimes have no `process`: read it through globalThis, so the
  // built entry names no Node global (scripts/check-edge-safe.mjs).
  const host = globalThis as { process?: { env?: Readonly<Record<string, string | undefined>> } };
  return host.process?.env?.[name];
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === "" ? undefined : value.trim();
}

function hostnameOf(baseURL: string): string | undefined {
  try {
    return new URL(baseURL).hostname;
  } catch {
    throw new ModelCallError(
      "client_error",
      `Invalid OpenAI baseURL "${baseURL}": expected an absolute URL such as ${DEFAULT_BASE_URL}.`,
    );
  }
}
