/**
 * The demo: a combined-mode log-triage agent over 48,000 generated log lines. By default a scripted
 * model replays a realistic conversation over the real tools, sandbox and cache; with
 * `--provider openai` a live model drives the same agent. The terminal shows each turn as it
 * happens and closes with the answer and the token bill.
 *
 * It must never print or save an API key, and it never touches the network unless a live model
 * was asked for.
 */
import { type AgentEvent, type ModelFunction, run, type Step } from "@ptc/agent";
import { createOpenAIModel, type OpenAIFetch } from "@ptc/agent/openai";
import { createScriptedModel } from "@ptc/agent/testing";
import { type DemoArgs, parseDemoArgs, USAGE, UsageError } from "./cli-args.js";
import { demoLogs, type LogStore } from "./logs/log-data.js";
import { SERVICES } from "./logs/services.js";
import { type Ask, runRefundScenario } from "./refunds/refund-scenario.js";
import { refundSteps } from "./refunds/scripted-refunds.js";
import { createTerminalAsk } from "./refunds/terminal-ask.js";
import { createRecordingModel } from "./run/recording-model.js";
import { stepToJson } from "./run/step-json.js";
import { createTranscriptFile } from "./run/transcript.js";
import { summarizeTokens, type TokenSummary } from "./tokens/token-summary.js";
import { triageSteps } from "./triage/scripted-triage.js";
import { createTriageAgent, DEMO_QUESTION } from "./triage/triage-agent.js";
import { createRunView } from "./view/run-view.js";
import { printAnswer, printSummary } from "./view/summary-view.js";
import { type Colors, colorsFor, formatNumber, type Output } from "./view/terminal.js";

export interface MainOptions {
  readonly stdout: Output;
  /** Usage errors and warnings. Default: `stdout`. */
  readonly stderr?: Output;
  /** Default: `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Replaces `fetch` for the live model (tests). */
  readonly fetch?: OpenAIFetch;
  /** Refunds: asks the person at the terminal. Default: lines read from `input`. */
  readonly ask?: Ask;
  /** Where answers are read from when `ask` is not given. Default: `process.stdin`. */
  readonly input?: NodeJS.ReadableStream;
}

export interface MainResult {
  readonly exitCode: number;
  /** Absent when nothing ran (`--help`, a usage error). */
  readonly step?: Step;
  readonly summary?: TokenSummary;
}

export async function main(argv: readonly string[], options: MainOptions): Promise<MainResult> {
  const { stdout } = options;
  const stderr = options.stderr ?? stdout;
  const env = options.env ?? process.env;
  let args: DemoArgs;
  try {
    args = parseDemoArgs(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    stderr.write(`${error.message}\n\n${USAGE}`);
    return { exitCode: 2 };
  }
  if (args.help) {
    stdout.write(USAGE);
    return { exitCode: 0 };
  }

  if (args.scenario === "refunds") return refunds(args, options, stdout, stderr, env);

  const store = demoLogs();
  const question = args.question ?? DEMO_QUESTION;
  const agent = createTriageAgent(store, question);
  const scripted = args.provider === "scripted" ? createScriptedModel(triageSteps()) : undefined;
  const llm: ModelFunction = scripted?.llm ?? liveModel(args, options);

  const colors = colorsFor(stdout, env, args.color);
  const view = args.json
    ? undefined
    : createRunView({ output: stdout, colors, bridged: new Set(["search_logs"]) });
  const secrets = [args.apiKey, env.OPENAI_API_KEY].filter(
    (secret): secret is string => secret !== undefined,
  );
  const transcript =
    args.transcript === undefined ? undefined : createTranscriptFile(args.transcript, secrets);
  const recording = createRecordingModel(llm, view === undefined ? [] : [view]);

  if (view !== undefined) printHeader(stdout, colors, args, store, question);
  const result = await run(agent, {
    llm: recording.llm,
    collectMessages: true,
    // Payloads let the view count the rows a tool returned.
    eventPayloads: true,
    ...(view === undefined ? {} : { onEvent: (event: AgentEvent) => view.onEvent(event) }),
    ...(transcript === undefined ? {} : { transcript: transcript.write }),
  });
  const { step } = result;
  const summary = summarizeTokens(recording.exchanges, step);

  if (view === undefined) {
    stdout.write(`${JSON.stringify(stepToJson(step, recording.exchanges), null, 2)}\n`);
  } else {
    view.finish(step);
    printAnswer(stdout, colors, step);
    printSummary(stdout, colors, step, summary);
    if (transcript !== undefined) stdout.write(colors.dim(`\nTranscript saved to ${transcript.path}\n`));
  }
  if (result.ok && scripted !== undefined && scripted.remaining > 0) {
    stderr.write(`warning: the scripted model has ${scripted.remaining} unused step(s)\n`);
  }
  return { exitCode: result.ok ? 0 : 1, step, summary };
}

async function refunds(
  args: DemoArgs,
  options: MainOptions,
  stdout: Output,
  stderr: Output,
  env: Readonly<Record<string, string | undefined>>,
): Promise<MainResult> {
  const scripted = args.provider === "scripted" ? createScriptedModel(refundSteps()) : undefined;
  const terminal =
    options.ask === undefined ? createTerminalAsk(options.input ?? process.stdin, stdout) : undefined;
  try {
    const result = await runRefundScenario({
      args,
      llm: scripted?.llm ?? liveModel(args, options),
      stdout,
      colors: colorsFor(stdout, env, args.color),
      ask: options.ask ?? (terminal as { ask: Ask }).ask,
      secrets: [args.apiKey, env.OPENAI_API_KEY].filter((secret): secret is string => secret !== undefined),
    });
    if (result.step.fail === null && scripted !== undefined && scripted.remaining > 0) {
      stderr.write(`warning: the scripted model has ${scripted.remaining} unused step(s)\n`);
    }
    return { exitCode: result.exitCode, step: result.step };
  } finally {
    terminal?.close();
  }
}

function liveModel(args: DemoArgs, options: MainOptions): ModelFunction {
  return createOpenAIModel({
    model: args.model ?? "",
    baseURL: args.baseURL,
    apiKey: args.apiKey,
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
  });
}

function printHeader(output: Output, c: Colors, args: DemoArgs, store: LogStore, question: string): void {
  const write = (text: string) => output.write(`${text}\n`);
  const label = (text: string) => c.dim(text.padEnd(10));
  write(c.bold("PTC demo · log triage in combined mode"));
  if (args.provider === "scripted") {
    write(
      `  ${label("model")}${c.yellow("scripted")}: replays a recorded conversation, but the tools, the programs and the cache are real`,
    );
    write(`  ${" ".repeat(10)}${c.dim("live model: pnpm start -- --provider openai --model gpt-4o-mini")}`);
  } else {
    const where = args.baseURL === undefined ? "" : ` at ${displayURL(args.baseURL)}`;
    write(`  ${label("model")}${c.yellow(`openai · ${args.model}`)}${where}`);
  }
  write(
    `  ${label("logs")}${formatNumber(store.lines.length)} lines from ${SERVICES.length} services, the 24 hours up to ${new Date(store.now).toISOString()}`,
  );
  write(
    `  ${label("tools")}search_logs ${c.dim("(native + programs, cached, metadata preview)")} · get_service_owner ${c.dim("(native)")} · list_services ${c.dim("(native + programs)")}`,
  );
  write(`  ${label("question")}${c.bold(question)}`);
  write("");
}

/** A base URL without credentials or query, safe to print. */
function displayURL(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
  } catch {
    return "(an invalid URL)";
  }
}
