/**
 * `pnpm start -- --scenario refunds`: an agent that issues refunds, each approved or rejected at
 * the terminal. The run pauses with the refunds pending; the demo keeps the paused state the way
 * a server would (signed JSON text), asks y/n for each refund (`--yes` approves all), and resumes
 * from that text. The refunds that were approved are made once, the rejected ones never, and the
 * model's answer is written from what the refund calls returned.
 */
import { type AgentEvent, type ModelFunction, type RunResult, resume, run, type Step } from "@ptc/agent";
import type { DemoArgs } from "../cli-args.js";
import { createRecordingModel } from "../run/recording-model.js";
import { stepToJson } from "../run/step-json.js";
import { createTranscriptFile } from "../run/transcript.js";
import { createRunView } from "../view/run-view.js";
import { printAnswer } from "../view/summary-view.js";
import { type Colors, formatNumber, type Output } from "../view/terminal.js";
import { createRefundAgent, createRefundDesk, REFUND_QUESTION, type RefundDesk } from "./refund-agent.js";
import { LATE_DAYS, refundOrders } from "./refund-orders.js";

/** Asks the person at the terminal; undefined when there is no one left to ask (input ended). */
export type Ask = (question: string) => Promise<string | undefined>;

export interface RefundScenarioOptions {
  readonly args: DemoArgs;
  readonly llm: ModelFunction;
  readonly stdout: Output;
  readonly colors: Colors;
  readonly ask: Ask;
  readonly secrets: readonly string[];
}

export interface RefundScenarioResult {
  readonly exitCode: number;
  readonly step: Step;
  readonly desk: RefundDesk;
  /** How often the run paused, and the size of each paused state as JSON text. */
  readonly pauses: readonly { readonly pending: number; readonly stateBytes: number }[];
}

const REJECTION = "declined by the operator at the terminal";

export async function runRefundScenario(options: RefundScenarioOptions): Promise<RefundScenarioResult> {
  const { args, stdout, colors: c } = options;
  const write = (text: string) => stdout.write(`${text}\n`);
  const desk = createRefundDesk(refundOrders());
  const agent = createRefundAgent(desk);
  const view = args.json ? undefined : createRunView({ output: stdout, colors: c, bridged: new Set() });
  const recording = createRecordingModel(options.llm, view === undefined ? [] : [view]);
  const transcript =
    args.transcript === undefined ? undefined : createTranscriptFile(args.transcript, options.secrets);
  // Signs the paused state: what comes back from the store is refused if anyone changed it.
  const stateSecret = globalThis.crypto.randomUUID();
  const common = {
    llm: recording.llm,
    collectMessages: true,
    eventPayloads: true,
    stateSecret,
    ...(view === undefined ? {} : { onEvent: (event: AgentEvent) => view.onEvent(event) }),
    ...(transcript === undefined ? {} : { transcript: transcript.write }),
  };

  if (view !== undefined) printHeader(stdout, c, args, desk);
  let result: RunResult = await run(agent, common);
  const pauses: { pending: number; stateBytes: number }[] = [];
  while (result.paused) {
    // What a server would do: keep the state as text until someone decides, then read it back.
    const stored = JSON.stringify(result.state);
    pauses.push({ pending: result.pending.length, stateBytes: stored.length });
    write("");
    write(
      c.bold(
        c.yellow(
          `⏸  the run paused: ${result.pending.length === 1 ? "a refund waits" : `${result.pending.length} refunds wait`} for approval`,
        ),
      ),
    );
    write(
      c.dim(
        `   its state is ${formatNumber(stored.length)} characters of signed JSON, resumable in any process`,
      ),
    );
    const approve: string[] = [];
    const reject: { id: string; message: string }[] = [];
    for (const call of result.pending) {
      const { order_id: orderId, amount } = call.args as { order_id?: unknown; amount?: unknown };
      const order = desk.orders.find((candidate) => candidate.id === orderId);
      const what = `${c.bold(`refund ${String(orderId)}`)} · ${order?.customer ?? "?"} · $${Number(amount).toFixed(2)} · ${order?.days_late ?? "?"} days late`;
      let answer: string | undefined = args.yes ? "y" : undefined;
      if (args.yes) write(`   ${what}  ${c.dim("approve? [y/n]")} y ${c.dim("(--yes)")}`);
      else {
        answer = await options.ask(`   ${what}  ${c.dim("approve? [y/n]")} `);
        if (answer === undefined) write(c.dim("— no answer (the input ended): declined"));
      }
      if (/^y(es)?$/i.test(answer?.trim() ?? "")) approve.push(call.id);
      else reject.push({ id: call.id, message: REJECTION });
    }
    write("");
    write(
      c.dim(
        `▶  resuming: ${approve.length} approved, ${reject.length} rejected; the paused turn is handled again, nothing that ran runs twice`,
      ),
    );
    result = await resume(agent, JSON.parse(stored), { ...common, approve, reject });
  }
  const { step } = result;
  if (view === undefined) {
    stdout.write(`${JSON.stringify(stepToJson(step, recording.exchanges), null, 2)}\n`);
  } else {
    view.finish(step);
    printAnswer(stdout, c, step);
    write("");
    write(c.bold("Refunds made"));
    if (desk.refunds.length === 0) write(`  ${c.dim("none")}`);
    for (const made of desk.refunds)
      write(`  ${made.refund_id}  ${made.order_id}  $${made.amount.toFixed(2)}`);
    if (transcript !== undefined) write(c.dim(`\nTranscript saved to ${transcript.path}`));
  }
  return { exitCode: result.ok ? 0 : 1, step, desk, pauses };
}

function printHeader(output: Output, c: Colors, args: DemoArgs, desk: RefundDesk): void {
  const write = (text: string) => output.write(`${text}\n`);
  const label = (text: string) => c.dim(text.padEnd(10));
  write(c.bold("PTC demo · refunds that wait for a person's approval"));
  write(
    `  ${label("model")}${args.provider === "scripted" ? c.yellow("scripted") : c.yellow(`openai · ${args.model}`)}${args.provider === "scripted" ? ": replays a recorded conversation over the real tools, approvals and state" : ""}`,
  );
  write(
    `  ${label("orders")}${desk.orders.length} orders of this week; late means more than ${LATE_DAYS} days`,
  );
  write(
    `  ${label("tools")}list_orders ${c.dim("(programs only)")} · refund ${c.dim("(native, needsApproval: true)")}`,
  );
  write(
    `  ${label("approval")}${args.yes ? "--yes: every refund approved" : "you answer y or n for each refund"}`,
  );
  write(`  ${label("question")}${c.bold(REFUND_QUESTION)}`);
  write("");
}
