/**
 * Work that is done again is counted once. Generated code that meets an effect (or an error it
 * cannot locate) runs its unit again on the general evaluator, and a lazy pipeline that gives up
 * runs its stages again eagerly: the meters (iterations, memory, copy allowance) must be back where
 * they stood before the work that is repeated, or the fast engine stops programs that the general
 * engine finishes. Each case uses about two thirds of one limit before it reaches its effect, so
 * counting the first attempt too passes the limit.
 */
import { describe, expect, test } from "vitest";
import { lazyPipelineStats } from "../builtins/lazy-pipeline.js";
import { type RunOptions, run } from "../index.js";
import { codeGenerationWorks } from "../test-support.js";
import { fastTierStats, resetFastTierStats } from "./fast-tier.js";

const ENGINES = ["general", "fast", "adaptive"] as const;
// Where code generation is forbidden every engine runs the general evaluator: nothing falls back.
const ENGINES_HERE = ENGINES.filter((engine) => engine === "general" || codeGenerationWorks);

let textCounter = 0;
/** A text no earlier run used, so the program cache hands back no code compiled by another test. */
const unique = (source: string) => `(let [fresh-${++textCounter} 0] ${source})`;

/** `g` has an effect (println); calling it from generated code makes the unit run again. */
const withEffect = (body: string) => unique(`(let [g (fn [x] (println "reached") x)] ${body})`);

async function runOn(engine: (typeof ENGINES)[number], source: string, options: RunOptions = {}) {
  resetFastTierStats();
  const fallbacksBefore = lazyPipelineStats.eagerFallbacks;
  const result = await run(source, { ...options, engine, limits: { timeoutMs: 10_000, ...options.limits } });
  return {
    result,
    effectFallbacks: fastTierStats.effectFallbacks,
    eagerFallbacks: lazyPipelineStats.eagerFallbacks - fallbacksBefore,
  };
}

describe.each(ENGINES_HERE)("on the %s engine", (engine) => {
  // The general evaluator never falls back; the other two must have fallen back for the case to
  // test anything (the adaptive engine promotes the loop after its first thousand jumps).
  const fellBack = (count: number) => {
    if (engine !== "general") expect(count).toBeGreaterThan(0);
  };

  test("a loop that used most of the iteration limit before an effect is not counted twice", async () => {
    const { result, effectFallbacks } = await runOn(
      engine,
      withEffect("(loop [i 0] (if (< i 600000) (recur (inc i)) (g i)))"),
    );
    expect(result.ok ? result.value : result.error).toBe(600000);
    expect(result.prints).toEqual(["reached"]);
    fellBack(effectFallbacks);
  });

  test("a generated function that falls back mid-call is not counted twice", async () => {
    // f is a pure fn form, made as a generated function. Its call has an effect in its argument,
    // so the general evaluator makes it: the function runs in pure mode, reaches (g i), and
    // runs the call again as a closure of the general evaluator.
    const { result, effectFallbacks } = await runOn(
      engine,
      withEffect(
        '(let [f (fn [n] (loop [i 0] (if (< i n) (recur (inc i)) (g i))))] (f (do (println "calling") 600000)))',
      ),
    );
    expect(result.ok ? result.value : result.error).toBe(600000);
    expect(result.prints).toEqual(["calling", "reached"]);
    fellBack(effectFallbacks);
  });

  test("memory charged before an effect is not charged twice", async () => {
    // Ten pairs of vectors of 30,000 slots, built after the loop's first thousand jumps (where
    // the adaptive engine has moved it to generated code): about 4.8 MB, once.
    const { result, effectFallbacks } = await runOn(
      engine,
      withEffect(
        "(loop [i 0 v []] (if (< i 1010) (recur (inc i) (if (< i 1000) v (mapv inc (range 30000)))) (g (count v))))",
      ),
      { limits: { maxMemoryBytes: 7_000_000 } },
    );
    expect(result.ok ? result.value : result.error).toBe(30000);
    fellBack(effectFallbacks);
  });

  test("vector copies made before an effect are not charged twice to the copy allowance", async () => {
    // 2,000 conj on a growing vector copy about 16 MB of slots; the allowance is 20 MB.
    const { result, effectFallbacks } = await runOn(
      engine,
      withEffect("(loop [v [] i 0] (if (< i 2000) (recur (conj v i) (inc i)) (g (count v))))"),
      { limits: { maxMemoryBytes: 1_000_000 } },
    );
    expect(result.ok ? result.value : result.error).toBe(2000);
    fellBack(effectFallbacks);
  });

  test("a lazy pipeline that gives up and runs eagerly counts its callbacks' work once", async () => {
    // The first two items jump 400,000 times each; the third reaches the effect, so the lazy run
    // gives up and the stages run again on the eager builtins.
    const { result, eagerFallbacks } = await runOn(
      engine,
      withEffect(
        "(count (map (fn [x] (if (= x 2) (g x) (loop [i 0] (if (< i 400000) (recur (inc i)) i)))) [0 1 2]))",
      ),
    );
    expect(result.ok ? result.value : result.error).toBe(3);
    expect(result.prints).toEqual(["reached"]);
    // In generated code the effect reruns the whole unit instead; either way the work is redone.
    if (engine === "general") expect(eagerFallbacks).toBeGreaterThan(0);
  });

  test("the iteration limit still holds across a fallback", async () => {
    // 1,200,000 jumps before the effect: over the limit however they are counted.
    const { result } = await runOn(
      engine,
      withEffect("(loop [i 0] (if (< i 1200000) (recur (inc i)) (g i)))"),
    );
    expect(result.ok ? "finished" : result.error.reason).toBe("loop_limit_exceeded");
  });
});
