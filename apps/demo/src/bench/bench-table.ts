/**
 * The benchmark's report: context tokens per task and mode, totals, the ratio, and whether the two
 * modes gave the same answer.
 */
import { type Colors, formatNumber, type Output } from "../view/terminal.js";
import type { McpSchemaTokens } from "./mcp-schema-tokens.js";
import type { TaskResult } from "./run-bench.js";

export interface BenchTotals {
  readonly text: number;
  readonly combined: number;
  /** combined / text. */
  readonly ratio: number;
}

export function benchTotals(results: readonly TaskResult[]): BenchTotals {
  const text = results.reduce((sum, result) => sum + result.text.tokens, 0);
  const combined = results.reduce((sum, result) => sum + result.combined.tokens, 0);
  return { text, combined, ratio: text === 0 ? 1 : combined / text };
}

/** Percent fewer tokens in combined mode (negative: combined mode cost more). */
export function percentSaved(text: number, combined: number): number {
  return text === 0 ? 0 : (1 - combined / text) * 100;
}

const COLUMNS = [26, 8, 18, 18, 10, 10] as const;

export function printBenchTable(output: Output, c: Colors, results: readonly TaskResult[]): void {
  const write = (text: string) => output.write(`${text}\n`);
  const row = (values: readonly string[]) =>
    values.map((value, index) => pad(value, COLUMNS[index] ?? 0, index === 0)).join("");
  const mode = (tokens: number, requests: number) => `${formatNumber(tokens)} (${requests} req)`;
  const ratio = (text: number, combined: number) =>
    `${((text === 0 ? 1 : combined / text) * 100).toFixed(1)}%`;
  const saved = (text: number, combined: number) => {
    const percent = percentSaved(text, combined);
    const label = `${percent.toFixed(1)}%`;
    return percent >= 95 ? c.green(label) : percent < 0 ? c.yellow(label) : label;
  };

  write(c.bold("Context tokens sent to the model, per task"));
  write(
    c.dim(
      "gpt-tokenizer (o200k_base) over every request's system prompt, messages and tool schemas; scripted models, real tools and programs",
    ),
  );
  write("");
  write(c.dim(row(["task", "rows", "text mode", "combined mode", "ratio", "saved"])));
  for (const result of results) {
    const { text, combined } = result;
    write(
      row([
        result.task,
        formatNumber(result.rows),
        mode(text.tokens, text.requests),
        mode(combined.tokens, combined.requests),
        ratio(text.tokens, combined.tokens),
        saved(text.tokens, combined.tokens),
      ]),
    );
  }
  const totals = benchTotals(results);
  write(
    c.bold(
      row([
        "total",
        "",
        formatNumber(totals.text),
        formatNumber(totals.combined),
        ratio(totals.text, totals.combined),
        saved(totals.text, totals.combined),
      ]),
    ),
  );
  write("");
  write(
    c.dim(
      "ratio: combined-mode tokens as a share of text-mode tokens; saved: 1 − ratio (negative: combined mode cost more)",
    ),
  );
  for (const result of results) {
    const overhead = result.combined.overhead;
    if (overhead === undefined || result.rows >= 1000) continue;
    write(
      c.dim(
        `${result.task}: combined mode adds to every request the reference card (${formatNumber(overhead.card)} tokens), <ptc_tools> (${formatNumber(overhead.toolList)}) and lisp_eval's schema (${formatNumber(overhead.schema)})`,
      ),
    );
  }
  write("");
  write(c.bold("Answers"));
  for (const result of results) {
    const same = result.text.ok && result.combined.ok && result.text.answer === result.combined.answer;
    const cache =
      result.combined.cacheHits > 0
        ? c.dim(` · combined mode: ${result.combined.cacheHits} call(s) from the cache`)
        : "";
    write(`  ${same ? c.green("same in both modes") : c.red("DIFFERENT")}  ${result.task}${cache}`);
    write(`    ${c.dim(result.combined.answer)}`);
    if (!same) write(`    ${c.red(`text mode: ${result.text.answer}`)}`);
  }
}

/** Pads by the visible width, so coloured cells line up with plain ones. */
function pad(text: string, width: number, left: boolean): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI escapes are what is measured away
  const visible = text.replace(/\u001b\[[0-9;]*m/g, "").length;
  const space = " ".repeat(Math.max(0, width - visible));
  return left ? text + space : space + text;
}

/** The MCP row: every upstream tool's schema listed natively against one lisp_eval with the card. */
export function printMcpRow(output: Output, c: Colors, row: McpSchemaTokens): void {
  const write = (text: string) => output.write(`${text}\n`);
  write("");
  write(c.bold("Tool schemas per request, MCP servers together"));
  write(
    c.dim(
      `${row.servers.join(", ")}: ${row.tools} tools; what every request carries to offer them (gpt-tokenizer, o200k_base)`,
    ),
  );
  write("");
  write(c.dim(`${pad("listing", 48, true)}${pad("tokens", 10, false)}${pad("share", 10, false)}`));
  write(
    `${pad(`every tool's schema, natively (${row.tools} tools)`, 48, true)}${pad(formatNumber(row.native), 10, false)}${pad("100.0%", 10, false)}`,
  );
  const line = (label: string, tokens: number) => {
    const share = row.native === 0 ? 0 : (tokens / row.native) * 100;
    write(
      `${pad(label, 48, true)}${pad(formatNumber(tokens), 10, false)}${pad(`${share.toFixed(1)}%`, 10, false)}`,
    );
  };
  line("lisp_eval, card with summaries (default here)", row.lispEval);
  line("lisp_eval, card with full descriptions", row.lispEvalFull);
  line("lisp_eval, card with names only", row.lispEvalNames);
}
