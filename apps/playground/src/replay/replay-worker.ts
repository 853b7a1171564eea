/**
 * Replays the demo's combined-mode conversation (apps/demo) in a Web Worker: the scripted model's
 * moves over the real tools, sandbox and cache, 48,000 generated log lines, and the token bill
 * counted with the same tokenizer. The page gets plain data (replay-protocol.ts).
 */
import { type Message, type ModelResponse, run } from "@ptc/agent";
import { createScriptedModel } from "@ptc/agent/testing";
import {
  countTokens,
  createRecordingModel,
  createTriageAgent,
  DEMO_QUESTION,
  demoLogs,
  type RecordedRequest,
  summarizeTokens,
  triageSteps,
} from "@ptc/demo/replay";
import { codeGenerationStatus, setCodeGeneration } from "@ptc/lisp";
import type { ReplayReply, ReplayRequest, ReplayTurn, ShownCall, ShownMessage } from "./replay-protocol.js";

const scope = globalThis as unknown as {
  postMessage(message: ReplayReply): void;
  addEventListener(
    type: string,
    listener: (event: MessageEvent & SecurityPolicyViolationEvent) => void,
  ): void;
};

function shown(message: Message, callNames: ReadonlyMap<string, string>): ShownMessage {
  const label =
    message.role === "tool"
      ? `${callNames.get(message.toolCallId ?? "") ?? "tool"} result`
      : message.role === "assistant"
        ? "the model's earlier reply"
        : message.role;
  return {
    role: message.role,
    label,
    content: readable(message.content),
    tokens: countTokens(message.content),
  };
}

/** JSON text indented for reading (the token counts are of the text as sent); other text as it is. */
function readable(content: string): string {
  if (!/^\s*[[{]/.test(content)) return content;
  try {
    return JSON.stringify(JSON.parse(content), null, 2);
  } catch {
    return content;
  }
}

function replyOf(response: ModelResponse | undefined, error: string | undefined): ReplayTurn["reply"] {
  if (response === undefined) return { text: error ?? "", calls: [] };
  // A string is the response's text content.
  if (typeof response === "string") return { text: response, calls: [] };
  return { text: response.content ?? "", calls: callsOf(response.toolCalls) };
}

function callsOf(toolCalls: readonly { name: string; args: unknown }[] | undefined): ShownCall[] {
  return (toolCalls ?? []).map((call) => {
    const args = call.args as { program?: unknown } | string;
    if (call.name === "lisp_eval" && typeof args === "object" && typeof args.program === "string")
      return { name: call.name, text: args.program, isProgram: true };
    return {
      name: call.name,
      text: typeof args === "string" ? args : JSON.stringify(args, null, 2),
      isProgram: false,
    };
  });
}

async function replay(request: ReplayRequest): Promise<ReplayReply> {
  setCodeGeneration(request.codeGeneration);
  const store = demoLogs();
  const scripted = createScriptedModel(triageSteps());
  const recording = createRecordingModel(scripted.llm);
  const result = await run(createTriageAgent(store, DEMO_QUESTION), {
    llm: recording.llm,
    collectMessages: true,
  });
  const summary = summarizeTokens(recording.exchanges, result.step);
  const callNames = new Map<string, string>();
  let seenCount = 0;
  const turns: ReplayTurn[] = recording.exchanges.map((exchange, index) => {
    const request: RecordedRequest = exchange.request;
    for (const message of request.messages)
      for (const call of message.toolCalls ?? []) callNames.set(call.id, call.name);
    const fresh = request.messages.slice(seenCount).filter((message) => message.role !== "assistant");
    seenCount = request.messages.length;
    const seen: ShownMessage[] = [];
    if (index === 0) {
      seen.push({
        role: "system",
        label: "system prompt",
        content: request.system,
        tokens: countTokens(request.system),
      });
      if (request.tools !== undefined && request.tools.length > 0) {
        const schemas = JSON.stringify(request.tools, null, 2);
        seen.push({
          role: "tools",
          label: `tool schemas (${request.tools.map((tool) => tool.function.name).join(", ")})`,
          content: schemas,
          tokens: countTokens(JSON.stringify(request.tools)),
        });
      }
    }
    seen.push(...fresh.map((message) => shown(message, callNames)));
    const tokens = summary.requests[index];
    return {
      turn: request.turn ?? index + 1,
      seen,
      tokensRead: tokens?.read ?? 0,
      tokensInlined: tokens?.inlined ?? 0,
      reply: replyOf(exchange.response, exchange.error),
    };
  });
  if (!result.ok)
    return { type: "failed", message: `the replay failed: ${JSON.stringify(result.step.fail)}` };
  return {
    type: "replayed",
    result: {
      question: DEMO_QUESTION,
      answer: String(result.step.return ?? ""),
      turns,
      tokensRead: summary.tokensRead,
      tokensInlined: summary.tokensInlined,
      percentSaved: summary.percentSaved,
      cacheHits: summary.cacheHits,
      nativeCalls: summary.nativeCalls,
      programCalls: summary.programCalls,
      logLines: store.lines.length,
      codeGeneration: codeGenerationStatus(),
    },
  };
}

scope.addEventListener("message", (event) => {
  const request = event.data as ReplayRequest;
  if (request?.type !== "replay") return;
  replay(request).then(
    (reply) => scope.postMessage(reply),
    (error: unknown) =>
      scope.postMessage({ type: "failed", message: error instanceof Error ? error.message : String(error) }),
  );
});

scope.addEventListener("securitypolicyviolation", (event) => {
  scope.postMessage({
    type: "csp-violation",
    directive: event.effectiveDirective,
    blockedURI: event.blockedURI,
  });
});
