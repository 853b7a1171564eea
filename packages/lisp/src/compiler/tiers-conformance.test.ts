/**
 * The three engines agree on the conformance corpus (../shared/conformance, outside this
 * repository: skipped where it is absent). Every program runs on "general", "fast" and "adaptive"
 * with promotion at the first call, and must give the same value, output, tool calls, and for a
 * failure the same reason, message and position. The counters prove that generated code ran, so
 * agreement cannot come from every engine quietly using the general evaluator.
 */
import { existsSync, readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { format, REFERENCE_LIMITS, type RunResult, run } from "../index.js";
import { codeGenerationWorks } from "../test-support.js";
import { fastTierStats, resetFastTierStats } from "./fast-tier.js";
import { promotionPolicy } from "./promotion.js";

const corpus = new URL("../../../../../shared/conformance/lisp-cases.jsonl", import.meta.url);

interface Case {
  readonly id: string;
  readonly program: string;
  readonly context: Record<string, unknown> | null;
  readonly tools: Record<string, { echo?: boolean; error?: string; returns?: unknown }> | null;
}

function toolsOf(spec: Case["tools"]) {
  if (spec === null) return undefined;
  const tools: Record<string, (args: Record<string, unknown>) => Promise<unknown>> = {};
  for (const [name, stub] of Object.entries(spec)) {
    if (stub.echo) tools[name] = async (args) => args;
    else if ("error" in stub)
      tools[name] = async () => {
        throw new Error(String(stub.error));
      };
    else tools[name] = async () => structuredClone(stub.returns);
  }
  return tools;
}

function outcome(result: RunResult): string {
  const common = {
    prints: result.prints,
    tools: result.toolCalls.map((call) => [call.name, call.args, call.error ?? null]),
  };
  if (!result.ok) {
    const { reason, message, line, column } = result.error;
    return JSON.stringify({ ...common, error: { reason, message, line, column } });
  }
  return JSON.stringify({ ...common, value: format(result.value), returned: result.returned });
}

describe.skipIf(!existsSync(corpus))("the engines agree on the conformance corpus", () => {
  const thresholdBefore = promotionPolicy.threshold;
  beforeAll(() => {
    promotionPolicy.threshold = 0;
  });
  afterAll(() => {
    promotionPolicy.threshold = thresholdBefore;
  });

  test("every program: general, fast and adaptive give the same outcome", { timeout: 120_000 }, async () => {
    const cases: Case[] = readFileSync(corpus, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line));
    const generated = { unitsGenerated: 0, fastRuns: 0, promotions: 0, probes: 0, fieldReaders: 0 };
    const disagreements: string[] = [];
    for (const c of cases) {
      const outcomes: string[] = [];
      for (const engine of ["general", "fast", "adaptive"] as const) {
        resetFastTierStats();
        const tools = toolsOf(c.tools);
        const result = await run(c.program, {
          engine,
          limits: REFERENCE_LIMITS,
          ...(c.context === null ? {} : { context: c.context }),
          ...(tools === undefined ? {} : { tools }),
        });
        if (engine === "fast") {
          generated.unitsGenerated += fastTierStats.unitsGenerated;
          generated.fastRuns += fastTierStats.fastRuns;
        }
        if (engine === "adaptive") generated.promotions += fastTierStats.promotions;
        generated.probes += fastTierStats.probes;
        generated.fieldReaders += fastTierStats.fieldReaders;
        outcomes.push(outcome(result));
      }
      if (outcomes[1] !== outcomes[0] || outcomes[2] !== outcomes[0])
        disagreements.push(`${c.id} ${c.program}\n  ${outcomes.join("\n  ")}`);
    }
    expect(disagreements).toEqual([]);
    expect(cases.length).toBeGreaterThan(2000);
    if (codeGenerationWorks) {
      // Generated code ran on a large part of the corpus, on both engines that generate it.
      expect(generated.unitsGenerated).toBeGreaterThan(1000);
      expect(generated.fastRuns).toBeGreaterThan(1000);
      expect(generated.promotions).toBeGreaterThan(300);
    } else {
      // Forbidden here: the three engines ran it all on the general evaluator, after one probe.
      expect(generated).toMatchObject({ unitsGenerated: 0, fastRuns: 0, promotions: 0, fieldReaders: 0 });
      expect(generated.probes).toBeLessThanOrEqual(1);
    }
  });
});
