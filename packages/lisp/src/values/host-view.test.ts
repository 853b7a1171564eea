/**
 * Program values in the host's generic tools: `JSON.stringify` and `console.log`/`util.inspect`
 * show what a value is, never the persistent table's internals, and never throw.
 */
import { inspect } from "node:util";
import { describe, expect, test } from "vitest";
import { Keyword, LispMap, LispSet, run, toJson, WholeFloat } from "../index.js";

async function value(source: string): Promise<unknown> {
  const result = await run(source);
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

describe("JSON.stringify", () => {
  test("writes program maps, sets, keywords and whole floats as JSON data, like toJson", async () => {
    const v = await value('{:name "ada" :tags #{:x :y} :score 2.0 :nested {"k" [1 :a]}}');
    expect(JSON.parse(JSON.stringify(v))).toEqual(toJson(v));
    expect(JSON.stringify(v)).toBe('{"name":"ada","nested":{"k":[1,"a"]},"score":2,"tags":["x","y"]}');
  });

  test("does not throw on a (fail {...}) error, and writes the failed value as data", async () => {
    const result = await run("(fail {:reason :not-found :id 7 :big 123456789012345678901234567890})");
    expect(result.ok).toBe(false);
    const json = JSON.parse(JSON.stringify(result.ok ? null : result.error));
    expect(json).toMatchObject({
      reason: "fail",
      value: { reason: "not-found", id: 7, big: "123456789012345678901234567890" },
    });
  });

  test("writes a whole result, value included, and the method does not show as data", async () => {
    const result = await run("{:a #{1}}");
    expect(JSON.parse(JSON.stringify(result))).toMatchObject({ ok: true, value: { a: [1] } });
    expect(Object.keys(result)).not.toContain("toJSON");
    expect({ ...result }).not.toHaveProperty("toJSON");
  });

  test("keys that are not strings become text", async () => {
    expect(JSON.stringify(await value("{1 :one :k :v nil 0}"))).toBe('{"1":"one","k":"v","nil":0}');
  });
});

describe("console.log and util.inspect", () => {
  test("show a map like a JS Map, with keywords as :name", async () => {
    const v = await value('{:a 1 :b [1 2] "c" #{:x}}');
    expect(inspect(v)).toBe("LispMap(3) { :a => 1, :b => [ 1, 2 ], 'c' => LispSet(1) { :x } }");
  });

  test("show keywords, whole floats and the language's other values as the language prints them", async () => {
    expect(inspect(Keyword.of("status"))).toBe(":status");
    expect(inspect(new WholeFloat(2))).toBe("2.0");
    expect(inspect(await value('(re-pattern "a+")'))).toBe('#"a+"');
  });

  test("respect the depth Node asks for", async () => {
    const v = await value("{:a {:b {:c {:d 1}}}}");
    expect(inspect(v, { depth: 1 })).toBe("LispMap(1) { :a => LispMap(1) { :b => [LispMap] } }");
    expect(inspect(LispSet.from([1, 2, 3]), { maxArrayLength: 2 })).toBe(
      "LispSet(3) { 1, 2, ... 1 more item }",
    );
  });

  test("an empty map or set is short", () => {
    expect(inspect(LispMap.empty())).toBe("LispMap(0) {}");
    expect(inspect(LispSet.empty())).toBe("LispSet(0) {}");
  });
});
