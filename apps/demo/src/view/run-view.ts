/**
 * The live view of a run: each turn as it happens, from the model's requests and responses and
 * the run's events. Per turn it shows what the model did (native calls, the text of its programs),
 * what the tools did (ran, or answered from the cache, and how long it took), and what came back
 * to the model (the preview, the program's value), with its size in tokens.
 *
 * A tool message only exists once the loop appends it, so what came back from turn N is printed
 * when the request of turn N+1 arrives (or when the run ends), just before that turn's header.
 * Feedback the loop adds as a user message (a retry request, an error) is shown too.
 */
import { type AgentEvent, type Message, type ModelResponse, type Step, unwrapUntrusted } from "@ptc/agent";
import type { ModelListener, RecordedRequest } from "../run/recording-model.js";
import { countTokens } from "../tokens/count-tokens.js";
import { type Colors, clip, formatMs, formatNumber, type Output } from "./terminal.js";

const WIDTH = 104;
const LABEL = 7;
const TIME = 9;

export interface RunView extends ModelListener {
  onEvent(event: AgentEvent): void;
  /** Prints what came back in the last turn, if the run ended right after tool calls. */
  finish(step: Step): void;
}

export interface RunViewOptions {
  readonly output: Output;
  readonly colors: Colors;
  /** Tools whose native results are previewed and cached (combined mode, `both` + `cache`). */
  readonly bridged: ReadonlySet<string>;
}

interface ResponseCall {
  readonly id?: string | undefined;
  readonly name: string;
  readonly args: unknown;
}

export function createRunView({ output, colors: c, bridged }: RunViewOptions): RunView {
  const callNames = new Map<string, string>();
  // The loop keeps its message objects; a copy of the conversation (step.messages) is matched by call id.
  const seen = new WeakSet<Message>();
  // A resumed run rebuilds its conversation from the paused state: the same user messages as new
  // objects, which must not be shown again as feedback.
  const shownUserTexts = new Set<string>();
  const printedResults = new Set<string>();
  let seenCount = 0;
  let lastTurn: number | undefined;
  let response: ModelResponse | undefined;
  let footer: string | undefined;

  const write = (text: string) => output.write(`${text}\n`);
  const row = (
    label: string,
    time: string,
    text: string,
    paint: (text: string) => string = (text) => text,
  ) => {
    const lines = text.split("\n");
    write(`  ${paint(label.padEnd(LABEL))}${c.dim(time.padStart(TIME - 2).padEnd(TIME))}${lines[0] ?? ""}`);
    for (const more of lines.slice(1)) write(`${" ".repeat(2 + LABEL + TIME)}${more}`);
  };

  const flushMessages = (messages: readonly Message[], final = false) => {
    for (const message of messages) {
      for (const call of message.toolCalls ?? []) callNames.set(call.id, call.name);
      if (seen.has(message)) continue;
      seen.add(message);
      seenCount += 1;
      if (message.role === "tool") {
        const id = message.toolCallId ?? "";
        if (printedResults.has(id)) continue;
        printedResults.add(id);
        printToolMessage(message);
      } else if (message.role === "user" && !shownUserTexts.has(message.content)) {
        shownUserTexts.add(message.content);
        if (!final && seenCount > 1) row("loop", "", c.yellow(clip(message.content, WIDTH)));
      }
    }
    if (footer !== undefined) {
      write(c.dim(footer));
      footer = undefined;
    }
  };

  const printToolMessage = (message: Message) => {
    const name = callNames.get(message.toolCallId ?? "") ?? "tool";
    const tokens = `${formatNumber(countTokens(message.content))} tokens`;
    let parsed: unknown;
    try {
      parsed = JSON.parse(message.content);
    } catch {
      parsed = message.content;
    }
    if (name === "lisp_eval") {
      const payload = parsed as {
        status?: string;
        result?: string;
        prints?: string[];
        reason?: string;
        message?: string;
      };
      if (payload.status === "ok") {
        // The program's texts arrive framed as untrusted data; the view shows what is inside.
        const value = unwrapUntrusted(payload.result ?? "nil").replace(/^user=>\s*/, "");
        const prints = (payload.prints ?? [])
          .flatMap((text) => unwrapUntrusted(text).split("\n"))
          .map((line) => `\n${c.dim("println")} ${clip(line, WIDTH - 8)}`);
        row(
          "back",
          "",
          `${c.bold("lisp_eval")} → the program's value ${c.dim(`(${tokens})`)}\n${c.green(value)}${prints.join("")}`,
        );
      } else {
        row(
          "back",
          "",
          `${c.bold("lisp_eval")} → ${c.red(`${payload.reason ?? "error"}: ${clip(payload.message === undefined ? message.content : unwrapUntrusted(payload.message), WIDTH)}`)} ${c.dim(`(${tokens})`)}`,
        );
      }
      return;
    }
    const preview = isPreview(parsed);
    const what = preview ? "a preview, not the rows" : "the full result";
    row("back", "", `${c.bold(name)} → ${what} ${c.dim(`(${tokens})`)}\n${describeJson(parsed, c)}`);
  };

  const printResponse = (durationMs: number, event: AgentEvent & { type: "llm-call-end" }) => {
    const tokens =
      event.inputTokens === undefined
        ? ""
        : c.dim(
            ` · ${formatNumber(event.inputTokens)} in / ${formatNumber(event.outputTokens ?? 0)} out tokens`,
          );
    const reply = response;
    response = undefined;
    const content = typeof reply === "string" ? reply : (reply?.content ?? "");
    const calls: ResponseCall[] =
      typeof reply === "object" && reply !== null ? [...(reply.toolCalls ?? [])] : [];
    if (calls.length === 0) {
      row(
        "model",
        formatMs(durationMs),
        `answers in text ${c.dim(`(${formatNumber(content.length)} characters, below)`)}${tokens}`,
        c.cyan,
      );
      return;
    }
    if (content.trim() !== "")
      row("model", formatMs(durationMs), `says: ${clip(content, WIDTH)}${tokens}`, c.cyan);
    calls.forEach((call, index) => {
      const time = index === 0 && content.trim() === "" ? formatMs(durationMs) : "";
      const args = typeof call.args === "string" ? parseArgs(call.args) : call.args;
      const program = (args as { program?: unknown } | null)?.program;
      if (call.name === "lisp_eval" && typeof program === "string") {
        const text = program
          .split("\n")
          .map((line) => `${c.dim("│")} ${c.magenta(line)}`)
          .join("\n");
        row(
          "model",
          time,
          `calls ${c.bold("lisp_eval")} with a program${index === 0 ? tokens : ""}:\n${text}`,
          c.cyan,
        );
      } else {
        row(
          "model",
          time,
          `calls ${c.bold(call.name)} ${clip(JSON.stringify(args), WIDTH - call.name.length - 6)}${index === 0 ? tokens : ""}`,
          c.cyan,
        );
      }
    });
  };

  const printToolEnd = (event: AgentEvent & { type: "tool-call-end" }) => {
    const time = event.cached ? "" : formatMs(event.durationMs);
    if (event.error) {
      row("tool", time, c.red(`${event.toolName} failed: ${clip(event.errorMessage ?? "", WIDTH)}`), c.red);
      return;
    }
    if (event.toolName === "lisp_eval") {
      row("tool", time, `${c.bold("lisp_eval")}: the program ran in the sandbox`, c.yellow);
      return;
    }
    const rows = Array.isArray(event.result) ? ` → ${formatNumber(event.result.length)} rows` : "";
    if (event.exposureLayer === "ptc_lisp") {
      row(
        event.cached ? "cache" : "tool",
        time,
        event.cached
          ? `${c.bold(`(tool/${event.toolName} …)`)} in the program: answered from the run's cache, ${c.green("the tool did not run again")}`
          : `${c.bold(`(tool/${event.toolName} …)`)} in the program ran${rows}`,
        event.cached ? c.green : c.yellow,
      );
      return;
    }
    if (event.cached) {
      row("cache", "", `${c.bold(event.toolName)}: answered from the run's cache`, c.green);
      return;
    }
    const kept = bridged.has(event.toolName) ? "; the full result stays in the run's cache" : "";
    row("tool", time, `${c.bold(event.toolName)} ran${rows}${kept}`, c.yellow);
  };

  return {
    onRequest(request: RecordedRequest) {
      flushMessages(request.messages);
      if (request.turn !== lastTurn) {
        lastTurn = request.turn;
        const title = `── turn ${request.turn ?? "?"} `;
        write(c.bold(title + "─".repeat(Math.max(4, WIDTH - title.length))));
      } else {
        row("model", "", c.yellow("calling the model again (retry)"));
      }
    },
    onResponse(reply: ModelResponse) {
      response = reply;
    },
    onEvent(event: AgentEvent) {
      switch (event.type) {
        case "llm-call-end":
          if (event.ok) printResponse(event.durationMs, event);
          else
            row(
              "model",
              formatMs(event.durationMs),
              c.red(`the model call failed: ${clip(event.error ?? "", WIDTH)}`),
              c.red,
            );
          return;
        case "tool-call-end":
          printToolEnd(event);
          return;
        case "turn-end":
          footer = `${" ".repeat(2 + LABEL)}${`turn ${event.turn} took ${formatMs(event.durationMs)}`}`;
          return;
        default:
          return;
      }
    },
    finish(step: Step) {
      flushMessages(step.messages ?? [], true);
    },
  };
}

function parseArgs(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function isPreview(value: unknown): boolean {
  return typeof value === "object" && value !== null && "full_result_cached" in value;
}

/**
 * A JSON result for the terminal: an object key by key, a list by its size and first item. Text
 * fields are shown whole (the cache hint is the point of a preview); nested values are cut.
 */
function describeJson(value: unknown, c: Colors): string {
  if (Array.isArray(value)) {
    const first = value.length === 0 ? "" : ` first: ${JSON.stringify(value[0])}`;
    return c.dim(clip(`[${value.length} items]${first}`, WIDTH));
  }
  if (typeof value === "object" && value !== null) {
    return Object.entries(value)
      .map(
        ([key, field]) =>
          `${c.dim(`${key}:`)} ${typeof field === "string" ? JSON.stringify(field) : clip(JSON.stringify(field) ?? "null", WIDTH - key.length - 2)}`,
      )
      .join("\n");
  }
  return clip(String(value), WIDTH);
}
