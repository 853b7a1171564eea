/**
 * A literal comparator that only calls `compare` (analyzer/comparators.ts) is written as :asc or
 * :desc. These tests prove the rewrite happens and that it orders exactly as the comparator did
 * (compared with the same comparator in a shape the rewrite leaves alone).
 */
import { describe, expect, test } from "vitest";
import { format, run } from "../index.js";
import { analyzedBody } from "../test-support.js";
import type { Node } from "./ast.js";

function comparatorOf(source: string): Node | undefined {
  const body = analyzedBody(source);
  const call = body.kind === "do" ? body.body[body.body.length - 1] : body;
  return call?.kind === "call" ? call.args[1] : undefined;
}

describe("(sort-by key #(compare %2 %1) coll)", () => {
  test("the comparator becomes :desc or :asc", () => {
    expect(comparatorOf("(sort-by :a #(compare %2 %1) [])")).toMatchObject({ kind: "const" });
    expect(format((comparatorOf("(sort-by :a #(compare %2 %1) [])") as { value: unknown }).value)).toBe(
      ":desc",
    );
    expect(
      format((comparatorOf("(sort-by :a (fn [x y] (compare x y)) [])") as { value: unknown }).value),
    ).toBe(":asc");
    // Anything else stays a function.
    for (const source of [
      "(sort-by :a (fn [x y] (compare x x)) [])",
      "(sort-by :a (fn [x y] (- (compare y x))) [])",
      "(sort-by :a (fn [x & more] (compare x x)) [])",
      "(let [compare (fn [a b] 0)] (sort-by :a (fn [x y] (compare y x)) []))",
    ])
      expect(comparatorOf(source)?.kind, source).not.toBe("const");
  });

  const collections = [
    "[{:a 3 :i 0} {:a 1 :i 1} {:a 3 :i 2} {:a 2 :i 3} {:a 1 :i 4}]",
    "[{:a 1.5 :i 0} {:a 1 :i 1} {:a 2.0 :i 2} {:a 2 :i 3} {:a ##NaN :i 4} {:a 0 :i 5}]",
    '[{:a "b" :i 0} {:a :k :i 1} {:a nil :i 2} {:a [1 2] :i 3} {:a 5 :i 4} {:a "a" :i 5} {:a {:x 1} :i 6}]',
    '[{:a [1 "x"] :i 0} {:a [1 "y"] :i 1} {:a [0 "z"] :i 2} {:a [1 "x"] :i 3}]',
  ];
  test.each(collections)("orders %s as the comparator does, ties kept in order", async (coll) => {
    for (const [rewritten, kept] of [
      ["#(compare %2 %1)", "(fn [x y] (let [r (compare y x)] r))"],
      ["#(compare %1 %2)", "(fn [x y] (let [r (compare x y)] r))"],
    ]) {
      for (const engine of ["adaptive", "fast", "general"] as const) {
        const a = await run(`(mapv :i (sort-by :a ${rewritten} ${coll}))`, { engine });
        const b = await run(`(mapv :i (sort-by :a ${kept} ${coll}))`, { engine });
        expect(a.ok && format(a.value), `${rewritten} ${engine}`).toBe(b.ok && format(b.value));
      }
    }
  });
});
