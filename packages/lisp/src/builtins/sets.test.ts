import { describe, expect, test } from "vitest";
import { evaluate, failure } from "../test-support.js";

async function expectAll(cases: ReadonlyArray<readonly [string, string]>): Promise<void> {
  for (const [source, expected] of cases) expect(await evaluate(source), source).toBe(expected);
}

describe("building sets", () => {
  test("set and hash-set collapse equal members", async () => {
    await expectAll([
      ["(set [1 2 2 3])", "#{1 2 3}"],
      ["(set #{1})", "#{1}"],
      ["(set [])", "#{}"],
      ["(set [[1] [1] {:a 1} {:a 1}])", "#{{:a 1} [1]}"],
      ["(set [1 1.0])", "#{1}"],
      ["(hash-set 1 1 2)", "#{1 2}"],
      ["(hash-set)", "#{}"],
    ]);
  });

  test("set of nil is the empty set and set of a map holds its entries", async () => {
    await expectAll([
      ["(set nil)", "#{}"],
      ["(set {:a 1 :b 2})", "#{[:a 1] [:b 2]}"],
    ]);
  });

  test("set refuses strings and scalars with advice", async () => {
    const text = await failure('(set "abc")');
    expect(text.reason).toBe("type_error");
    expect(text.message).toContain("(set (vec s))");
    expect((await failure("(set 5)")).reason).toBe("type_error");
  });
});

describe("contains?", () => {
  test("checks map keys flexibly, set members and vector elements", async () => {
    await expectAll([
      ["(contains? {:a 1} :a)", "true"],
      ["(contains? {:a nil} :a)", "true"],
      ["(contains? {:a 1} :b)", "false"],
      ['(contains? {"a" 1} :a)', "true"],
      ['(contains? {:a 1} "a")', "true"],
      ["(contains? #{1 2} 2)", "true"],
      ["(contains? #{[1 2]} [1 2])", "true"],
      ["(contains? #{1 2} 3)", "false"],
      ['(contains? ["a" "b"] "b")', "true"],
      ["(contains? [1 2 3] 0)", "false"],
      ["(contains? [{:a 1}] {:a 1})", "true"],
      ["(contains? [1 2] 2.0)", "true"],
      ["(contains? nil :a)", "false"],
    ]);
  });

  test("finds underscored host keys from hyphenated keywords", async () => {
    expect(await evaluate("(contains? data/user :user-id)", { context: { user: { user_id: 7 } } })).toBe(
      "true",
    );
    expect(await evaluate("(contains? data/user :name)", { context: { user: { user_id: 7 } } })).toBe(
      "false",
    );
  });

  test("refuses strings, pointing at includes?", async () => {
    const error = await failure('(contains? "abc" "a")');
    expect(error.reason).toBe("type_error");
    expect(error.message).toContain("(includes? s sub)");
    expect((await failure("(contains? 5 1)")).reason).toBe("type_error");
  });
});

describe("disj", () => {
  test("removes members, ignoring absent ones", async () => {
    await expectAll([
      ["(disj #{1 2 3} 2)", "#{1 3}"],
      ["(disj #{1 2 3} 1 3 9)", "#{2}"],
      ["(disj #{1 2})", "#{1 2}"],
      ["(disj nil 1)", "nil"],
      ["(let [s #{1 2}] (disj s 1) s)", "#{1 2}"],
    ]);
    expect((await failure("(disj [1 2] 1)")).reason).toBe("type_error");
  });
});

describe("set algebra", () => {
  test("union, intersection and difference, bare or with set/ and clojure.set/", async () => {
    await expectAll([
      ["(union #{1 2} #{2 3})", "#{1 2 3}"],
      ["(union)", "#{}"],
      ["(union #{1})", "#{1}"],
      ["(union #{1} nil #{2 3} #{4})", "#{1 2 3 4}"],
      ["(set/union #{1} #{2})", "#{1 2}"],
      ["(intersection #{1 2 3} #{2 3 4} #{3 4})", "#{3}"],
      ["(intersection #{1 2})", "#{1 2}"],
      ["(intersection #{1 2} nil)", "#{}"],
      ["(clojure.set/intersection #{1 2} #{2})", "#{2}"],
      ["(difference #{1 2 3} #{2} #{3 4})", "#{1}"],
      ["(difference #{1 2} #{1 2 3 4 5})", "#{}"],
      ["(difference #{1 2})", "#{1 2}"],
      ["(set/difference #{[1] [2]} #{[2]})", "#{[1]}"],
    ]);
  });

  test("intersection and difference need at least one set", async () => {
    expect((await failure("(clojure.set/intersection)")).reason).toBe("arity_error");
    expect((await failure("(difference)")).reason).toBe("arity_error");
  });

  test("refuses other collections, saying how to convert them", async () => {
    const error = await failure("(union #{1} [2 3])");
    expect(error.reason).toBe("type_error");
    expect(error.message).toBe("union expects sets, got vector [2 3]; convert a collection with (set coll)");
    expect((await failure("(intersection [1] #{1})")).reason).toBe("type_error");
    expect((await failure("(difference #{1} {:a 1})")).reason).toBe("type_error");
  });

  test("inputs are left unchanged", async () => {
    expect(
      await evaluate("(let [a #{1 2} b #{2 3}] (union a b) (intersection a b) (difference a b) [a b])"),
    ).toBe("[#{1 2} #{2 3}]");
  });
});

describe("sets with other sequence functions", () => {
  test("sets convert, count and pour", async () => {
    await expectAll([
      ["(count #{1 2})", "2"],
      ["(vec #{3 1 2})", "[1 2 3]"],
      ["(into #{} [3 3 1])", "#{1 3}"],
      ["(conj #{1} 2)", "#{1 2}"],
      ["(empty? #{})", "true"],
      ["(seq #{})", "nil"],
    ]);
  });
});
