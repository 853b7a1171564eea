import { describe, expect, test } from "vitest";
import { run } from "../index.js";
import { FUNCTION_INFO, type LispFunction } from "../values/lisp-function.js";
import { infoData } from "../values/transfer.js";

// A closure's info is a class whose ownedAccumulator is a getter (compiler/closures.ts): what a
// function is transferred as must still list it, in the order the object literal it replaced did.
describe("closure info", () => {
  async function fnValue(source: string, engine?: "general" | "fast"): Promise<LispFunction> {
    const result = await run(source, engine === undefined ? {} : { engine });
    if (!result.ok) throw new Error(result.error.message);
    return result.value as LispFunction;
  }

  for (const engine of [undefined, "general", "fast"] as const) {
    test(`transferred data names every field (${engine ?? "adaptive"})`, async () => {
      const owned = await fnValue("(fn [acc x] (conj acc x))", engine);
      expect(Object.keys(infoData(owned[FUNCTION_INFO]) ?? {})).toEqual([
        "name",
        "signature",
        "builtin",
        "minArity",
        "maxArity",
        "ownedAccumulator",
      ]);
      expect(infoData(owned[FUNCTION_INFO])).toMatchObject({
        signature: "acc x",
        builtin: false,
        minArity: 2,
        maxArity: 2,
        ownedAccumulator: true,
      });
      const shared = await fnValue("(fn [acc & more] (do (count acc) acc))", engine);
      expect(infoData(shared[FUNCTION_INFO])).toMatchObject({
        minArity: 1,
        maxArity: Number.POSITIVE_INFINITY,
        ownedAccumulator: false,
      });
    });
  }

  test("a closure's info shows no private state", async () => {
    const fn = await fnValue("(fn [acc x] (conj acc x))", "general");
    const info = fn[FUNCTION_INFO];
    expect(info.ownedAccumulator).toBe(true);
    expect(Object.keys(info)).toEqual(["name", "signature", "builtin", "minArity", "maxArity"]);
  });
});
