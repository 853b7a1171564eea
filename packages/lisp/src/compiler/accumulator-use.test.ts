import { describe, expect, test } from "vitest";
import { analyzeProgram } from "../analyzer/analyze.js";
import type { Node } from "../analyzer/ast.js";
import { registry } from "../builtins/index.js";
import { read } from "../reader/reader.js";
import { ownedAccumulator } from "./accumulator-use.js";

/** The fn form a program is made of. */
function fnOf(source: string): Extract<Node, { kind: "fn" }> {
  const { body } = analyzeProgram(read(source), {
    isBuiltin: (name) => registry.has(name),
    userNames: new Set(),
    toolNames: new Set(),
  });
  if (body.kind !== "fn") throw new Error(`not a fn: ${source}`);
  return body;
}

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
    expect(ownedAccumulator(fnOf(source))).toBe(true);
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
  ])("%s does not", (source) => {
    expect(ownedAccumulator(fnOf(source))).toBe(false);
  });
});
