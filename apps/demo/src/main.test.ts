import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { run } from "@ptc/agent";
import { replayTranscript } from "@ptc/agent/testing";
import { describe, expect, test } from "vitest";
import { demoLogs, generateLogs, INCIDENT_ERRORS, LOG_LINES, LOG_SEED } from "./logs/log-data.js";
import { main } from "./main.js";
import { createTriageAgent } from "./triage/triage-agent.js";

function buffer(isTTY = false) {
  const chunks: string[] = [];
  return {
    output: { write: (text: string) => chunks.push(text), isTTY },
    text: () => chunks.join(""),
  };
}

/** The incident, counted straight from the generated lines, without any code under demonstration. */
function expectedIncident() {
  const store = generateLogs(LOG_SEED, LOG_LINES);
  const counts = new Map<string, number>();
  for (const line of store.lines) {
    if (line.level === "error" && line.code === 42 && Date.parse(line.timestamp) > store.now - 3_600_000) {
      counts.set(line.service, (counts.get(line.service) ?? 0) + 1);
    }
  }
  const ranked = [...counts].sort((a, b) => b[1] - a[1]);
  return {
    total: [...counts.values()].reduce((sum, count) => sum + count, 0),
    top: ranked[0] as [string, number],
  };
}

describe("the demo with the scripted model", () => {
  test("answers with the exact count and the service with the most errors", async () => {
    const { output } = buffer();
    const { exitCode, step } = await main([], { stdout: output, env: {} });
    const incident = expectedIncident();
    expect(incident.total).toBe(INCIDENT_ERRORS);
    expect(exitCode).toBe(0);
    expect(step?.return).toContain("1842 errors with code 42");
    expect(step?.return).toContain(`most were ${incident.top[0]} (${incident.top[1]})`);
  });

  test("reads under 5% of the tokens that inlining the rows would cost, and the cache saves one search_logs call", async () => {
    const { output } = buffer();
    const { summary, step } = await main([], { stdout: output, env: {} });
    expect(summary).toBeDefined();
    if (summary === undefined || step === undefined) return;
    expect(summary.tokensRead).toBeLessThan(summary.tokensInlined * 0.05);
    expect(summary.cacheHits).toBe(1);
    expect(summary.cachedCalls).toEqual([{ name: "search_logs", layer: "ptc_lisp", turn: 2 }]);
    const searches = step.toolCalls.filter((call) => call.name === "search_logs");
    expect(searches.map((call) => call.cached)).toEqual([false, true]);
    expect(summary.requests).toHaveLength(4);
  });

  test("shows each turn as it happens: the calls, the program, what came back, plainly when piped", async () => {
    const { output, text } = buffer();
    await main([], { stdout: output, env: {} });
    const shown = text();
    expect(shown).toContain("scripted");
    for (const turn of [1, 2, 3, 4]) expect(shown).toContain(`── turn ${turn} `);
    expect(shown).toContain('calls search_logs {"query":"error code 42","since":"1h"}');
    expect(shown).toContain("result_count: 1842");
    expect(shown).toContain('(let [rows (tool/search_logs {:query "error code 42" :since "1h"})');
    expect(shown).toContain("answered from the run's cache, the tool did not run again");
    expect(shown).toMatch(/lisp_eval → the program's value .*\n.*:total 1842/);
    expect(shown).toMatch(/saved {4}\d+\.\d% fewer context tokens/);
    expect(shown).not.toContain("\u001b[");
  });

  test("colours the view only on a terminal without NO_COLOR, or when asked", async () => {
    const terminal = buffer(true);
    await main([], { stdout: terminal.output, env: {} });
    expect(terminal.text()).toContain("\u001b[");
    const noColor = buffer(true);
    await main([], { stdout: noColor.output, env: { NO_COLOR: "1" } });
    expect(noColor.text()).not.toContain("\u001b[");
    const forced = buffer(false);
    await main(["--color"], { stdout: forced.output, env: {} });
    expect(forced.text()).toContain("\u001b[");
  });

  test("--json prints the step as JSON, the tool cache as an object and each turn with the messages it sent", async () => {
    const { output, text } = buffer();
    const { exitCode } = await main(["--json"], { stdout: output, env: {} });
    expect(exitCode).toBe(0);
    const step = JSON.parse(text()) as {
      return: string;
      toolCache: Record<string, { result: unknown[] }>;
      turns: { messages: unknown[] }[];
    };
    expect(step.return).toContain("1842");
    expect(Object.keys(step.toolCache)).toEqual(['["search_logs",{"query":"error code 42","since":"1h"}]']);
    expect(Object.values(step.toolCache)[0]?.result).toHaveLength(1842);
    expect(step.turns.map((turn) => turn.messages.length)).toEqual([1, 3, 5, 7]);
  });

  test("--transcript saves a JSON Lines transcript that replays to the same answer", async () => {
    const path = join(mkdtempSync(join(tmpdir(), "ptc-demo-")), "scripted.jsonl");
    const { output, text } = buffer();
    const { step } = await main(["--transcript", path], { stdout: output, env: {} });
    expect(text()).toContain(`Transcript saved to ${path}`);
    const replayed = replayTranscript(readFileSync(path, "utf8"));
    const again = await run(createTriageAgent(demoLogs()), { llm: replayed.llm });
    replayed.assertConsumed();
    expect(again.step.return).toBe(step?.return);
  });
});

describe("the demo with a live model", () => {
  test("drives the same agent over OpenAI Chat Completions and never prints or saves the API key", async () => {
    const apiKey = "sk-test-0123456789abcdef";
    const bodies: { messages: { role: string; content: string | null }[] }[] = [];
    const authorizations: string[] = [];
    const replies = [
      {
        role: "assistant",
        content: null,
        tool_calls: [
          {
            id: "call_a",
            type: "function",
            function: { name: "search_logs", arguments: '{"query":"error code 42","since":"1h"}' },
          },
        ],
      },
      { role: "assistant", content: "About 1842 errors; let me know if you want a breakdown." },
    ];
    const fetch = async (_url: string, init: RequestInit) => {
      bodies.push(JSON.parse(String(init.body)));
      authorizations.push(new Headers(init.headers).get("authorization") ?? "");
      const message = replies[bodies.length - 1];
      return new Response(JSON.stringify({ choices: [{ index: 0, message, finish_reason: "stop" }] }), {
        headers: { "content-type": "application/json" },
      });
    };
    const transcriptPath = join(mkdtempSync(join(tmpdir(), "ptc-demo-")), "run.jsonl");
    const { output, text } = buffer();
    const { exitCode, step } = await main(
      ["--provider", "openai", "--model", "test-model", "--api-key", apiKey, "--transcript", transcriptPath],
      { stdout: output, env: {}, fetch },
    );
    expect(exitCode).toBe(0);
    expect(step?.return).toContain("1842");
    expect(authorizations).toEqual([`Bearer ${apiKey}`, `Bearer ${apiKey}`]);
    const toolMessage = bodies[1]?.messages.find((message) => message.role === "tool");
    expect(JSON.parse(toolMessage?.content ?? "{}")).toMatchObject({
      result_count: 1842,
      full_result_cached: true,
    });
    expect(text()).toContain("openai · test-model");
    expect(text()).not.toContain(apiKey);

    const saved = readFileSync(transcriptPath, "utf8");
    expect(saved).not.toContain(apiKey);
    const records = saved
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { type: string });
    expect(new Set(records.map((record) => record.type))).toEqual(
      new Set(["run", "request", "response", "event", "step"]),
    );
    expect(records.filter((record) => record.type === "request")).toHaveLength(2);
  });
});

describe("the command line", () => {
  test("rejects an unknown flag with the usage text and exit code 2, running nothing", async () => {
    const { output, text } = buffer();
    const { exitCode, step } = await main(["--bogus"], { stdout: output, env: {} });
    expect(exitCode).toBe(2);
    expect(step).toBeUndefined();
    expect(text()).toContain("Usage: pnpm start");
  });

  test("asks for a model when a live provider is chosen", async () => {
    const { output, text } = buffer();
    const { exitCode } = await main(["--provider", "openai"], { stdout: output, env: {} });
    expect(exitCode).toBe(2);
    expect(text()).toContain("--provider openai needs --model");
  });
});
