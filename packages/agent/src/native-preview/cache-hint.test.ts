import { read } from "@ptc/lisp";
import { describe, expect, it } from "vitest";
import { cacheHint } from "./index.js";

/** The `(tool/name ARGS)` call inside a hint. */
function callOf(args: unknown, name = "search_logs"): string {
  const hint = cacheHint(name, args);
  const prefix = "Call lisp_eval and then call ";
  const suffix = " to process the full cached result.";
  expect(hint.startsWith(prefix)).toBe(true);
  expect(hint.endsWith(suffix)).toBe(true);
  return hint.slice(prefix.length, hint.length - suffix.length);
}

/** The key/value forms of the map in `(tool/name {...})`, as the PTC-Lisp reader reads them. */
function readArgs(call: string): unknown[] {
  const [form] = read(call);
  if (form?.type !== "list") throw new Error(`expected a list form, got ${form?.type}`);
  const map = form.items[1];
  if (map?.type !== "map") throw new Error(`expected a map form, got ${map?.type}`);
  return map.items.map((item) =>
    item.type === "keyword"
      ? { type: item.type, name: item.name }
      : { type: item.type, value: "value" in item ? item.value : undefined },
  );
}

describe("cacheHint", () => {
  it("renders the reference example", () => {
    expect(cacheHint("search_logs", { query: "error code 42" })).toBe(
      'Call lisp_eval and then call (tool/search_logs {:query "error code 42"}) to process the full cached result.',
    );
  });

  it("escapes quotes, backslashes and newlines the way the PTC-Lisp reader reads them back", () => {
    const query = 'say "hi"\\now\nnext\tline';
    const call = callOf({ query });
    expect(call).toBe('(tool/search_logs {:query "say \\"hi\\"\\\\now\\nnext\\tline"})');
    expect(readArgs(call)).toEqual([
      { type: "keyword", name: "query" },
      { type: "string", value: query },
    ]);
  });

  it("sorts keys whatever order they arrived in", () => {
    expect(callOf({ b: 2, a: 1, c: 3 })).toBe("(tool/search_logs {:a 1 :b 2 :c 3})");
    expect(cacheHint("t", { z: { y: 1, x: 2 }, a: 0 })).toBe(cacheHint("t", { a: 0, z: { x: 2, y: 1 } }));
  });

  it("renders nested maps as nested keyword maps", () => {
    expect(callOf({ filter: { level: "error", window: { hours: 1 } } })).toBe(
      '(tool/search_logs {:filter {:level "error" :window {:hours 1}}})',
    );
  });

  it("renders arrays as vectors", () => {
    expect(callOf({ ids: [1, 2, 3], tags: ["a", "b"], nested: [[1], { k: "v" }] })).toBe(
      '(tool/search_logs {:ids [1 2 3] :nested [[1] {:k "v"}] :tags ["a" "b"]})',
    );
  });

  it("renders whole-valued numbers as integers and keeps fractions", () => {
    expect(callOf({ limit: 1.0, negative: -3.0, zero: -0, ratio: 0.25 })).toBe(
      "(tool/search_logs {:limit 1 :negative -3 :ratio 0.25 :zero 0})",
    );
  });

  it("renders null and undefined as nil and booleans as themselves", () => {
    expect(callOf({ a: null, b: undefined, c: true, d: false })).toBe(
      "(tool/search_logs {:a nil :b nil :c true :d false})",
    );
  });

  it("normalizes hyphenated keys to underscores at any depth, as the cache key does", () => {
    expect(callOf({ "was-improved": true, outer: { "inner-key": 1 } })).toBe(
      "(tool/search_logs {:outer {:inner_key 1} :was_improved true})",
    );
    expect(callOf({ a_b: 1, "a-b": 2 })).toBe(callOf({ "a-b": 2, a_b: 1 }));
  });

  it("renders empty arguments as an empty map", () => {
    expect(callOf({})).toBe("(tool/search_logs {})");
  });

  it("keeps keys that cannot be keywords as string keys", () => {
    expect(callOf({ "two words": 1, ok: 2 })).toBe('(tool/search_logs {:ok 2 "two words" 1})');
  });

  it("renders arguments that are not an object as the value itself", () => {
    expect(callOf("plain")).toBe('(tool/search_logs "plain")');
    expect(callOf([1, 2])).toBe("(tool/search_logs [1 2])");
  });

  it("keeps the tool's name as given", () => {
    expect(callOf({}, "my-tool")).toBe("(tool/my-tool {})");
  });

  it("does not throw on cyclic arguments", () => {
    const args: Record<string, unknown> = { a: 1 };
    args.self = args;
    expect(callOf(args)).toBe("(tool/search_logs {:a 1 :self nil})");
  });

  it("produces a call the PTC-Lisp reader accepts", () => {
    const call = callOf({ query: 'a "b"\n', ids: [1, 2.5], nested: { "x-y": null } });
    expect(readArgs(call).filter((_, index) => index % 2 === 0)).toEqual([
      { type: "keyword", name: "ids" },
      { type: "keyword", name: "nested" },
      { type: "keyword", name: "query" },
    ]);
    expect(readArgs(call)[5]).toEqual({ type: "string", value: 'a "b"\n' });
  });
});
