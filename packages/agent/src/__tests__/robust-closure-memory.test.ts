/**
 * The memory limit over what a program leaves behind counts what closures captured. A PTC-Lisp
 * function is a JS function whose scope cannot be read, so before, `(def f (let [big ...] (fn []
 * big)))` kept any amount of data between turns while the memory measured nothing for it: turn
 * after turn, past any `memoryLimit`.
 */
import { capturedValues, run as runLisp } from "@ptc/lisp";
import { describe, expect, test } from "vitest";
import { createAgent, run } from "../index.js";
import { createScriptedModel } from "../testing/index.js";

const fence = (code: string) => `\`\`\`clojure\n${code}\n\`\`\``;
const big = (letter: string) => `(apply str (map (fn [_] "${letter}") (range 100000)))`;

describe("memoryLimit and closures", () => {
  test("a def'd closure's captured text counts (strict: the run ends)", async () => {
    const model = createScriptedModel([fence(`(def f (let [big ${big("a")}] (fn [] big)))\n1`)]);
    const agent = createAgent({ prompt: "p", maxTurns: 3, memoryLimit: 1000 });
    const result = await run(agent, { llm: model.llm });
    expect(result.ok).toBe(false);
    expect(result.step.fail?.reason).toBe("memory_limit_exceeded");
  });

  test("a closure inside a def'd map counts too (rollback: the turn is undone, nothing kept)", async () => {
    const model = createScriptedModel([
      fence(`(def g {:h (let [big ${big("b")}] (fn [] big))})\n2`),
      fence("(return (if (resolve 'g) :kept :undone))"),
    ]);
    const agent = createAgent({ prompt: "p", maxTurns: 4, memoryLimit: 1000, memoryStrategy: "rollback" });
    const result = await run(agent, { llm: model.llm });
    expect(result.step.turns?.[0]).toMatchObject({ success: false });
    expect(Object.keys(result.step.memory ?? {})).not.toContain("g");
  });

  test("a closure that captures little stays within the limit", async () => {
    const model = createScriptedModel([
      fence("(def f (let [n 41] (fn [] (inc n))))\n1"),
      fence("(return (f))"),
    ]);
    const agent = createAgent({ prompt: "p", maxTurns: 3, memoryLimit: 1000 });
    const result = await run(agent, { llm: model.llm });
    expect(result.ok).toBe(true);
    expect(result.step.return).toBe(42);
  });
});

describe("capturedValues (@ptc/lisp)", () => {
  for (const engine of ["general", "fast", undefined] as const) {
    test(`finds what closures captured, nested in maps and closures (engine ${engine ?? "adaptive"})`, async () => {
      const result = await runLisp(
        `(let [a "alpha" b [1 2] inner (let [c "gamma"] (fn [] c))] {:f (fn [] [a b]) :g (fn [] (inner)) :n 1})`,
        engine === undefined ? {} : { engine },
      );
      expect(result.ok).toBe(true);
      if (!result.ok) return;
      const found = capturedValues(result.value);
      expect(found).toContain("alpha");
      expect(found).toContainEqual([1, 2]);
      expect(found).toContain("gamma");
      expect(capturedValues(42)).toEqual([]);
      expect(capturedValues({ plain: () => 1 })).toEqual([]);
    });
  }
});
