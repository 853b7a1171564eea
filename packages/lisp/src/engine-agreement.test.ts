/**
 * The engines agree on hostile input. Every fast path (generated code, fused pipelines, running
 * sums, leaf loops, the builtins' own shortcuts) was proven on ordinary data; these properties feed
 * the same programs values at their edges (NaN, -0, infinities, integers past 2^53, big integers,
 * nil, text where a number belongs, lone surrogates, rows with keys such as "__proto__" or
 * "constructor", rows missing the field) and require the general engine, the fast engine and the
 * adaptive engine with every function promoted at once to give the same value, or the same error
 * reason and message. A fast path that computes differently, or that fails where the general
 * evaluator does not (or with another message), breaks the property.
 *
 * Also: no run lets a raw exception out, and the host's data is never written.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { promotionPolicy } from "./compiler/promotion.js";
import { format, type RunOptions, run } from "./index.js";

const ENGINES = ["general", "fast", "adaptive"] as const;

/** What a run gave, as text two runs can be compared by: the printed value, or reason and message. */
async function outcome(source: string, options: RunOptions): Promise<string> {
  const result = await run(source, options);
  // Capped: a value that contains itself (host data) prints to the cap, ten million characters by default.
  if (result.ok) return `ok ${format(result.value, { maxChars: 20_000 })}`;
  return `${result.error.reason}: ${result.error.message}`;
}

/** Each engine's outcome; the test fails with the program when they differ. */
async function expectAgreement(source: string, options: RunOptions): Promise<void> {
  const seen: string[] = [];
  for (const engine of ENGINES) seen.push(await outcome(source, { ...options, engine }));
  expect(seen[1], `fast vs general: ${source}`).toBe(seen[0]);
  expect(seen[2], `adaptive vs general: ${source}`).toBe(seen[0]);
  expect(seen[0], source).not.toMatch(/^runtime_error: unexpected internal error/);
}

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Reflect.ownKeys(value)) deepFreeze((value as Record<PropertyKey, unknown>)[key]);
  }
  return value;
}

// ---------------------------------------------------------------- arithmetic at its edges

/** Pairs of numbers (and non-numbers) at the edges of JavaScript's arithmetic. */
const PAIRS = deepFreeze([
  [0, -0],
  [-0, -0],
  [Number.NaN, 1],
  [Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY],
  [2 ** 53, 1],
  [-(2 ** 53) - 2, 3],
  [Number.MAX_VALUE, 2],
  [5e-324, -5e-324],
  [1.5, 2],
  [10n, 2n ** 64n],
  [null, 3],
  ["x", 1],
]);

const ATOMS = [
  "0",
  "-0",
  "0.0",
  "-0.0",
  "1",
  "-1",
  "2.5",
  "25.0",
  "##NaN",
  "##Inf",
  "##-Inf",
  "9007199254740991",
  "9007199254740992",
  "12345678901234567890",
  "1e308",
  "nil",
  '"s"',
  "a",
  "b",
  "i",
  "acc",
];
const UNARY = [
  "inc",
  "dec",
  "abs",
  "-",
  "double",
  "int",
  "zero?",
  "pos?",
  "neg?",
  "even?",
  "not",
  "str",
  "floor",
];
const BINARY = [
  "+",
  "-",
  "*",
  "/",
  "quot",
  "rem",
  "mod",
  "max",
  "min",
  "=",
  "not=",
  "<",
  "<=",
  ">",
  ">=",
  "compare",
];

const expression: fc.Arbitrary<string> = fc.letrec((tie) => ({
  e: fc.oneof(
    { depthSize: "small" },
    fc.constantFrom(...ATOMS),
    fc.tuple(fc.constantFrom(...UNARY), tie("e")).map(([f, a]) => `(${f} ${a})`),
    fc.tuple(fc.constantFrom(...BINARY), tie("e"), tie("e")).map(([f, a, b]) => `(${f} ${a} ${b})`),
    fc.tuple(tie("e"), tie("e"), tie("e")).map(([c, a, b]) => `(if ${c} ${a} ${b})`),
  ),
})).e as fc.Arbitrary<string>;

/** Where an expression of a, b, i and acc sits: each shape is a different fast path. */
const SHAPES: ReadonlyArray<(e: string) => string> = [
  // A function of two arguments (generated code, operand arithmetic shortcuts).
  (e) => `(defn f [a b] (let [i 1 acc 2] ${e})) (mapv (fn [[a b]] (f a b)) data/pairs)`,
  // A leaf loop with a tested recur (leaf-loops.ts, tested-loops.ts).
  (e) =>
    `(defn f [a b] (loop [i 0 acc 0] (if (< i 3) (recur (inc i) ${e}) acc))) (mapv (fn [[a b]] (f a b)) data/pairs)`,
  // A reduce with a destructured row (accumulator calls, shaped binders).
  (e) => `(reduce (fn [acc [a b]] (let [i 1] ${e})) 0 data/pairs)`,
  // A comprehension.
  (e) => `(for [[a b] data/pairs :let [i 2 acc 3]] ${e})`,
  // A fused pipeline folded by a running sum.
  (e) => `(reduce + 0 (map (fn [[a b]] (let [i 1 acc 0] ${e})) (filter some? data/pairs)))`,
];

// ---------------------------------------------------------------- rows at their edges

const KEYS = ["amount", "status", "__proto__", "constructor", "toString", "hasOwnProperty", "k"];

const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(
    0,
    -0,
    1,
    -1,
    2.5,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    Number.NEGATIVE_INFINITY,
    2 ** 53,
    2 ** 53 + 2,
    Number.MAX_VALUE,
    null,
    undefined,
    true,
    false,
    "",
    "paid",
    "open",
    "\ud800",
    "a\udc00b",
    "__proto__",
    12n,
    2n ** 70n,
  ),
  fc.integer({ min: -5, max: 5 }),
  fc.string({ maxLength: 4 }),
);

const hostileRow: fc.Arbitrary<Record<string, unknown>> = fc
  .array(fc.tuple(fc.constantFrom(...KEYS), hostileValue), { maxLength: 5 })
  .map((entries) => {
    // Own properties named "__proto__" and the like, as JSON.parse makes them.
    const row: Record<string, unknown> = {};
    for (const [key, value] of entries)
      Object.defineProperty(row, key, { value, enumerable: true, writable: true });
    return row;
  });

/** Programs over rows, each written the way a model writes one, each on fast paths of its own. */
const ROW_PROGRAMS: readonly string[] = [
  "(reduce + 0 (map :amount data/rows))",
  "(sum-by :amount data/rows)",
  '(->> data/rows (filter #(= "paid" (:status %))) (map :amount) (reduce + 0))',
  "(defn f [rows] (reduce (fn [acc r] (+ acc (:amount r))) 0 rows)) (f data/rows)",
  "(mapv (fn [{:keys [amount status]}] [status amount]) data/rows)",
  "(for [r data/rows :when (:amount r)] (:amount r))",
  "(group-by :status data/rows)",
  "(map (fn [[k rows]] {:k k :total (sum-by :amount rows) :n (count rows)}) (group-by :status data/rows))",
  "(update-vals (group-by :status data/rows) count)",
  "(take 2 (sort-by :amount data/rows))",
  "(take 2 (sort-by :status data/rows))",
  "(mapv #(select-keys % [:amount :constructor]) data/rows)",
  "(mapv #(update % :amount str) data/rows)",
  "(mapv #(assoc % :__proto__ 1) data/rows)",
  "(reduce (fn [acc r] (update acc (:status r) (fnil + 0) 1)) {} data/rows)",
  "(reduce (fn [acc r] (update-in acc [(:status r) :n] (fnil inc 0))) {} data/rows)",
  "(reduce (fn [acc r] (merge-with + acc {(:status r) 1})) {} data/rows)",
  "(frequencies (map :toString data/rows))",
  "(into {} (map (fn [r] [(:status r) (:amount r)]) data/rows))",
  '(mapv (fn [r] (get r "__proto__")) data/rows)',
  "(mapv :hasOwnProperty data/rows)",
  "(mapv keys data/rows)",
  "(max-by :amount data/rows)",
  "(distinct (map :k data/rows))",
  "(take 3 (map :amount (filter :status data/rows)))",
  "(mapv (fn [a b] (compare (:amount a) (:amount b))) data/rows (rest data/rows))",
  '(str/join "," (map :status data/rows))',
];

describe("the engines agree on hostile input", () => {
  const thresholdBefore = promotionPolicy.threshold;
  beforeAll(() => {
    promotionPolicy.threshold = 0;
  });
  afterAll(() => {
    promotionPolicy.threshold = thresholdBefore;
  });

  test("arithmetic at the edges of numbers, in every shape of fast path", { timeout: 60_000 }, async () => {
    const context = { pairs: PAIRS };
    await fc.assert(
      fc.asyncProperty(expression, fc.nat(SHAPES.length - 1), async (e, shape) => {
        await expectAgreement((SHAPES[shape] as (e: string) => string)(e), { context });
      }),
      { numRuns: 120 },
    );
  });

  test("rows with hostile values and keys, through the fast paths over rows", {
    timeout: 60_000,
  }, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(hostileRow, { maxLength: 6 }),
        fc.constantFrom(...ROW_PROGRAMS),
        async (rows, source) => {
          const before = rows.map((row) => Object.entries(row));
          deepFreeze(rows);
          await expectAgreement(source, { context: { rows } });
          // Frozen, so a write would throw in strict code; a sloppy one would be silent, so look too.
          expect(rows.map((row) => Object.entries(row))).toEqual(before);
        },
      ),
      { numRuns: 150 },
    );
  });

  test("host values of every kind (Map, Set, typed arrays, Dates, holes, cycles, class instances, getters) give one outcome", async () => {
    const cyclic: Record<string, unknown> = { amount: 1 };
    cyclic.self = cyclic;
    class Order {
      amount = 3;
    }
    const hostile: Record<string, unknown> = {
      map: new Map([["amount", 1]]),
      set: new Set([1, 2]),
      typed: new Float64Array([1, 2]),
      date: [{ amount: new Date(0) }],
      sparse: [{ amount: 1 }, undefined, { amount: 3 }],
      cyclic: [cyclic, cyclic],
      instances: [new Order(), new Order()],
      getters: [
        {
          get amount() {
            return 7;
          },
        },
      ],
      symbols: [{ amount: Symbol("s") }],
      functions: [{ amount: () => 1 }],
    };
    for (const name of Object.keys(hostile)) {
      for (const source of ROW_PROGRAMS) {
        await expectAgreement(source.replaceAll("data/rows", `data/${name}`), { context: hostile });
      }
    }
  });
});
