/** keyword and name through the public API. */
import { describe, expect, test } from "vitest";
import { evaluate, failure } from "../test-support.js";

describe("keyword", () => {
  test("turns a valid name into a keyword; keywords and nil pass through", async () => {
    expect(await evaluate('(keyword "status")')).toBe(":status");
    expect(await evaluate('(keyword "user-id_2?")')).toBe(":user-id_2?");
    expect(await evaluate("(keyword :a)")).toBe(":a");
    expect(await evaluate("(keyword nil)")).toBe("nil");
    expect(await evaluate("(= :hello (keyword (name :hello)))")).toBe("true");
  });

  test("a keyword made from data finds the same keys as a literal one", async () => {
    expect(await evaluate('(get {:total 5} (keyword "total"))')).toBe("5");
    expect(await evaluate('((keyword "b") {"b" 2})')).toBe("2");
  });

  test("names a program could not write back are refused", async () => {
    for (const text of ['"a b"', '"a/b"', '""', '"+"', '"1abc"', '"-x"']) {
      const error = await failure(`(keyword ${text})`);
      expect(error.reason).toBe("runtime_error");
      expect(error.message).toContain("invalid keyword name");
    }
  });

  test("other values are refused with a clean message", async () => {
    const special = await failure("(keyword ##Inf)");
    expect(special.message).toContain("cannot coerce special value");
    expect(special.message).toContain("##Inf");
    const number = await failure("(keyword 5)");
    expect(number.reason).toBe("runtime_error");
    expect(number.message).toContain("integer 5");
    expect((await failure("(keyword true)")).reason).toBe("runtime_error");
  });
});

describe("name", () => {
  test("the name of a keyword, a string as is", async () => {
    expect(await evaluate("(name :user-id)")).toBe('"user-id"');
    expect(await evaluate('(name "x")')).toBe('"x"');
    expect(await evaluate("(map name [:a :b])")).toBe('["a" "b"]');
    expect(await evaluate("(name 'foo)")).toBe('"foo"');
  });

  test("anything else is an error that points to str", async () => {
    for (const value of ["nil", "42", "1.5", "[1]", "true"]) {
      const error = await failure(`(name ${value})`);
      expect(error.reason).toBe("runtime_error");
      expect(error.message).toContain("name not supported on");
      expect(error.message).toContain("(str x)");
    }
    expect((await failure("(name ##Inf)")).message).toContain("special value");
  });
});
