/**
 * What a run gave: the value as PTC-Lisp and as JSON, what it printed, the tools it called, the
 * error with its reason, message and position (a button that moves the cursor there), and what it
 * used of each limit. Text only goes in through `textContent`: program output is never HTML.
 */
import { DEFAULT_LIMITS } from "@ptc/lisp";
import type { ErrorMark } from "../editor/editor.js";
import type { PlaygroundLimits, RunReply } from "../run/run-protocol.js";
import type { RunnerOutcome } from "../run/runner.js";

function element<T extends HTMLElement>(root: ParentNode, selector: string): T {
  const found = root.querySelector<T>(selector);
  if (found === null) throw new Error(`the page has no ${selector}`);
  return found;
}

const number = new Intl.NumberFormat("en");

function bytes(count: number): string {
  if (count < 1000) return `${count} B`;
  if (count < 1_000_000) return `${(count / 1000).toFixed(1)} kB`;
  return `${(count / 1_000_000).toFixed(1)} MB`;
}

function milliseconds(value: number): string {
  return value < 10 ? `${value.toFixed(2)} ms` : `${Math.round(value)} ms`;
}

interface UsageRow {
  readonly label: string;
  readonly used: number;
  readonly limit: number;
  readonly show: (value: number) => string;
}

export interface ShownRun {
  readonly limits: PlaygroundLimits;
  readonly programBytes: number;
}

export class ResultsPane {
  private readonly status: HTMLElement;
  private readonly error: HTMLElement;
  private readonly errorReason: HTMLElement;
  private readonly errorPosition: HTMLButtonElement;
  private readonly errorMessage: HTMLElement;
  private readonly value: HTMLElement;
  private readonly json: HTMLElement;
  private readonly output: HTMLElement;
  private readonly warnings: HTMLElement;
  private readonly toolCalls: HTMLElement;
  private readonly toolCallsSection: HTMLElement;
  private readonly usage: HTMLElement;
  private readonly valueSection: HTMLElement;
  private position: ErrorMark | undefined;

  constructor(root: ParentNode, onLocate: (mark: ErrorMark) => void) {
    this.status = element(root, "#run-status");
    this.error = element(root, "#error");
    this.errorReason = element(root, "#error-reason");
    this.errorPosition = element(root, "#error-position");
    this.errorMessage = element(root, "#error-message");
    this.value = element(root, "#value");
    this.json = element(root, "#value-json");
    this.output = element(root, "#output");
    this.warnings = element(root, "#warnings");
    this.toolCalls = element(root, "#tool-calls");
    this.toolCallsSection = element(root, "#tool-calls-section");
    this.usage = element(root, "#usage");
    this.valueSection = element(root, "#value-section");
    this.errorPosition.addEventListener("click", () => {
      if (this.position !== undefined) onLocate(this.position);
    });
  }

  running(): void {
    this.status.textContent = "Running…";
    this.status.dataset.state = "running";
  }

  /** A problem with the inputs (the program did not run). */
  showInputError(message: string): void {
    this.clear();
    this.status.textContent = "Not run";
    this.status.dataset.state = "error";
    this.showError("input", message, undefined);
  }

  /** Shows an outcome; returns where its error is, for the editor to mark. */
  show(outcome: RunnerOutcome, run: ShownRun): ErrorMark | undefined {
    this.clear();
    if (outcome.type === "stopped") {
      this.status.textContent = `Stopped after ${milliseconds(outcome.afterMs)}`;
      this.status.dataset.state = "error";
      this.showError(
        "timeout",
        `The program was still running past its time limit (${number.format(run.limits.timeoutMs)} ms), so the page stopped it. ` +
          "Look for a loop that never ends, or raise the time limit under Limits, below the editor.",
        undefined,
      );
      this.output.textContent = "(lost: the page stopped the worker that ran the program)";
      this.output.classList.add("empty");
      this.showUsage([
        { label: "time", used: outcome.afterMs, limit: run.limits.timeoutMs, show: milliseconds },
      ]);
      return undefined;
    }
    const generation =
      outcome.codeGeneration === "available"
        ? "code generation available"
        : outcome.codeGeneration === "off"
          ? "code generation off"
          : outcome.codeGeneration === "unavailable"
            ? "code generation not allowed here"
            : "closure evaluator";
    this.status.textContent = `${outcome.ok ? (outcome.returned ? "Returned" : "Done") : "Failed"} in ${milliseconds(outcome.durationMs)} · ${generation}`;
    this.status.dataset.state = outcome.ok ? "ok" : "error";
    this.status.dataset.codeGeneration = outcome.codeGeneration;
    this.output.textContent = outcome.prints.join("\n");
    this.output.classList.toggle("empty", outcome.prints.length === 0);
    if (outcome.prints.length === 0) this.output.textContent = "(nothing printed)";
    for (const warning of outcome.warnings) {
      const item = document.createElement("li");
      item.textContent = warning;
      this.warnings.append(item);
    }
    this.warnings.hidden = outcome.warnings.length === 0;
    this.showToolCalls(outcome);
    this.showUsage(this.usageRows(outcome, run));
    if (outcome.ok) {
      this.value.textContent = outcome.value;
      this.json.textContent = outcome.json;
      return undefined;
    }
    const { reason, message, line, column } = outcome.error;
    const mark = line === null ? undefined : { line, column: column ?? 1 };
    this.showError(reason, message, mark);
    return mark;
  }

  private usageRows(outcome: RunReply, run: ShownRun): UsageRow[] {
    const count = (value: number) => number.format(value);
    const rows: UsageRow[] = [
      { label: "time", used: outcome.durationMs, limit: run.limits.timeoutMs, show: milliseconds },
    ];
    if (outcome.usage !== null) {
      rows.push(
        { label: "iterations", used: outcome.usage.iterations, limit: run.limits.maxIterations, show: count },
        { label: "memory", used: outcome.usage.memoryBytes, limit: run.limits.maxMemoryBytes, show: bytes },
      );
    }
    rows.push(
      {
        label: "println lines",
        used: outcome.prints.length,
        limit: DEFAULT_LIMITS.maxPrintLines,
        show: count,
      },
      {
        label: "tool calls",
        used: outcome.toolCalls.length,
        limit: DEFAULT_LIMITS.maxToolCalls,
        show: count,
      },
      { label: "program size", used: run.programBytes, limit: DEFAULT_LIMITS.maxProgramBytes, show: bytes },
    );
    return rows;
  }

  private showUsage(rows: readonly UsageRow[]): void {
    for (const row of rows) {
      const tr = document.createElement("tr");
      tr.dataset.limit = row.label;
      const label = document.createElement("th");
      label.scope = "row";
      label.textContent = row.label;
      const used = document.createElement("td");
      used.textContent = row.show(row.used);
      const limit = document.createElement("td");
      limit.textContent = Number.isFinite(row.limit) ? `of ${row.show(row.limit)}` : "no limit";
      const bar = document.createElement("td");
      const meter = document.createElement("meter");
      meter.min = 0;
      meter.max = 1;
      meter.value = Number.isFinite(row.limit) ? Math.min(1, row.used / row.limit) : 0;
      // Green while far from the limit, amber close to it, red at it.
      meter.low = 0.6;
      meter.high = 0.9;
      meter.optimum = 0;
      meter.setAttribute("aria-label", `${row.label} used`);
      bar.append(meter);
      tr.append(label, used, limit, bar);
      this.usage.append(tr);
    }
  }

  private showToolCalls(outcome: RunReply): void {
    for (const call of outcome.toolCalls) {
      const item = document.createElement("li");
      const name = document.createElement("code");
      name.textContent = `tool/${call.name}`;
      item.append(name, document.createTextNode(` ${JSON.stringify(call.args)}`));
      this.toolCalls.append(item);
    }
    this.toolCallsSection.hidden = outcome.toolCalls.length === 0;
  }

  private showError(reason: string, message: string, mark: ErrorMark | undefined): void {
    this.error.hidden = false;
    // A failed run has no value: the error takes its place.
    this.valueSection.hidden = true;
    this.errorReason.textContent = reason;
    this.errorMessage.textContent = message;
    this.position = mark;
    this.errorPosition.hidden = mark === undefined;
    this.errorPosition.textContent = mark === undefined ? "" : `line ${mark.line}, column ${mark.column}`;
    this.value.textContent = "";
    this.json.textContent = "";
  }

  private clear(): void {
    this.error.hidden = true;
    this.valueSection.hidden = false;
    this.position = undefined;
    this.value.textContent = "";
    this.json.textContent = "";
    this.output.textContent = "";
    this.warnings.replaceChildren();
    this.warnings.hidden = true;
    this.toolCalls.replaceChildren();
    this.toolCallsSection.hidden = true;
    this.usage.replaceChildren();
  }
}
