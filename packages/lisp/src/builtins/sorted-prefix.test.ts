/**
 * `(take n (sort-by ...))` with a literal count keeps the first n items in one pass
 * (support/first-in-order.ts) instead of sorting everything. These tests prove the pass ran (its
 * counter) and that its answers, errors and limits are those of the whole sort: the same program
 * with the count bound by a `let` is not rewritten (analyzer/sorted-take.ts) and sorts everything.
 */
import { describe, expect, test } from "vitest";
import { format, type RunOptions, type RunResult, run, toJson } from "../index.js";
import { withTickingClock } from "../test-support.js";
import { firstInOrderStats } from "./support/first-in-order.js";

function outcome(result: RunResult): unknown {
  return result.ok
    ? { value: format(result.value), json: toJson(result.value) }
    : { reason: result.error.reason, message: result.error.message, line: result.error.line };
}

/**
 * Runs `(take n (sort-by ...sortArgs))` with n written as a literal, on each engine, and with n
 * bound by a let (the whole sort); all must agree. Returns the outcome and how many prefix
 * selections the literal form made on the general evaluator.
 */
async function agree(n: number, sortArgs: string, options: RunOptions = {}) {
  const literal = `(take ${n} (sort-by ${sortArgs}))`;
  const bound = `(let [n ${n}] (take n (sort-by ${sortArgs})))`;
  const whole = outcome(await run(bound, { ...options, engine: "general" }));
  const before = firstInOrderStats.selections;
  const general = outcome(await run(literal, { ...options, engine: "general" }));
  const selections = firstInOrderStats.selections - before;
  expect(general, literal).toEqual(whole);
  for (const engine of ["fast", "adaptive"] as const)
    expect(outcome(await run(literal, { ...options, engine })), `${engine}: ${literal}`).toEqual(whole);
  return { outcome: whole, selections };
}

const rows = Array.from({ length: 400 }, (_, i) => ({
  id: i,
  region: ["north", "south", "east", "west"][(i * 7) % 4] as string,
  status: ["paid", "pending", "refunded"][(i * 5) % 3] as string,
  // Many ties, so that the order among equal keys shows.
  amount: (i * 37) % 50,
  score: ((i * 13) % 97) / 4,
}));

describe("(take n (sort-by ...)) with a literal count", () => {
  test("keeps the first n without sorting, with the whole sort's answer and its order of ties", async () => {
    const cases = [
      ":amount data/rows",
      ":amount > data/rows",
      ":amount :desc data/rows",
      ":score < data/rows",
      ":region data/rows",
      ":region :desc data/rows",
      "(juxt :region :status :id) data/rows",
      "(juxt :region :amount) #(compare %2 %1) data/rows",
      "(juxt :status :score) > data/rows",
      "(fn [r] [(:region r) (:amount r)]) data/rows",
      "#(- (:amount %)) data/rows",
    ];
    for (const sortArgs of cases) {
      for (const n of [1, 7, 20]) {
        const { outcome: answer, selections } = await agree(n, sortArgs, { context: { rows } });
        expect(selections, sortArgs).toBe(1);
        expect(answer, sortArgs).toMatchObject({ json: expect.any(Array) });
        expect((answer as { json: unknown[] }).json).toHaveLength(n);
      }
    }
  });

  test("over a pipeline sort-by consumes, (filter p rows) and kin", async () => {
    const cases = [
      ':amount > (filter #(= (:status %) "paid") data/rows)',
      "(juxt :region :id) (map #(assoc % :id (- (:id %))) data/rows)",
      ":score :desc (remove #(< (:amount %) 10) (filter :region data/rows))",
    ];
    for (const sortArgs of cases) {
      for (const n of [1, 5]) {
        const { selections } = await agree(n, sortArgs, { context: { rows } });
        expect(selections, sortArgs).toBe(1);
      }
      const program = `(first (sort-by ${sortArgs}))`;
      const whole = outcome(await run(`(first (vec (sort-by ${sortArgs})))`, { context: { rows } }));
      expect(outcome(await run(program, { context: { rows }, engine: "general" })), program).toEqual(whole);
    }
    // An effect in a stage: the pipeline runs eagerly, once, in order, with the same answer.
    const printing = await run(
      "(take 2 (sort-by :amount > (filter #(do (println (:id %)) (:region %)) data/rows)))",
      {
        context: { rows: rows.slice(0, 4) },
      },
    );
    expect(printing.ok && printing.prints).toEqual(["0", "1", "2", "3"]);
    expect(printing.ok && toJson(printing.value)).toEqual(
      [...rows.slice(0, 4)].sort((a, b) => b.amount - a.amount || a.id - b.id).slice(0, 2),
    );
  });

  test("(first (sort-by ...)) keeps one", async () => {
    for (const sortArgs of [":amount > data/rows", "(juxt :region :id) data/rows", ":k data/rows"]) {
      const program = `(first (sort-by ${sortArgs}))`;
      const whole = outcome(
        await run(`(first (vec (sort-by ${sortArgs})))`, { context: { rows }, engine: "general" }),
      );
      const before = firstInOrderStats.selections;
      for (const engine of ["general", "fast", "adaptive"] as const)
        expect(outcome(await run(program, { context: { rows }, engine })), program).toEqual(whole);
      expect(firstInOrderStats.selections - before, program).toBe(sortArgs === ":k data/rows" ? 0 : 3);
    }
  });

  test("sorts everything where one pass could differ or would not pay", async () => {
    const mixed = [{ k: 2 }, { k: "a" }, { k: 1 }, { k: null }, { k: [1] }, { k: 0 }];
    const notANumber = [{ k: 3 }, { k: Number.NaN }, { k: 1 }, { k: 2 }, { k: Number.NaN }, { k: 0 }];
    const cases: [number, string, unknown][] = [
      // A comparator of the program's own: it is called, and may order inconsistently.
      [3, "#(:amount %) (fn [a b] (> a b)) data/rows", rows],
      // Keys of several kinds, or NaN: compareTerms' order, as a sort reaches it.
      [2, ":k data/rows", mixed],
      [2, ":k data/rows", notANumber],
      [2, "(juxt :k :k) data/rows", notANumber],
      // As many or more than there are items, or more than the pass keeps.
      [6, ":k data/rows", [{ k: 2 }, { k: 1 }]],
      [300, ":amount data/rows", rows],
    ];
    for (const [n, sortArgs, data] of cases) {
      const { selections } = await agree(n, sortArgs, { context: { rows: data } });
      expect(selections, sortArgs).toBe(0);
    }
  });

  test("hostile host rows sort as before", async () => {
    const hostile = JSON.parse(
      '[{"__proto__": {"n": 9}, "n": 4, "constructor": "x", "\\u0000n": 2}, {"constructor": "a", "n": 1},' +
        ' {"toString": 3, "n": 3, "constructor": "b"}, {"n": 2, "constructor": "c"}]',
    ) as unknown[];
    for (const sortArgs of [":n data/rows", ":constructor data/rows", "(juxt :constructor :n) > data/rows"]) {
      const { selections } = await agree(2, sortArgs, { context: { rows: hostile } });
      expect(selections, sortArgs).toBe(1);
    }
    const { outcome: odd } = await agree(1, ":__proto__ data/rows", { context: { rows: hostile } });
    expect(odd).toMatchObject({ json: expect.any(Array) });
  });

  test("errors are sort-by's, at sort-by's place", async () => {
    const cases = [
      "#(/ 10 %) [1 0 2]",
      "(fn [x] (subs x 1)) [1 2 3]",
      ":a 42 [{:a 1}]",
      "[3 1 2] >",
      ":a [{:a 1} {:a 2}] >",
      "(juxt :a inc) [{:a 1} {:a 2}]",
    ];
    for (const sortArgs of cases) {
      const { outcome: error } = await agree(1, sortArgs);
      expect(error, sortArgs).toMatchObject({ reason: expect.any(String) });
    }
    const placed = await run("(do\n  (take 1\n    (sort-by #(/ 10 %) [1 0])))", { engine: "general" });
    expect(placed.ok || placed.error.line).toBe(3);
  });

  test("a program calling the internal builtin gets take's and sort-by's answers", async () => {
    for (const [program, expected] of [
      ["(take-sort-by 2 :a > [{:a 1} {:a 3} {:a 2}])", "[{:a 3} {:a 2}]"],
      ["(take-sort-by 0 :a [{:a 1}])", "[]"],
      ["(take-sort-by -1 :a [{:a 1}])", "[]"],
      ["(take-sort-by 5 :a [{:a 2} {:a 1}])", "[{:a 1} {:a 2}]"],
    ] as const) {
      const result = await run(program);
      expect(result.ok && format(result.value), program).toBe(expected);
    }
    const bad = await run('(take-sort-by "2" :a [{:a 1}])');
    expect(bad.ok ? "ok" : bad.error.reason).toBe("type_error");
  });

  test("the run's deadline and memory limit hold inside the pass", async () => {
    const many = Array.from({ length: 300_000 }, (_, i) => ({ n: (i * 7919) % 100_003 }));
    const program =
      '(do (println "started") (let [r (take 5 (sort-by :n > data/rows))] (println "returned") r))';
    const before = firstInOrderStats.selections;
    const cut = await withTickingClock(() =>
      run(program, { context: { rows: many }, limits: { timeoutMs: 200 }, engine: "general" }),
    );
    expect(cut.ok ? "finished" : cut.error.reason).toBe("timeout");
    expect(cut.prints).toEqual(["started"]);
    expect(firstInOrderStats.selections - before).toBe(1);
    const small = await run("(take 5 (sort-by :n > data/rows))", {
      context: { rows: many },
      // A long deadline, so that only the memory budget can stop it on a loaded machine.
      limits: { maxMemoryBytes: 1_000_000, timeoutMs: 30_000 },
      engine: "general",
    });
    expect(small.ok ? "finished" : small.error.reason).toBe("memory_exceeded");
  });
});
