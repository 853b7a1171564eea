/**
 * `(select-keys row [:a :b])` in generated code goes through one shared helper (select-fields.ts)
 * for plain rows that have every field. These tests prove the helper ran (its counter) and that
 * every outcome (values, equality and hashing with other maps, JSON, errors, limits) is the
 * general evaluator's, for rows of every kind.
 */
import { describe, expect, test } from "vitest";
import { format, type RunOptions, type RunResult, run, toJson } from "../../index.js";
import { codeGenerationWorks, generatedSource } from "../../test-support.js";
import { selectFieldsStats } from "./select-fields.js";

function outcome(result: RunResult): unknown {
  return result.ok ? { value: format(result.value), json: toJson(result.value) } : { error: result.error };
}

/** Runs on generated code and on the general evaluator; both outcomes must be equal. Returns the rows the helper projected. */
async function agree(
  source: string,
  options: RunOptions = {},
): Promise<{ outcome: unknown; projected: number }> {
  const before = selectFieldsStats.plainRows;
  const fast = await run(source, { ...options, engine: "fast" });
  const projected = selectFieldsStats.plainRows - before;
  const general = await run(source, { ...options, engine: "general" });
  expect(outcome(fast), source).toEqual(outcome(general));
  expect(selectFieldsStats.plainRows - before, "the general evaluator never uses the helper").toBe(projected);
  return { outcome: outcome(fast), projected };
}

const rows = Array.from({ length: 3000 }, (_, i) => ({
  id: i,
  product: ["widget", "gadget", "gizmo", "doohickey"][i % 4] as string,
  quantity: (i % 7) + 1,
  amount: i * 1.25,
}));

describe.skipIf(!codeGenerationWorks)("select-keys over plain rows: the shared helper", () => {
  test("is what generated code calls for up to four direct keywords", () => {
    expect(generatedSource("(mapv #(select-keys % [:id :product :amount]) data/rows)")).toContain(
      "$.selectFields(",
    );
    expect(generatedSource("(mapv #(select-keys % [:a :b :c :d :e]) data/rows)")).not.toContain(
      "$.selectFields(",
    );
  });

  test.each([1, 2, 3, 4])("projects every row with %i keys, as select-keys does", async (n) => {
    const keys = [":id", ":product", ":quantity", ":amount"].slice(0, n).join(" ");
    const { projected } = await agree(`(mapv #(select-keys % [${keys}]) data/rows)`, { context: { rows } });
    expect(projected).toBe(rows.length);
  });

  test("a key set used often gets a projector of its own, with the same maps", async () => {
    const before = selectFieldsStats.projectors;
    // A key set no other test uses: cold at first (the shared reader), then hot (its projector).
    const source = "(mapv #(select-keys % [:amount :quantity :product]) data/rows)";
    const { projected } = await agree(source, { context: { rows } });
    expect(projected).toBe(rows.length);
    expect(selectFieldsStats.projectors - before).toBe(1);
    const again = await agree(source, { context: { rows: rows.slice(0, 10) } });
    expect(again.projected).toBe(10);
    expect(selectFieldsStats.projectors - before).toBe(1);
  });

  test("its maps are maps like any other: equality, hashing, lookups, order, JSON", async () => {
    const source = `(let [picked (mapv #(select-keys % [:quantity :id]) data/rows)
                          one (first picked)]
      [(= one {:id 0 :quantity 1}) (= one (hash-map :quantity 1 :id 0)) (= one (assoc {} :id 0 :quantity 1))
       (contains? (set picked) {:id 1 :quantity 2}) (get (group-by identity (take 3 picked)) {:quantity 1 :id 0})
       (keys one) (vals one) (seq one) (count one) (contains? one :id) (contains? one "id") (get one :id)
       (:quantity (assoc one :quantity 9)) (dissoc one :id) (merge one {:z 1}) (into {} one)
       (let [{:keys [id quantity]} one] [id quantity]) (str one) (pr-str one)
       (count (distinct (map #(select-keys % [:quantity]) data/rows)))
       (frequencies (take 14 picked))])`;
    const { outcome: result, projected } = await agree(source, { context: { rows } });
    expect(projected).toBe(rows.length + rows.length);
    expect(result).toMatchObject({
      value: expect.stringMatching(/^\[true true true true \[\{:id 0 :quantity 1\}\]/),
    });
  });

  test("rows missing a field, or holding nil, get select-keys' maps (the helper takes only complete rows)", async () => {
    const patchy = rows.map((row, i) => {
      const copy: Record<string, unknown> = { ...row };
      if (i % 3 === 0) delete copy.product;
      else if (i % 5 === 0) copy.product = null;
      return copy;
    });
    const source = "(mapv #(select-keys % [:product :id]) data/rows)";
    const { projected } = await agree(source, { context: { rows: patchy } });
    expect(projected).toBe(2000);
    const sizes = await run(`(frequencies (map count ${source}))`, { context: { rows: patchy } });
    expect(sizes.ok && format(sizes.value)).toBe("{1 1000 2 2000}");
  });

  test("hostile rows: own __proto__ and constructor keys, NUL-led keys, other prototypes", async () => {
    const hostile = JSON.parse(
      JSON.stringify(
        Array.from({ length: 2000 }, (_, i) =>
          i % 2 === 0
            ? { id: i, __proto__x: 1, "\u0000id": "nul", amount: i }
            : { id: i, constructor: "data", amount: i, toString: "text" },
        ),
      ).replace(/__proto__x/g, "__proto__"),
    ) as Record<string, unknown>[];
    expect(Object.hasOwn(hostile[0] as object, "__proto__")).toBe(true);
    const classy = Array.from({ length: 1500 }, (_, i) =>
      Object.assign(Object.create({ amount: -1 }), { id: i }),
    );
    const nullProto = Array.from({ length: 1500 }, (_, i) =>
      Object.assign(Object.create(null), { id: i, amount: i }),
    );
    for (const data of [hostile, classy, nullProto]) {
      await agree("(mapv #(select-keys % [:id :amount]) data/rows)", { context: { rows: data } });
      await agree('(mapv #(select-keys % [:id :__proto__ :constructor (keyword "\u0000id")]) data/rows)', {
        context: { rows: data },
      });
    }
    // Only the plain rows with both fields took the helper: the first 1,000 hostile rows, the
    // second 1,000 (an own "constructor") and the class instances did not; null-prototype rows neither.
    const { projected } = await agree("(mapv #(select-keys % [:id :amount]) data/rows)", {
      context: { rows: hostile },
    });
    expect(projected).toBe(1000);
  });

  test("limits hold alike on both tiers: the memory charge ends the run at the same point", async () => {
    const source = "(mapv #(select-keys % [:id :product :amount]) data/rows)";
    const { outcome: result } = await agree(source, {
      context: { rows },
      limits: { maxMemoryBytes: 100_000 },
    });
    expect(result).toMatchObject({ error: { reason: "memory_exceeded" } });
    await agree(source, { context: { rows }, limits: { maxIterations: 2000 } });
  });
});
