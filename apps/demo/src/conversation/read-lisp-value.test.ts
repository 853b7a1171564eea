import { describe, expect, test } from "vitest";
import { readLispValue } from "./read-lisp-value.js";

describe("readLispValue", () => {
  test("reads the printer's maps, vectors, strings, numbers, keywords and literals", () => {
    expect(
      readLispValue(
        'user=> {:top-services [{:errors 654 :service "checkout"}] :total 1842 :ok true :none nil}',
      ),
    ).toEqual({ "top-services": [{ errors: 654, service: "checkout" }], total: 1842, ok: true, none: null });
    expect(readLispValue('[["Initech \\"Foods\\"" 241369.8] #{1 2} (3 :kw) -1.5E3]')).toEqual([
      ['Initech "Foods"', 241369.8],
      [1, 2],
      [3, "kw"],
      -1500,
    ]);
  });

  test("refuses a truncated preview rather than read half a value", () => {
    expect(() => readLispValue("user=> {:a 1 :b 2 ...} (8/10)")).toThrow(/truncated/);
    expect(() => readLispValue('user=> ["abc')).toThrow(/unterminated string/);
  });
});
