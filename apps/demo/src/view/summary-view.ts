/**
 * The closing lines of the demo: the answer, then what the run cost: turns, calls, the calls the
 * cache saved, and the context tokens the model read against what inlining the full results would
 * have sent.
 */
import type { Step } from "@ptc/agent";
import type { TokenSummary } from "../tokens/token-summary.js";
import { type Colors, formatMs, formatNumber, type Output } from "./terminal.js";

export function printAnswer(output: Output, c: Colors, step: Step): void {
  const write = (text: string) => output.write(`${text}\n`);
  write("");
  if (step.fail !== null) {
    write(c.bold(c.red("The run failed")));
    write(`  ${c.red(`${step.fail.reason}: ${step.fail.message}`)}`);
    return;
  }
  write(c.bold("Answer"));
  const text = typeof step.return === "string" ? step.return : JSON.stringify(step.return, null, 2);
  for (const line of text.split("\n")) write(`  ${c.green(line)}`);
}

export function printSummary(output: Output, c: Colors, step: Step, summary: TokenSummary): void {
  const write = (text: string) => output.write(`${text}\n`);
  const label = (text: string) => c.dim(text.padEnd(9));
  write("");
  write(c.bold("Summary"));
  const { usage } = step;
  write(
    `  ${label("run")}${usage.turns} turns · ${summary.requests.length} model calls · ${summary.nativeCalls} native tool calls · ${summary.programCalls} from programs · ${formatMs(usage.durationMs)}`,
  );
  if (summary.cacheHits === 0) {
    write(`  ${label("cache")}no call was answered from the run's cache`);
  } else {
    const calls = summary.cachedCalls
      .map(
        (call) =>
          `${call.name} (${call.layer === "ptc_lisp" ? "from a program" : "native"}, turn ${call.turn ?? "?"})`,
      )
      .join(", ");
    write(
      `  ${label("cache")}${c.green(`${summary.cacheHits} ${summary.cacheHits === 1 ? "call" : "calls"} answered from the run's cache`)}: ${calls}; ${summary.cacheHits === 1 ? "one tool call" : `${summary.cacheHits} tool calls`} saved`,
    );
  }
  write(`  ${label("tokens")}${c.dim("request   model read   full results inlined")}`);
  summary.requests.forEach((request, index) => {
    write(
      `  ${" ".repeat(9)}${String(index + 1).padEnd(10)}${formatNumber(request.read).padStart(10)}   ${formatNumber(request.inlined).padStart(20)}`,
    );
  });
  write(
    `  ${" ".repeat(9)}${c.bold("total".padEnd(10))}${c.bold(formatNumber(summary.tokensRead).padStart(10))}   ${c.bold(formatNumber(summary.tokensInlined).padStart(20))}`,
  );
  const percent = `${(summary.ratio * 100).toFixed(1)}%`;
  write(
    `  ${label("saved")}${c.bold(c.green(`${summary.percentSaved.toFixed(1)}% fewer context tokens`))}: the model read ${formatNumber(summary.tokensRead)}, ${percent} of the ${formatNumber(summary.tokensInlined)} that inlining the full results would have sent`,
  );
  write(
    c.dim(
      `  ${" ".repeat(9)}(gpt-tokenizer, o200k_base, over every request's system prompt, messages and tool schemas)`,
    ),
  );
  if (summary.providerInputTokens !== undefined) {
    write(
      `  ${label("provider")}reported ${formatNumber(summary.providerInputTokens)} input tokens for the run`,
    );
  }
}
