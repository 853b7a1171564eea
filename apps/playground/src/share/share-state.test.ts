import { describe, expect, test } from "vitest";
import { codeFromQuery, decodeState, encodeState, type PlaygroundState } from "./share-state.js";

const state: PlaygroundState = {
  program: '(->> (tool/list-orders {:status "paid"})\n     (sum-by :amount)) ; «non-ASCII» ✓',
  context: JSON.stringify({ rows: Array.from({ length: 200 }, (_, id) => ({ id, status: "paid" })) }),
  tools: [
    { name: "list_orders", result: '[{"amount": 3}]' },
    { name: "empty", result: "[]" },
  ],
};

describe("share links", () => {
  test("a hash gives back the program, context and tools it was made from", async () => {
    const hash = await encodeState(state);
    expect(hash).toMatch(/^#v1\.[A-Za-z0-9_-]+$/);
    expect(await decodeState(hash)).toEqual(state);
  });

  test("the hash is compressed: repetitive context costs far less than its text", async () => {
    const hash = await encodeState(state);
    expect(hash.length).toBeLessThan(state.context.length / 5);
  });

  test("a hash that is not a share link is not read", async () => {
    expect(await decodeState("")).toBeUndefined();
    expect(await decodeState("#section-2")).toBeUndefined();
  });

  test("a damaged link says so, and what to do", async () => {
    const hash = await encodeState(state);
    await expect(decodeState(`${hash.slice(0, 12)}xx${hash.slice(14, 40)}`)).rejects.toThrow(
      /this share link is damaged .*ask for the link again/,
    );
  });

  test("?code= carries a program alone", () => {
    expect(codeFromQuery(`?code=${encodeURIComponent('(+ 1 2)\n(str "a&b")')}`)).toBe('(+ 1 2)\n(str "a&b")');
    expect(codeFromQuery("?codegen=off")).toBeUndefined();
  });
});
