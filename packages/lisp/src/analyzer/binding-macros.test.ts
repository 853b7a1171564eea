/** The binding macros (if-let, if-some) and iteration bindings, as a model writes them. */
import { describe, expect, test } from "vitest";
import { evaluate, failure } from "../test-support.js";

describe("if-let and if-some", () => {
  test("the else branch is optional and defaults to nil", async () => {
    expect(await evaluate("(if-let [x 1] x)")).toBe("1");
    expect(await evaluate("(if-let [x nil] x)")).toBe("nil");
    expect(await evaluate("(if-let [x (:a {:a 2})] (inc x))")).toBe("3");
    expect(await evaluate("(if-some [x false] [x])")).toBe("[false]");
    expect(await evaluate("(if-some [x nil] [x])")).toBe("nil");
  });

  test("with an else, the else runs when the binding is falsy", async () => {
    expect(await evaluate("(if-let [x false] x :none)")).toBe(":none");
    expect(await evaluate("(if-some [x nil] x :none)")).toBe(":none");
  });

  test("more than one else is refused with the form to write", async () => {
    const error = await failure("(if-let [x 1] x 2 3)");
    expect(error.reason).toBe("invalid_arity");
    expect(error.message).toContain("(if-let [name expr] then else?)");
    expect((await failure("(if-some [x 1])")).message).toContain("(if-some [name expr] then else?)");
  });
});

describe("for and doseq over something that is not a collection", () => {
  test("a literal number, keyword or boolean is a type error, as the same value is at run time", async () => {
    for (const source of ["(for [x 5] x)", "(doseq [x :k] x)", "(for [x [1] y true] y)"]) {
      const error = await failure(source);
      expect(error.reason, source).toBe("type_error");
      expect(error.message, source).toContain("expected a collection");
    }
    const atRunTime = await failure("(let [n 5] (for [x n] x))");
    expect(atRunTime.reason).toBe("type_error");
  });
});
