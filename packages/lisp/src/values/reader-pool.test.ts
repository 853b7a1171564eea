/**
 * Where code may not be generated, hot keywords read rows through readers from a fixed pool
 * (reader-pool.ts). These tests prove a run on the general engine takes pooled readers, that they
 * answer as the shared path does (missing fields, twins, program maps, non-maps, inherited names),
 * and that keywords past the pool's size still read correctly.
 *
 * The pool belongs to the realm's copy of the package: each test loads a fresh copy.
 */
import { describe, expect, test, vi } from "vitest";

async function freshPackage() {
  vi.resetModules();
  const lisp = await import("../index.js");
  const pool = await import("./reader-pool.js");
  return { lisp, pool };
}

/** Rows enough that every keyword read per row gets hot (field-reader.ts reads 2000 first). */
const rows = Array.from({ length: 3000 }, (_, i) => ({
  id: i,
  amount: (i * 37) % 1000,
  user_id: i % 7,
  status: i % 3 === 0 ? "paid" : "open",
  ...(i % 5 === 0 ? {} : { note: `n${i}` }),
}));

const programs = [
  "(reduce + 0 (map :amount data/rows))",
  // A missing field, then the hyphen twin of a host key (`:user-id` reads "user_id").
  "(count (filter :note data/rows))",
  "(reduce + 0 (map :user-id data/rows))",
  '(for [r data/rows :when (= (:status r) "paid")] (:id r))',
  // Program maps and non-maps mixed in with the rows.
  '(mapv :amount (concat (take 2500 data/rows) [{:amount 5} (assoc (first data/rows) :amount 9) nil 3 "s" [1]]))',
  // An inherited name is not direct: never a pooled reader, still own properties only.
  '(mapv :constructor (concat (take 2100 data/rows) [{"constructor" 4}]))',
];

async function outcomes(engine: "general" | undefined) {
  const { lisp, pool } = await freshPackage();
  const values: unknown[] = [];
  for (const source of programs) {
    const result = await lisp.run(source, {
      context: { rows },
      limits: { timeoutMs: 60_000 },
      ...(engine === undefined ? {} : { engine }),
    });
    values.push(result.ok ? lisp.format(result.value) : result.error);
  }
  return { values, taken: pool.readerPoolStats.taken };
}

describe("the field reader pool", () => {
  test("the general engine reads hot keywords through pooled readers, with the shared path's answers", async () => {
    const general = await outcomes("general");
    // amount, status, id, note: each read more than 2000 times; constructor is never pooled.
    expect(general.taken).toBeGreaterThanOrEqual(4);
    const adaptive = await outcomes(undefined);
    expect(general.values).toEqual(adaptive.values);
    expect(general.values[0]).toBe(String(rows.reduce((sum, row) => sum + row.amount, 0)));
    expect(general.values[1]).toBe(String(rows.filter((row) => row.note !== undefined).length));
    expect(general.values[2]).toBe(String(rows.reduce((sum, row) => sum + row.user_id, 0)));
    expect(String(general.values[4]).endsWith(" 5 9 nil nil nil nil]")).toBe(true);
    expect(String(general.values[5]).endsWith(" nil 4]")).toBe(true);
  });

  test("keywords past the pool's size keep the shared path and read the same", async () => {
    const { lisp, pool } = await freshPackage();
    const wide = Array.from({ length: 2100 }, (_, i) => {
      const row: Record<string, number> = {};
      for (let k = 0; k < pool.READERS + 4; k++) row[`f${k}`] = i * k;
      return row;
    });
    const fields = Array.from({ length: pool.READERS + 4 }, (_, k) => `(reduce + 0 (map :f${k} data/wide))`);
    const result = await lisp.run(`[${fields.join(" ")}]`, { context: { wide }, engine: "general" });
    expect(pool.readerPoolStats.taken).toBe(pool.READERS);
    const expected = Array.from({ length: pool.READERS + 4 }, (_, k) =>
      wide.reduce((sum, row) => sum + (row[`f${k}`] as number), 0),
    );
    expect(result.ok && result.value).toEqual(expected);
  });

  test("once a keyword has a pooled reader, every field read of it goes there first, on any item", async () => {
    const { lisp } = await freshPackage();
    const { Keyword } = await import("./keyword.js");
    const heat = await lisp.run("(reduce + 0 (map :amount data/rows))", {
      context: { rows },
      engine: "general",
    });
    expect(heat.ok).toBe(true);
    const amount = Keyword.of("amount");
    const pooled = amount.pooled;
    if (pooled === undefined || pooled === null) throw new Error("no pooled reader for :amount");
    // A counting stand-in for the pooled reader proves the path ran; it answers as the reader does.
    let reads = 0;
    amount.pooled = (item, fallback) => {
      reads++;
      return pooled(item, fallback);
    };
    const mixed = [...rows.slice(0, 50), { amount: 5 }, null, 3, "s", [1], { other: 1 }];
    const sources = [
      "(mapv :amount data/mixed)",
      "(mapv #(:amount %) data/mixed)",
      "(mapv #(= (:amount %) 5) data/mixed)",
      "(sort-by :amount (filter map? data/mixed))",
    ];
    for (const source of sources) {
      const general = await lisp.run(source, { context: { mixed }, engine: "general" });
      const before = reads;
      amount.pooled = pooled;
      const other = await lisp.run(source, { context: { mixed }, engine: "fast" });
      amount.pooled = (item, fallback) => {
        reads++;
        return pooled(item, fallback);
      };
      expect(general.ok && lisp.format(general.value), source).toBe(other.ok && lisp.format(other.value));
      // Every item, nil, numbers and strings included: the shared path would reach the reader
      // for plain objects only.
      expect(before, source).toBeGreaterThanOrEqual(source.includes("sort-by") ? 1 : mixed.length);
      reads = 0;
    }
  });
});
