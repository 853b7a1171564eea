/** `RunResult.warnings`: what a run lets pass but the program's author should hear about. */
import { describe, expect, test } from "vitest";
import { createSession, run } from "./index.js";

describe("a data/ key the context does not have", () => {
  const context = { orders: [{ total: 5 }], customers: [] };

  test("still reads as nil, as in the reference, with a warning naming the nearest key", async () => {
    const result = await run("(count data/ordrs)", { context });
    expect(result.ok && result.value).toBe(0);
    expect(result.warnings).toEqual([
      "data/ordrs is not in the context, so it reads as nil; did you mean data/orders?",
    ]);
  });

  test("lists the keys there are when none is near", async () => {
    const result = await run("data/invoices", { context });
    expect(result.warnings).toEqual([
      "data/invoices is not in the context, so it reads as nil; the context has data/customers, data/orders",
    ]);
    expect((await run("data/x", {})).warnings).toEqual([
      "data/x is not in the context, so it reads as nil; the context is empty",
    ]);
  });

  test("is warned about on failed runs too, where it is often the cause", async () => {
    const result = await run("(reduce + (map :total data/order))", { context });
    expect(result.ok).toBe(true);
    const failed = await run("(first (sort data/order)) (fail :no-orders)", { context });
    expect(failed.ok).toBe(false);
    expect(failed.warnings).toEqual([
      "data/order is not in the context, so it reads as nil; did you mean data/orders?",
    ]);
  });

  test("keys present under another spelling (flexible lookup) and nil values are no warning", async () => {
    const result = await run("[data/user-id data/missing-ok]", {
      context: { user_id: 7, "missing-ok": null },
    });
    expect(result.ok).toBe(true);
    expect(result.warnings).toEqual([]);
  });

  test("a compiled program reused for another context warns about that context", async () => {
    const source = "(count data/rows)";
    expect((await run(source, { context: { rows: [1] } })).warnings).toEqual([]);
    expect((await run(source, { context: { row: [1] } })).warnings).toEqual([
      "data/rows is not in the context, so it reads as nil; did you mean data/row?",
    ]);
  });
});

describe("extra closing brackets", () => {
  test("are ignored, as in the reference, with a warning that says where", async () => {
    const result = await run("(+ 1 2))");
    expect(result.ok && result.value).toBe(3);
    expect(result.warnings).toEqual([
      "ignored an extra closing bracket with nothing open: ')' at line 1, column 8. Check that the forms before close where you meant",
    ]);
  });

  test("between forms too, listing the first few", async () => {
    const result = await run("(def a 1))\n(def b 2)]]}}\n(+ a b)");
    expect(result.ok && result.value).toBe(3);
    expect(result.warnings[0]).toBe(
      "ignored extra closing brackets with nothing open: ')' at line 1, column 10, ']' at line 2, column 10, ']' at line 2, column 11 and 2 more. Check that the forms before close where you meant",
    );
  });

  test("a lone closer is nil with the warning; a clean program has no warnings", async () => {
    const lone = await run(")");
    expect(lone.ok && lone.value).toBe(null);
    expect(lone.warnings).toHaveLength(1);
    expect((await run("(+ 1 2)")).warnings).toEqual([]);
  });

  test("in a session, as in a single run", async () => {
    const session = createSession();
    expect((await run("(def x 1))", { session })).warnings).toHaveLength(1);
  });
});
