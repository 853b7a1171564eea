/**
 * A strict scripted model for tests and demos: it answers with the given steps in order and
 * records every request it receives. A call beyond the script throws, and `assertConsumed` fails
 * a test that did not use every step, so a test proves exactly the conversation it describes.
 */
import type { ModelFunction, ModelRequest, ModelResponse } from "@ptc/agent";

/** A response, an Error to throw, or a function that computes the response from the request. */
export type ScriptedStep =
  | ModelResponse
  | Error
  | ((request: ModelRequest) => ModelResponse | Promise<ModelResponse>);

export interface ScriptedModelOptions {
  /**
   * When a request asks for streaming, deliver text content in chunks of this many characters
   * through `request.stream` before returning. Default: stream in one piece.
   */
  readonly streamChunkSize?: number;
}

export interface ScriptedModel {
  /** The model function to pass as `llm`. */
  readonly llm: ModelFunction;
  /** Every request received so far, as frozen snapshots (messages deep-copied). */
  readonly calls: readonly ModelRequest[];
  /** Steps not used yet. */
  readonly remaining: number;
  /** Throws `UnconsumedModelStepsError` if any step was not used. */
  assertConsumed(): void;
}

export class UnexpectedModelCallError extends Error {
  override readonly name = "UnexpectedModelCallError";
  constructor(
    readonly callNumber: number,
    readonly request: ModelRequest,
  ) {
    super(
      `the scripted model received call ${callNumber} but its script has only ${callNumber - 1} step(s); last message: ${JSON.stringify(request.messages.at(-1)?.content ?? "").slice(0, 200)}`,
    );
  }
}

export class UnconsumedModelStepsError extends Error {
  override readonly name = "UnconsumedModelStepsError";
  constructor(
    readonly used: number,
    readonly total: number,
  ) {
    super(`the scripted model used ${used} of its ${total} step(s); ${total - used} left unconsumed`);
  }
}

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

function snapshot(request: ModelRequest): ModelRequest {
  const { signal, stream, ...data } = request;
  const copy = deepFreeze(structuredClone(data)) as ModelRequest;
  return Object.freeze({
    ...copy,
    ...(signal === undefined ? {} : { signal }),
    ...(stream === undefined ? {} : { stream }),
  });
}

export function createScriptedModel(
  steps: readonly ScriptedStep[],
  options: ScriptedModelOptions = {},
): ScriptedModel {
  const script = [...steps];
  const calls: ModelRequest[] = [];
  let next = 0;
  const llm: ModelFunction = async (request) => {
    calls.push(snapshot(request));
    if (next >= script.length) throw new UnexpectedModelCallError(calls.length, request);
    const step = script[next++] as ScriptedStep;
    if (step instanceof Error) throw step;
    const response = typeof step === "function" ? await step(request) : step;
    streamContent(request, response, options.streamChunkSize);
    return response;
  };
  return {
    llm,
    calls,
    get remaining() {
      return script.length - next;
    },
    assertConsumed() {
      if (next < script.length) throw new UnconsumedModelStepsError(next, script.length);
    },
  };
}

function streamContent(request: ModelRequest, response: ModelResponse, chunkSize: number | undefined): void {
  if (request.stream === undefined || chunkSize === undefined) return;
  const content = typeof response === "string" ? response : response.content;
  if (typeof content !== "string" || content === "") return;
  for (let i = 0; i < content.length; i += chunkSize) request.stream(content.slice(i, i + chunkSize));
}
