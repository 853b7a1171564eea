/**
 * The no-eval path: where code may not be generated from strings (a page whose CSP lacks
 * 'unsafe-eval', an edge runtime, `node --disallow-code-generation-from-strings`), or where the
 * host switched it off, programs give the outcomes generated code gives (values, output, tool
 * calls, errors with their reasons, messages and positions: __fixtures__/no-eval-outcomes.json is
 * what the fast engine produced), and nothing calls `new Function` when the host said "off", not
 * even to probe. CI runs this file, with the rest of the suites, both ways.
 *
 * Each test loads a fresh copy of the package (`vi.resetModules`), since the setting and the
 * probe's answer belong to the realm.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { afterEach, describe, expect, test, vi } from "vitest";
import { type CorpusEntry, corpus, orderRows } from "./__fixtures__/no-eval-corpus.mjs";
import { codeGenerationWorks } from "./test-support.js";

const fixture = new URL("./__fixtures__/no-eval-outcomes.json", import.meta.url);
const updating = process.env.UPDATE_FIXTURES === "1";
const expected: Record<string, unknown> = updating ? {} : JSON.parse(readFileSync(fixture, "utf8"));

type Engine = "adaptive" | "fast" | "general";

/** A fresh copy of the package, with the counters of the same copy. */
async function freshPackage() {
  vi.resetModules();
  const lisp = await import("./index.js");
  const tier = await import("./compiler/fast-tier.js");
  // As vitest.setup.ts does for the suite's own copy: a missing template fails, never hides.
  tier.generationPolicy.failOnGap = true;
  tier.resetFastTierStats();
  return { lisp, stats: tier.fastTierStats };
}

type Lisp = Awaited<ReturnType<typeof freshPackage>>["lisp"];

/** Everything a program's run shows, as JSON data. */
async function outcomeOf(lisp: Lisp, entry: CorpusEntry, engine: Engine): Promise<unknown> {
  const tools = Object.fromEntries(
    Object.entries(entry.tools ?? {}).map(([name, result]) => [name, () => result]),
  );
  const result = await lisp.run(entry.program, {
    engine,
    tools,
    ...(entry.context === undefined ? {} : { context: entry.context }),
    ...(entry.limits === undefined ? {} : { limits: entry.limits }),
  });
  const common = { prints: result.prints, toolCalls: result.toolCalls.map((call) => [call.name, call.args]) };
  if (!result.ok) {
    const { reason, message, line, column } = result.error;
    return { ...common, error: { reason, message, line: line ?? null, column: column ?? null } };
  }
  return {
    ...common,
    value: lisp.format(result.value),
    json: lisp.toJson(result.value),
    returned: result.returned,
  };
}

async function outcomesOf(lisp: Lisp, engine: Engine): Promise<Record<string, unknown>> {
  const outcomes: Record<string, unknown> = {};
  for (const entry of corpus) outcomes[entry.name] = await outcomeOf(lisp, entry, engine);
  return outcomes;
}

/**
 * Stands in for a strict CSP: `Function` (called or constructed) throws as a browser would, and
 * every attempt is counted.
 */
function trapCodeGeneration() {
  const original = globalThis.Function;
  let attempts = 0;
  const refuse = (): never => {
    attempts++;
    throw new EvalError("Code generation from strings disallowed (trapped by no-eval.test.ts)");
  };
  globalThis.Function = new Proxy(original, { construct: refuse, apply: refuse });
  return {
    attempts: () => attempts,
    restore: () => {
      globalThis.Function = original;
    },
  };
}

let restore: (() => void) | undefined;
afterEach(() => {
  restore?.();
  restore = undefined;
  vi.unstubAllEnvs();
});

const nothingGenerated = { unitsGenerated: 0, fastRuns: 0, promotions: 0, fieldReaders: 0 };

describe("code generation switched off by the host", () => {
  test.skipIf(updating).each(["adaptive", "fast", "general"] as const)(
    "engine %s: the corpus gives generated code's outcomes, and nothing calls Function, not even a probe",
    async (engine) => {
      const { lisp, stats } = await freshPackage();
      lisp.setCodeGeneration("off");
      const trap = trapCodeGeneration();
      restore = trap.restore;
      const outcomes = await outcomesOf(lisp, engine);
      expect(trap.attempts()).toBe(0);
      expect(stats).toMatchObject({ ...nothingGenerated, probes: 0 });
      expect(lisp.codeGenerationStatus()).toBe("off");
      expect(outcomes).toEqual(expected);
    },
  );

  test("PTC_LISP_CODEGEN=off switches it off before the first run", async () => {
    vi.stubEnv("PTC_LISP_CODEGEN", "off");
    const { lisp, stats } = await freshPackage();
    expect(lisp.codeGenerationStatus()).toBe("off");
    const result = await lisp.run("(reduce + (map (fn [x] (* x x)) (range 3000)))");
    expect(result.ok && result.value).toBe(8995500500);
    expect(stats).toMatchObject({ ...nothingGenerated, probes: 0 });
  });

  test("setCodeGeneration refuses anything but auto and off, and says which it takes", async () => {
    const { lisp } = await freshPackage();
    expect(() => lisp.setCodeGeneration("never" as "off")).toThrow(
      expect.objectContaining({
        reason: "invalid_options",
        message: expect.stringMatching(/"auto" or "off", got "never"/),
      }),
    );
    expect(lisp.codeGenerationStatus()).toBe("unprobed");
  });
});

describe("a run with engine general", () => {
  test("generates nothing and never probes, even on auto", async () => {
    const { lisp, stats } = await freshPackage();
    const trap = trapCodeGeneration();
    restore = trap.restore;
    const outcomes = await outcomesOf(lisp, "general");
    expect(trap.attempts()).toBe(0);
    expect(stats).toMatchObject({ ...nothingGenerated, probes: 0 });
    expect(lisp.codeGenerationStatus()).toBe("unprobed");
    if (!updating) expect(outcomes).toEqual(expected);
  });

  test.runIf(codeGenerationWorks)(
    "keeps a session's hot function and a hot keyword on the general evaluator, where another run would generate code",
    async () => {
      const { lisp, stats } = await freshPackage();
      const session = lisp.createSession();
      const orders = orderRows(2500);
      const total = orders.reduce((sum, order) => sum + order.amount, 0);
      // Made by an adaptive run; called 2,500 times, and reads :amount 2,500 times, in a general one.
      // Engines named throughout: CI runs this file again with PTC_LISP_ENGINE set.
      await lisp.run("(defn amount [o] (:amount o))", { session, engine: "adaptive" });
      const general = await lisp.run("(reduce + (map amount data/orders))", {
        session,
        context: { orders },
        engine: "general",
      });
      expect(general.ok && general.value).toBe(total);
      expect(stats).toMatchObject({ promotions: 0, fieldReaders: 0, unitsGenerated: 0 });
      // An adaptive run reading the same (by now hot) keyword in a builtin gets its field reader.
      await lisp.run("(count (group-by :amount data/orders))", { context: { orders }, engine: "adaptive" });
      expect(stats.fieldReaders).toBe(1);
      // Which a general run then does not call either: it runs no generated code at all.
      const keyword = lisp.Keyword.of("amount") as unknown as { reader: (...args: unknown[]) => unknown };
      const reader = keyword.reader;
      let calls = 0;
      keyword.reader = (...args) => {
        calls++;
        return reader(...args);
      };
      const program = "(count (group-by :amount data/orders))";
      await lisp.run(program, { context: { orders }, engine: "general" });
      expect(calls).toBe(0);
      // (A new text: a text run again on adaptive is compiled whole, with its field reads inline.)
      await lisp.run(`${program} ;; once more`, { context: { orders }, engine: "adaptive" });
      expect(calls).toBeGreaterThan(0);
    },
  );
});

describe("code generation left on auto", () => {
  test("the first run that could use generated code probes once, and the answer stands", async () => {
    const { lisp, stats } = await freshPackage();
    expect(lisp.codeGenerationStatus()).toBe("unprobed");
    await lisp.run("(+ 1 2)", { engine: "adaptive" });
    expect(stats.probes).toBe(1);
    expect(lisp.codeGenerationStatus()).toBe(codeGenerationWorks ? "available" : "unavailable");
    await lisp.run("(* 2 3)", { engine: "fast" });
    expect(stats.probes).toBe(1);
  });

  test.skipIf(updating)(
    "where code generation is refused, it is detected once and the corpus gives generated code's outcomes",
    async () => {
      const { lisp, stats } = await freshPackage();
      // Under the Node flag the platform refuses; elsewhere the trap does, as a strict CSP would.
      const trap = codeGenerationWorks ? trapCodeGeneration() : undefined;
      restore = trap?.restore;
      const outcomes = { fast: await outcomesOf(lisp, "fast"), adaptive: await outcomesOf(lisp, "adaptive") };
      expect(lisp.codeGenerationStatus()).toBe("unavailable");
      expect(stats).toMatchObject({ ...nothingGenerated, probes: 1 });
      if (trap !== undefined) expect(trap.attempts()).toBe(1);
      expect(outcomes.fast).toEqual(expected);
      expect(outcomes.adaptive).toEqual(expected);
    },
  );

  test.runIf(codeGenerationWorks)(
    "the fixture is what generated code gives, and generated code ran for it",
    async () => {
      const { lisp, stats } = await freshPackage();
      const fast = await outcomesOf(lisp, "fast");
      expect(stats.unitsGenerated).toBeGreaterThan(20);
      expect(stats.fastRuns).toBeGreaterThan(20);
      const adaptive = await outcomesOf(lisp, "adaptive");
      expect(stats.promotions).toBeGreaterThan(0);
      expect(stats.fieldReaders).toBeGreaterThan(0);
      expect(adaptive).toEqual(fast);
      if (updating) writeFileSync(fixture, `${JSON.stringify(fast, null, 2)}\n`);
      else expect(fast).toEqual(expected);
    },
  );
});
