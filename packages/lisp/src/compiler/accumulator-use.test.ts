import { describe, expect, test } from "vitest";
import { format, type RunResult, run } from "../index.js";
import { analyzedFn, generatedSource } from "../test-support.js";
import { ownedAccumulator } from "./accumulator-use.js";
import { fastTierStats } from "./fast-tier.js";

describe("a function whose accumulator is only derived from (conj, assoc, update...) or handed back", () => {
  test.each([
    "(fn [acc x] (conj acc x))",
    "(fn [acc x] (conj acc (* 2 x) x))",
    "(fn [acc x] (if (odd? x) (conj acc x) acc))",
    "(fn [acc {:keys [a]}] (let [b (inc a)] (if (pos? b) (conj acc b) acc)))",
    "(fn [acc x] (case x 1 (conj acc :one) acc))",
    "(fn [acc x] (do (inc x) (conj acc x)))",
    "(fn [acc x] (into acc [x]))",
    "(fn [acc o] (update acc (:k o) (fnil + 0) (:n o)))",
    "(fn [acc o] (merge-with + acc {(:k o) (:n o)}))",
    "(fn [acc o] (update-in acc [(:a o) (:b o)] (fnil + 0) 1))",
    "(fn [acc o] (if (:skip o) acc (assoc acc (:id o) o)))",
    "(fn [acc [k v]] (dissoc acc k))",
    // nil is handed back when x is falsy: not the accumulator, but nothing escapes either.
    "(fn [acc x] (when x (conj acc x)))",
  ])("%s qualifies", (source) => {
    expect(ownedAccumulator(analyzedFn(source))).toBe(true);
  });

  test.each([
    "(fn [acc x] (conj acc (count acc)))",
    "(fn [acc x] [acc x])",
    "(fn [acc x] (let [a2 (conj acc x)] (conj a2 x)))",
    "(fn [acc x] (if (empty? acc) (conj acc x) acc))",
    "(fn [acc x] (conj (conj acc x) x))",
    "(fn [acc x] (do (println acc) (conj acc x)))",
    "(fn [acc x] (mapv (fn [y] (conj acc y)) [x]))",
    "(fn [[a] x] (conj a x))",
    "(fn [acc o] (merge-with + acc o))",
    "(fn [acc o] (assoc acc :all acc))",
    "(fn [acc o] (update acc :k (fn [old] (count acc))))",
    // An empty path hands the whole accumulator to the function; a path known only at run time
    // may be empty.
    "(fn [acc x] (update-in acc [] (fn [m] (assoc m x m))))",
    "(fn [acc o] (update-in acc (:path o) inc))",
  ])("%s does not", (source) => {
    expect(ownedAccumulator(analyzedFn(source))).toBe(false);
  });
});

describe("update-in with an empty path in a reduce fn", () => {
  // The function is given the accumulator itself: changed in place, it would end up inside itself.
  test.each([
    [
      "(let [r (reduce (fn [acc x] (update-in acc [] (fn [m] (assoc m x m)))) {} [:a :b])] [(keys r) (get r :b)])",
      "[[:a :b] {:a {}}]",
    ],
    ["(let [r (reduce (fn [acc x] (update-in acc [] (fn [m] (conj m m)))) [] [1 2])] r)", "[[] [[]]]"],
    [
      "(let [p [] r (reduce (fn [acc x] (update-in acc p (fn [m] (assoc m x m)))) {} [:a :b])] (get r :b))",
      "{:a {}}",
    ],
  ])("%s", async (source, expected) => {
    for (const engine of ["general", "fast", "adaptive"] as const) {
      for (let i = 0; i < 3; i++) {
        const result = await run(source, { engine });
        expect(result.ok && format(result.value)).toBe(expected);
      }
    }
  });
});

describe("generated code folds an owned accumulator in place", () => {
  const programs = [
    "(reduce (fn [acc x] (conj acc (* x x))) [] (range 10))",
    "(reduce (fn [acc x] (if (odd? x) (conj acc x) acc)) [0] (range 10))",
    "(reduce (fn [acc x] (if (> x 5) [x] (conj acc x))) [] (range 10))",
    "(reduce (fn [acc x] (assoc acc (mod x 3) x)) {} (range 10))",
    "(reduce (fn [acc x] (update acc (mod x 4) (fnil + 0) x)) {:start 1} (range 20))",
    "(reduce (fn [acc x] (merge-with + acc {(mod x 3) 1})) {} (range 30))",
    "(reduce (fn [acc x] (conj acc x)) nil [1 2 3])",
    "(reduce (fn [acc x] (conj acc x)) #{} [1 2 2 3])",
    "(let [v [1 2]] [(reduce (fn [acc x] (conj acc x)) v [3 4]) v])",
    "(let [m {:a 1}] [(reduce (fn [acc x] (assoc acc x 0)) m [:b :c]) m])",
    "(reduce (fn [acc x] (conj acc (reduce (fn [inner y] (conj inner y)) [] (range x)))) [] (range 4))",
    "(reduce (fn [acc x] (conj acc (/ 1 x))) [] [1 2 0])",
  ];

  test.each(programs)("%s agrees with the general evaluator", async (source) => {
    const fast = await run(source, { engine: "fast" });
    const general = await run(source, { engine: "general" });
    const seen = (result: RunResult) => (result.ok ? format(result.value) : result.error);
    expect(seen(fast)).toEqual(seen(general));
  });

  test("the fold owns its copy: 50,000 conjes cost linear copying, with no rerun", async () => {
    const source = "(count (reduce (fn [acc x] (conj acc x)) [] (range 50000)))";
    expect(generatedSource(source)).toContain("$.ownerToken(");
    const reruns = fastTierStats.errorReruns;
    // Copying the vector at every step would copy 1.25e9 slots, far past the copy allowance.
    const result = await run(source, { engine: "fast", limits: { maxMemoryBytes: 10_000_000 } });
    expect(result.ok && result.value).toBe(50000);
    expect(fastTierStats.errorReruns).toBe(reruns);
  });
});
