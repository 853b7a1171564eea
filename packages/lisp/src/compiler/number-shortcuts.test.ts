/**
 * The general evaluator's number shortcuts (number-shortcuts.ts): `(< i 10)`, `(> (:amount o) 500)`,
 * `(= (:status o) "paid")`, `(- n 1)`, `(* i j)` answered in the node when the values read are plain
 * numbers (or strings for `=`). They must answer exactly what the operation called as a value
 * answers, for every kind of value read (the fallback included), and be the path that ran.
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { format, type RunResult, run } from "../index.js";
import { shortcutStats } from "./number-shortcuts.js";
import { inlineOperandStats } from "./operand-arithmetic.js";

function outcome(result: RunResult): unknown {
  return result.ok ? { value: format(result.value) } : { error: result.error.reason };
}

async function general(source: string): Promise<unknown> {
  return outcome(await run(source, { engine: "general" }));
}

const values = fc.constantFrom(
  "0",
  "-0.0",
  "1",
  "2",
  "1.0",
  "2.5",
  "0.5",
  "-3",
  "9007199254740991",
  "9007199254740993",
  "4503599627370496.5",
  "##NaN",
  "##Inf",
  '"a"',
  '"paid"',
  '""',
  "nil",
  ":k",
  "true",
  "[1]",
);
const constants = fc.constantFrom("0", "1", "2", "2.5", "-3", "1.0", "9007199254740991", '"paid"', '"a"');
const comparisons = fc.constantFrom("<", ">", "<=", ">=", "=");
const operators = fc.constantFrom("<", ">", "<=", ">=", "=", "+", "-", "*");

describe("number shortcuts on the general evaluator", () => {
  test("a local or a field against a constant: the operator's answers, on either side", async () => {
    await fc.assert(
      fc.asyncProperty(comparisons, values, constants, async (op, x, c) => {
        const plain = await general(`(let [f ${op} x ${x}] [(f x ${c}) (f ${c} x)])`);
        expect(await general(`(let [x ${x}] [(${op} x ${c}) (${op} ${c} x)])`)).toEqual(plain);
        expect(await general(`(let [m {:v ${x}}] [(${op} (:v m) ${c}) (${op} ${c} (:v m))])`)).toEqual(plain);
      }),
      { numRuns: 300 },
    );
  });

  test("two locals or fields, and arithmetic with a constant: the operator's answers", async () => {
    await fc.assert(
      fc.asyncProperty(operators, values, values, constants, async (op, x, y, c) => {
        const plain = await general(`(let [f ${op} x ${x} y ${y}] [(f x y) (f x ${c}) (f ${c} y)])`);
        expect(await general(`(let [x ${x} y ${y}] [(${op} x y) (${op} x ${c}) (${op} ${c} y)])`)).toEqual(
          plain,
        );
        expect(
          await general(
            `(let [m {:a ${x} :b ${y}}] [(${op} (:a m) (:b m)) (${op} (:a m) ${c}) (${op} ${c} (:b m))])`,
          ),
        ).toEqual(plain);
      }),
      { numRuns: 300 },
    );
  });

  test("an arithmetic shortcut as an operand of another: the operators' answers", async () => {
    const arithmetic = fc.constantFrom("+", "-", "*");
    await fc.assert(
      fc.asyncProperty(operators, arithmetic, values, values, values, async (outer, inner, x, y, z) => {
        const plain = await general(
          `(let [f ${outer} g ${inner} x ${x} y ${y} z ${z}] [(f x (g y z)) (f (g y z) x) (f (g x y) (g y z))])`,
        );
        const before = shortcutStats.nestedArithmetic;
        const nested = await general(
          `(let [x ${x} y ${y} z ${z}] [(${outer} x (${inner} y z)) (${outer} (${inner} y z) x) (${outer} (${inner} x y) (${inner} y z))])`,
        );
        expect(nested).toEqual(plain);
        if (["+", "-", "*"].includes(outer)) expect(shortcutStats.nestedArithmetic - before).toBe(3);
      }),
      { numRuns: 300 },
    );
  });

  test("inc and dec of a local: the builtin's answers", async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom("inc", "dec"), values, async (op, x) => {
        const plain = await general(`(let [f ${op} x ${x}] (f x))`);
        expect(await general(`(let [x ${x}] (${op} x))`)).toEqual(plain);
      }),
      { numRuns: 100 },
    );
    for (const x of ["9007199254740990", "9007199254740991", "-9007199254740991", "-9007199254740990"]) {
      for (const op of ["inc", "dec"]) {
        expect(await general(`(let [x ${x}] (${op} x))`)).toEqual(
          await general(`(let [f ${op} x ${x}] (f x))`),
        );
      }
    }
  });

  test("are the path compiled for operands read from the frame", async () => {
    const before = { ...shortcutStats };
    const result = await run(
      `(let [rows [{:s "paid" :a 600} {:s "paid" :a 10} {:s "open" :a 900}]]
         [(count (filter #(and (= (:s %) "paid") (> (:a %) 500)) rows))
          (loop [i 0 n 0] (if (< i 5) (recur (inc i) (+ n (* i i))) n))
          (count (filter #(= "open" (:s %)) rows))
          (let [a 3 b 4] (< a b))])`,
      { engine: "general" },
    );
    expect(result.ok && format(result.value)).toBe("[1 30 1 true]");
    // (= (:s %) "paid"), (> (:a %) 500), (< i 5), (= "open" (:s %))
    expect(shortcutStats.constantComparisons - before.constantComparisons).toBe(4);
    // (* i i), and (+ n (* i i)), whose operand is that shortcut
    expect(shortcutStats.operandArithmetic - before.operandArithmetic).toBe(2);
    expect(shortcutStats.nestedArithmetic - before.nestedArithmetic).toBe(1);
    expect(shortcutStats.operandComparisons - before.operandComparisons).toBe(1);
    expect(shortcutStats.counting - before.counting).toBe(1); // (inc i)
  });

  test("arithmetic reads locals, constants and fields in its own node, with the operation's answers", async () => {
    const shapes = (op: string, c: string) =>
      `[(${op} x ${c}) (${op} ${c} x) (${op} x y) (${op} x (${op} y 1)) (${op} (${op} y 1) x) (${op} (:a m) (:b m))]`;
    await fc.assert(
      fc.asyncProperty(fc.constantFrom("+", "-", "*"), values, values, constants, async (op, x, y, c) => {
        const plain = await general(
          `(let [f ${op} x ${x} y ${y} m {:a ${x} :b ${y}}] [(f x ${c}) (f ${c} x) (f x y) (f x (f y 1)) (f (f y 1) x) (f (:a m) (:b m))])`,
        );
        const before = inlineOperandStats.nodes;
        expect(await general(`(let [x ${x} y ${y} m {:a ${x} :b ${y}}] ${shapes(op, c)})`)).toEqual(plain);
        // Six outer nodes and the two inner (op y 1): local-const, const-local, local-local,
        // local-code, code-local and field-field, all eight read in place.
        expect(inlineOperandStats.nodes - before).toBe(8);
      }),
      { numRuns: 300 },
    );
  });

  test("arithmetic of a field with a local or a constant reads the field in its own node", async () => {
    // `(+ acc (:amount o))`, `(* (:price o) 2)`: the field read in the arithmetic node, no reader
    // closure between. Same answers as the operation called as a value, on a program map and on a
    // host row, for every kind of value the field holds.
    const shapes = (op: string, c: string, m: string) =>
      `[(${op} x (:b ${m})) (${op} (:a ${m}) y) (${op} (:a ${m}) ${c}) (${op} ${c} (:b ${m})) (${op} x (:missing ${m}))]`;
    await fc.assert(
      fc.asyncProperty(fc.constantFrom("+", "-", "*"), values, values, constants, async (op, x, y, c) => {
        const plain = await general(
          `(let [f ${op} x ${x} y ${y} m {:a ${x} :b ${y}}] [(f x (:b m)) (f (:a m) y) (f (:a m) ${c}) (f ${c} (:b m)) (f x (:missing m))])`,
        );
        const before = inlineOperandStats.nodes;
        expect(await general(`(let [x ${x} y ${y} m {:a ${x} :b ${y}}] ${shapes(op, c, "m")})`)).toEqual(
          plain,
        );
        // local-field, field-local, field-const, const-field and local-field again.
        expect(inlineOperandStats.nodes - before).toBe(5);
      }),
      { numRuns: 200 },
    );
    const row = { a: 2.5, b: 4, s: "x" };
    const onRow = async (source: string) =>
      outcome(await run(source, { engine: "general", context: { row } }));
    expect(
      await onRow("(let [r data/row x 3] [(+ x (:b r)) (- (:a r) x) (* (:a r) 2) (- 10 (:b r))])"),
    ).toEqual({
      value: "[7 -0.5 5.0 6]",
    });
    // A field that is not a number fails as the operation does, at the same form.
    const failed = await run("(let [r data/row x 3]\n  (+ x (:s r)))", {
      engine: "general",
      context: { row },
    });
    const called = await run("(let [r data/row x 3 f +]\n  (f x (:s r)))", {
      engine: "general",
      context: { row },
    });
    expect(failed.ok || called.ok).toBe(false);
    if (!failed.ok && !called.ok) {
      expect(JSON.parse(JSON.stringify(failed.error))).toEqual(JSON.parse(JSON.stringify(called.error)));
      expect([failed.error.line, failed.error.column]).toEqual([2, 3]);
    }
    // A host row whose getter throws is reported as unreadable host data, as before.
    const hostile = {};
    Object.defineProperty(hostile, "b", {
      enumerable: true,
      get() {
        throw new Error("the getter broke");
      },
    });
    const broken = await run("(let [r data/row x 3] (+ x (:b r)))", {
      engine: "general",
      context: { row: hostile },
    });
    expect(broken.ok).toBe(false);
    if (!broken.ok) expect(broken.error.reason).toBe("host_data_error");
  });

  test("a loop whose test is a shortcut is still cut off by the iteration limit", async () => {
    const result = await run("(loop [i 0] (if (>= i 0) (recur (inc i)) i))", {
      engine: "general",
      limits: { maxIterations: 1000 },
    });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.reason).toBe("loop_limit_exceeded");
  });

  test("recursion whose base case is a shortcut is still cut off by the depth limit", async () => {
    const result = await run("(defn down [n] (if (< n -1) n (+ 1 (down (- n 1)))))\n(down 100000)", {
      engine: "general",
      limits: { maxDepth: 200 },
    });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.reason).toBe("recursion_limit_exceeded");
  });
});
