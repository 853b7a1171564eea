/**
 * The fast tier must not only agree with the general evaluator (codegen.test.ts): it must run.
 * These tests count what it did, so a generator that quietly hands every unit back to the general
 * evaluator, or lacks the case for a node kind, fails here.
 */
import { afterEach, describe, expect, test } from "vitest";
import type { NodeKind } from "../analyzer/ast.js";
import { runDiscovery } from "../builtins/discovery.js";
import { registry } from "../builtins/index.js";
import { LispError } from "../errors.js";
import { format, run } from "../index.js";
import { codeGenerationWorks } from "../test-support.js";
import { Compiler } from "./compile.js";
import { fastTierStats, generationPolicy, resetFastTierStats } from "./fast-tier.js";

const tools = { echo: (args: Record<string, unknown>) => args };
const context = { xs: [1, 2, 3] };

/**
 * A program for every kind of core node. `pure` ones must run as generated code with no fallback.
 * The record is keyed by every NodeKind, so a new node kind does not type-check until it has a
 * program here (docs/contributing-special-forms.md).
 */
const NODE_PROGRAMS: Readonly<Record<NodeKind, { readonly program: string; readonly pure: boolean }>> = {
  const: { program: "(if true 1 2)", pure: true },
  local: { program: "(let [x 1] (+ x 1))", pure: true },
  var: { program: "(def x 1) (+ x 1)", pure: true },
  builtin: { program: "(mapv inc [1 2])", pure: true },
  data: { program: "(count data/xs)", pure: true },
  history: { program: "(or *1 0)", pure: true },
  if: { program: "(if (< 1 2) :yes :no)", pure: true },
  do: { program: "(let [x 1] (do (+ x 1) x))", pure: true },
  let: { program: "(let [[a b] [1 2] {:keys [c]} {:c 3}] (+ a b c))", pure: true },
  fn: { program: "((fn [x & more] (* x (count more))) 3 4 5)", pure: true },
  loop: { program: "(loop [i 0 acc 0] (if (< i 10) (recur (inc i) (+ acc i)) acc))", pure: true },
  recur: { program: "(loop [i 0] (if (< i 3) (recur (inc i)) i))", pure: true },
  call: { program: "(+ 1 (* 2 3))", pure: true },
  and: { program: "(and (< 1 2) :ok)", pure: true },
  or: { program: "(or (> 1 2) :ok)", pure: true },
  vector: { program: "[(+ 1 2) 4]", pure: true },
  set: { program: "#{(+ 1 2) 4}", pure: true },
  map: { program: "{:a (+ 1 2)}", pure: true },
  // A return or fail that does not happen, so the unit finishes in generated code.
  return: { program: "(let [x 2] (if (> x 5) (return x) (* x 2)))", pure: true },
  fail: { program: "(let [x 2] (if (> x 5) (fail x) (* x 2)))", pure: true },
  case: { program: "(case (+ 1 1) 1 :one (2 3) :few :many)", pure: true },
  for: { program: "(for [x [1 2 3] :let [y (* x x)] :when (odd? x)] y)", pure: true },
  budget: { program: "(let [b (budget/remaining)] (count b))", pure: true },
  tool: { program: "(tool/echo {:a 1})", pure: false },
  def: { program: "(def y 2)", pure: false },
  "parallel-map": { program: "(pmap inc [1 2])", pure: false },
  "parallel-calls": { program: "(pcalls (fn [] 1) (fn [] 2))", pure: false },
  task: { program: '(task "t1" (+ 1 2))', pure: false },
  "step-done": { program: '(step-done "s" "done")', pure: false },
  "task-reset": { program: '(task-reset "t1")', pure: false },
  discovery: { program: "(doc inc)", pure: false },
};

afterEach(() => {
  generationPolicy.failOnGap = true;
});

async function counted(source: string, engine: "fast" | "general" = "fast") {
  resetFastTierStats();
  const result = await run(source, { engine, tools, context });
  return { result, stats: { ...fastTierStats } };
}

// Where code generation is forbidden, no-eval.test.ts proves that none is attempted instead.
describe.runIf(codeGenerationWorks)("the generated-code tier runs for pure programs", () => {
  test.each(Object.entries(NODE_PROGRAMS).filter(([, sample]) => sample.pure))(
    "%s: runs in generated code, with no fallback",
    async (_kind, { program }) => {
      const { result, stats } = await counted(program);
      expect(result.ok, JSON.stringify(!result.ok && result.error)).toBe(true);
      expect(stats).toMatchObject({ generationGaps: 0, effectFallbacks: 0, errorReruns: 0 });
      expect(stats.fastRuns).toBeGreaterThan(0);
      // The same value as the general evaluator.
      const general = await run(program, { engine: "general", tools, context });
      expect(general.ok && format(general.value)).toBe(result.ok && format(result.value));
    },
  );

  test.each(Object.entries(NODE_PROGRAMS).filter(([, sample]) => !sample.pure))(
    "%s: has an effect, so it runs on the general evaluator",
    async (_kind, { program }) => {
      const { result, stats } = await counted(program);
      expect(result.ok, JSON.stringify(!result.ok && result.error)).toBe(true);
      expect(stats.generationGaps).toBe(0);
    },
  );

  test("a data program typical of an agent runs entirely in generated code", async () => {
    const { result, stats } = await counted(
      `(->> data/xs
            (map (fn [x] {:x x :sq (* x x)}))
            (filter #(odd? (:x %)))
            (group-by :x)
            (reduce-kv (fn [acc k rows] (assoc acc k (reduce + (map :sq rows)))) {}))`,
    );
    expect(result.ok && format(result.value)).toBe("{1 1 3 9}");
    expect(stats).toMatchObject({ generationGaps: 0, effectFallbacks: 0, errorReruns: 0 });
    expect(stats.fastRuns).toBeGreaterThan(0);
  });

  test("the general engine never enters generated code", async () => {
    const { stats } = await counted("(loop [i 0] (if (< i 3) (recur (inc i)) i))", "general");
    expect(stats).toMatchObject({ unitsGenerated: 0, fastRuns: 0 });
  });

  test("an effect reached from generated code is counted as a fallback", async () => {
    const { result, stats } = await counted("(defn show [x] (println x) x) (mapv (fn [y] (show y)) [1 2])");
    expect(result.ok && result.prints).toEqual(["1", "2"]);
    expect(stats.effectFallbacks).toBeGreaterThan(0);
  });

  test("an error raised in generated code is rerun for its position, and counted", async () => {
    const { result, stats } = await counted('(let [x "a"] (inc x))');
    expect(result.ok).toBe(false);
    expect(stats.errorReruns).toBe(1);
  });
});

describe("a pure node the generator has no code for", () => {
  // A call of a builtin the generator cannot find stands in for a node kind without a template.
  const missing = {
    kind: "call",
    callee: { kind: "builtin", name: "no-such-builtin", position: { line: 1, column: 2 } },
    args: [{ kind: "const", value: 1, position: { line: 1, column: 3 } }],
    position: { line: 1, column: 1 },
  } as const;
  const compiler = () =>
    new Compiler({
      builtin: (name) => registry.get(name),
      tier: "fast",
      discovery: (operation, args) => runDiscovery(registry, operation, args),
    });

  test("fails the tests (failOnGap, set by the test setup) instead of falling back", () => {
    expect(generationPolicy.failOnGap).toBe(true);
    resetFastTierStats();
    let thrown: unknown;
    try {
      compiler().compile(missing);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(LispError);
    expect((thrown as LispError).message).toMatch(/^fast tier: unknown builtin no-such-builtin/);
    expect(fastTierStats.generationGaps).toBe(1);
  });

  test("outside tests, falls back to the general evaluator and is counted", () => {
    generationPolicy.failOnGap = false;
    resetFastTierStats();
    // The general evaluator rejects the unknown builtin on its own terms.
    expect(() => compiler().compile(missing)).toThrow(/Undefined variable: no-such-builtin/);
    expect(fastTierStats.generationGaps).toBe(1);
  });
});
