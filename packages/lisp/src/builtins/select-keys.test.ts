/**
 * select-keys called as a builtin (the general evaluator, and generated code for key lists it
 * cannot see) with a vector of distinct keywords without hyphens takes selectKeywords' route, not
 * the map builder. These tests prove the route ran (its counter) and that its maps, charges and
 * errors are the builder's: the same key list with a repeated keyword takes the builder.
 */
import { describe, expect, test } from "vitest";
import { format, type RunOptions, type RunResult, run, toJson } from "../index.js";
import { withCountedReaders } from "../test-support.js";
import { selectKeysStats } from "./maps.js";

function outcome(result: RunResult): unknown {
  return result.ok ? { value: format(result.value), json: toJson(result.value) } : { error: result.error };
}

/** The general evaluator's outcome with the route and without it (a repeated keyword); both must agree. */
async function agree(keys: string, options: RunOptions): Promise<{ outcome: unknown; routed: number }> {
  const program = (list: string) => `(mapv #(select-keys % ${list}) data/rows)`;
  const before = selectKeysStats.keywordLists;
  const routed = await run(program(`[${keys}]`), { ...options, engine: "general" });
  const count = selectKeysStats.keywordLists - before;
  const first = keys.split(" ")[0] ?? "";
  const builder = await run(program(`[${keys} ${first}]`), { ...options, engine: "general" });
  expect(selectKeysStats.keywordLists - before, "a repeated keyword takes the builder").toBe(count);
  expect(outcome(routed), keys).toEqual(outcome(builder));
  const fast = await run(program(`[${keys}]`), { ...options, engine: "fast" });
  expect(outcome(fast), keys).toEqual(outcome(routed));
  return { outcome: outcome(routed), routed: count };
}

const rows = Array.from({ length: 500 }, (_, i) => ({
  id: i,
  region: ["north", "south"][i % 2] as string,
  amount: i % 3 === 0 ? null : i * 1.5,
  ...(i % 5 === 0 ? {} : { tier: "gold" }),
}));

describe("select-keys with a vector of distinct keywords, as a builtin", () => {
  test("takes the keyword route on the general evaluator, with the builder's maps", async () => {
    const { routed } = await agree(":id :amount :tier", { context: { rows } });
    expect(routed).toBe(rows.length);
  });

  test("over program maps, string keys, nil and hostile rows, the same answers", async () => {
    const hostile = JSON.parse(
      '[{"__proto__": {"id": 9}, "id": 1, "constructor": "x", "\\u0000id": 2}, {"toString": 3, "id": 4}]',
    ) as unknown[];
    const mixed = [{ id: 1 }, null, { "": 2 }, Object.create(null)];
    for (const data of [hostile, mixed])
      await agree(":id :constructor :toString :__proto__", { context: { rows: data } });
    await agree(":a :b", { context: { rows: [] } });
    const maps = await run('(mapv #(select-keys % [:a :b]) [{:a 1 "b" 2} {"a" 1 :b nil} {}])', {
      engine: "general",
    });
    expect(maps.ok && format(maps.value)).toBe("[{:a 1 :b 2} {:a 1 :b nil} {}]");
  });

  test("errors and the memory limit are the builder's", async () => {
    const { outcome: bad } = await agree(":a", { context: { rows: [1] } });
    expect(bad).toMatchObject({ error: { reason: "type_error" } });
    const { outcome: full } = await agree(":id :region :amount", {
      context: { rows },
      limits: { maxMemoryBytes: 20_000 },
    });
    expect(full).toMatchObject({ error: { reason: "memory_exceeded" } });
  });

  test("reads a hot keyword through its own reader, with the same maps", async () => {
    await withCountedReaders(["id", "amount", "tier"], async (calls) => {
      const routed = await run("(mapv #(select-keys % [:id :amount :tier]) data/rows)", {
        context: { rows },
        engine: "general",
      });
      expect(routed.ok).toBe(true);
      // One read per row and keyword on the keyword route.
      expect(calls).toEqual({ id: rows.length, amount: rows.length, tier: rows.length });
      await agree(":id :amount :tier", { context: { rows } });
      const hostile = JSON.parse(
        '[{"__proto__": {"id": 9}, "tier": 1}, {"id": null, "amount": 2}]',
      ) as unknown[];
      const strange = [Object.assign(Object.create(null), { id: 1 }), { constructor: Object, id: 2 }, {}];
      for (const data of [hostile, strange]) await agree(":id :amount :tier", { context: { rows: data } });
      const maps = await run('(mapv #(select-keys % [:id :tier]) [{:id 1 "tier" 2} {"id" 1 :tier nil} {}])', {
        engine: "general",
      });
      expect(maps.ok && format(maps.value)).toBe("[{:id 1 :tier 2} {:id 1 :tier nil} {}]");
    });
  });
});
