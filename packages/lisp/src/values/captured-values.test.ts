import { describe, expect, test } from "vitest";
import { capturedValues, run } from "../index.js";

describe("capturedValues", () => {
  test("lists what closures captured, and nothing for values without functions", async () => {
    const result = await run('(let [a "alpha" f (fn [] a)] [f {:g (let [b [1 2]] (fn [] b))} #{1}])');
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(capturedValues(result.value)).toEqual(expect.arrayContaining(["alpha", [1, 2]]));
    expect(capturedValues([1, "x", null])).toEqual([]);
  });

  test("a captured map over a host row whose getter now throws is left out, not thrown", async () => {
    let armed = false;
    const row = {
      id: 1,
      get note(): string {
        if (armed) throw new Error("gone");
        return "n";
      },
    };
    const result = await run("(let [r (assoc (first data/rows) :x 1)] (fn [] r))", {
      context: { rows: [row] },
    });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    armed = true;
    expect(() => capturedValues(result.value)).not.toThrow();
    expect(capturedValues(result.value)).toHaveLength(1);
  });
});
