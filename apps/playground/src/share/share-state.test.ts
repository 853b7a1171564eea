import { describe, expect, test } from "vitest";
import {
  codeFromQuery,
  decodeState,
  encodeState,
  MAX_SHARED_BYTES,
  type PlaygroundState,
} from "./share-state.js";

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

  test("a link that unpacks past the cap is refused before it is unpacked whole", async () => {
    // About 1,000 to 1: a link of some 30 KB that would unpack to 32 MiB.
    const bomb = { ...state, context: JSON.stringify({ pad: "a".repeat(4 * MAX_SHARED_BYTES) }) };
    const hash = await encodeState(bomb);
    expect(hash.length).toBeLessThan(MAX_SHARED_BYTES / 100);
    await expect(decodeState(hash)).rejects.toThrow(
      /unpacks to more than 8 MiB, more than the playground opens/,
    );
    // Just under the cap still opens.
    const large = { ...state, context: JSON.stringify({ pad: "a".repeat(MAX_SHARED_BYTES - 1024) }) };
    expect(await decodeState(await encodeState(large))).toEqual(large);
  });

  test("?code= carries a program alone", () => {
    expect(codeFromQuery(`?code=${encodeURIComponent('(+ 1 2)\n(str "a&b")')}`)).toBe('(+ 1 2)\n(str "a&b")');
    expect(codeFromQuery("?codegen=off")).toBeUndefined();
  });
});
