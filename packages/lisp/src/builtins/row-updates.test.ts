/**
 * update, update-in and assoc of one field on a tool's row (a plain host object) copy the row with
 * the field changed (maps.ts, copiedRow), and a fused pipeline's next update writes that copy in
 * place (assocFresh). Each test proves the path ran (rowUpdateStats) and that every engine gives
 * the same answers and charges; hostile rows keep their keys as data.
 */
import { describe, expect, test } from "vitest";
import { format, type RunOptions, type RunResult, run, toJson } from "../index.js";
import { codeGenerationWorks, generatedSource } from "../test-support.js";
import { rowUpdateStats } from "./maps.js";

function shown(result: RunResult): unknown {
  return result.ok
    ? { value: format(result.value), json: toJson(result.value), memory: result.usage?.memoryBytes }
    : { error: result.error.reason, message: result.error.message };
}

/** The outcome on generated code and on the general evaluator (equal), and copies made by each. */
async function bothEngines(source: string, context: () => Record<string, unknown>, options: RunOptions = {}) {
  const counts = { fast: { copies: 0, inPlace: 0 }, general: { copies: 0, inPlace: 0 } };
  const outcomes: unknown[] = [];
  for (const engine of ["fast", "general"] as const) {
    const before = { ...rowUpdateStats };
    outcomes.push(shown(await run(source, { ...options, context: context(), engine })));
    counts[engine] = {
      copies: rowUpdateStats.copies - before.copies,
      inPlace: rowUpdateStats.inPlace - before.inPlace,
    };
  }
  expect(outcomes[0], source).toEqual(outcomes[1]);
  return { outcome: outcomes[0] as { value?: string; json?: unknown; error?: string }, counts };
}

const orders = () => ({
  orders: Array.from({ length: 50 }, (_, i) => ({ id: i, amount: i * 10, quantity: (i % 3) + 1 })),
});

describe("updating one field of a tool's row", () => {
  // The in-place write is generated code's (where code may not be generated, "fast" is general).
  test.runIf(codeGenerationWorks)(
    "the bench's two-stage pipeline copies each row once and writes the copy in place",
    async () => {
      const source = `(->> data/orders
      (map #(update % :amount * 1.2))
      (map #(update-in % [:quantity] inc))
      (reduce (fn [sum o] (+ sum (* (:amount o) (:quantity o)))) 0))`;
      // Generated code reads the field in place on a plain row before the general slot lookup.
      expect(generatedSource(source)).toMatch(/\.constructor === Object && .*\[K\[\d+\]\]\) !== undefined\)/);
      const { outcome, counts } = await bothEngines(source, orders);
      const expected = orders().orders.reduce((sum, o) => sum + o.amount * 1.2 * (o.quantity + 1), 0);
      expect(Number(outcome.json)).toBeCloseTo(expected, 6);
      expect(counts.fast).toEqual({ copies: 50, inPlace: 50 });
      // The general evaluator copies in both stages (nothing tells it the first copy is unshared).
      expect(counts.general.copies).toBe(100);
      expect(counts.general.inPlace).toBe(0);
    },
  );

  test.each([
    "(map #(update % :amount inc) data/orders)",
    "(map #(assoc % :amount 0) data/orders)",
    '(map #(update % "amount" inc) data/orders)',
    "(map #(keys (update % :quantity dec)) data/orders)",
    "(map #(= (update % :amount inc) (assoc % :amount (inc (:amount %)))) data/orders)",
    "(map #(= (update % :amount identity) %) data/orders)",
    "(into #{} (map #(update % :quantity (constantly 0)) data/orders))",
    "(let [r (first data/orders) s (update r :amount inc)] [r s (update s :amount inc) s (= s (assoc r :amount 1))])",
    "(->> data/orders (map #(update % :amount inc)) (map #(assoc % :extra 1)) (map #(update % :extra inc)))",
  ])("%s: a copy, the same answer on both engines", async (source) => {
    const { counts } = await bothEngines(source, orders);
    expect(counts.fast.copies).toBeGreaterThan(0);
    expect(counts.general.copies).toBeGreaterThan(0);
  });

  test("the result is a plain object with the row's keys in the row's order, the row itself unchanged", async () => {
    const row = { c: 3, a: 1, b: 2 };
    const result = await run("(update (first data/rows) :a inc)", { context: { rows: [row] } });
    expect(result.ok && Object.getPrototypeOf(result.value)).toBe(Object.prototype);
    expect(result.ok && Object.entries(result.value as object)).toEqual([
      ["c", 3],
      ["a", 2],
      ["b", 2],
    ]);
    expect(row).toEqual({ c: 3, a: 1, b: 2 });
  });

  test("update-in of one key copies on both engines; a longer path derives program maps, as before", async () => {
    const { counts } = await bothEngines("(map #(update-in % [:amount] + 5) data/orders)", orders);
    expect(counts).toEqual({ fast: { copies: 50, inPlace: 0 }, general: { copies: 50, inPlace: 0 } });
    const nested = () => ({ rows: [{ a: { b: 1 }, c: 2 }] });
    const deep = await bothEngines("(update-in (first data/rows) [:a :b] inc)", nested);
    expect(deep.outcome.value).toBe('{"a" {"b" 2} "c" 2}');
  });

  test("a field the row lacks: the program-map path, as before; a twin the row has is copied", async () => {
    const rows = () => ({ rows: [{ a: 1, b: undefined, customer_id: 4 }] });
    // A field present but undefined is the row's own: copied, read as nil.
    expect((await bothEngines("(update (first data/rows) :b (fnil inc 0))", rows)).outcome.value).toBe(
      '{"a" 1 "b" 1 "customer_id" 4}',
    );
    const twin = await bothEngines("(update (first data/rows) :customer-id inc)", rows);
    expect(twin.outcome.value).toBe('{"a" 1 "b" nil "customer_id" 5}');
    expect(twin.counts.fast.copies).toBe(1);
    for (const source of ["(update (first data/rows) :zz (fnil inc 0))", "(assoc (first data/rows) :zz 1)"]) {
      const { counts } = await bothEngines(source, rows);
      expect(counts, source).toEqual({ fast: { copies: 0, inPlace: 0 }, general: { copies: 0, inPlace: 0 } });
    }
  });

  test("rows with own __proto__ and constructor keys keep them as data; Object.prototype is untouched", async () => {
    const hostile = () => ({
      rows: [
        JSON.parse('{"__proto__": {"polluted": 1}, "amount": 2}'),
        JSON.parse('{"__proto__": 7, "amount": 3, "constructor": 5}'),
      ],
    });
    const { outcome, counts } = await bothEngines(
      '(map (fn [r] (let [u (update r :amount inc)] [(get u "__proto__") (get u "constructor") (:amount u) (count u)])) data/rows)',
      hostile,
    );
    expect(outcome.value).toBe('[[{"polluted" 1} nil 3 2] [7 5 4 3]]');
    // The first row is copied; the second (an own "constructor") takes the program-map path.
    expect(counts.fast.copies).toBe(1);
    const copy = await run("(update (first data/rows) :amount inc)", { context: hostile() });
    expect(copy.ok && Object.getOwnPropertyNames(copy.value as object)).toEqual(["__proto__", "amount"]);
    expect(copy.ok && Object.getPrototypeOf(copy.value)).toBe(Object.prototype);
    for (const source of [
      '(update (first data/rows) "__proto__" (constantly {:x 1}))',
      '(assoc (first data/rows) "__proto__" 1)',
      '(update (second data/rows) "constructor" inc)',
    ])
      await bothEngines(source, hostile);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).x).toBeUndefined();
    expect(Object.keys(Object.prototype)).toEqual([]);
  });

  test("NUL-led keys and non-enumerable fields take the program-map path, with the same answers", async () => {
    const nul = () => ({ rows: [{ "\u0000a": 1, a: 2 }] });
    const first = await bothEngines('(update (first data/rows) "\u0000a" inc)', nul);
    expect(first.counts.fast.copies + first.counts.general.copies).toBe(0);
    const plainField = await bothEngines("(update (first data/rows) :a inc)", nul);
    expect(plainField.counts.fast.copies).toBe(1);
    const hidden = () => {
      const row: Record<string, unknown> = { b: 1 };
      Object.defineProperty(row, "a", { value: 5, enumerable: false, writable: true, configurable: true });
      return { rows: [row] };
    };
    const { counts } = await bothEngines("(update (first data/rows) :a inc)", hidden);
    expect(counts.fast.copies + counts.general.copies).toBe(0);
  });

  test("a row wider than the copy limit is read through by a program map: the copy is never unmetered work", async () => {
    const wide = () => ({ rows: [Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`f${i}`, i]))] });
    const { outcome, counts } = await bothEngines("(:f3 (update (first data/rows) :f3 inc))", wide);
    expect(outcome.value).toBe("4");
    expect(counts.fast.copies + counts.general.copies).toBe(0);
    const narrow = () => ({ rows: [Object.fromEntries(Array.from({ length: 64 }, (_, i) => [`f${i}`, i]))] });
    expect((await bothEngines("(:f3 (update (first data/rows) :f3 inc))", narrow)).counts.fast.copies).toBe(
      1,
    );
  });

  test("memory and iteration limits hold as before", async () => {
    const big = () => ({
      orders: Array.from({ length: 5000 }, (_, i) => ({ id: i, amount: i, quantity: 1 })),
    });
    const source =
      "(->> data/orders (map #(update % :amount inc)) (map #(update % :quantity inc)) (map :amount) (reduce +))";
    const memory = await bothEngines(source, big, { limits: { maxMemoryBytes: 100_000 } });
    expect(memory.outcome.error).toBe("memory_exceeded");
    const loop =
      "(loop [i 0 r (first data/orders)] (if (< i 5000) (recur (inc i) (update r :amount inc)) (:amount r)))";
    const iterations = await bothEngines(loop, big, { limits: { maxIterations: 1000 } });
    expect(iterations.outcome.error).toBe("loop_limit_exceeded");
    const finished = await bothEngines(loop, big);
    expect(finished.outcome.value).toBe("5000");
    expect(finished.counts.fast.copies).toBe(5000);
  });
});
