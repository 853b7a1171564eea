import { describe, expect, it } from "vitest";
import { exceedsTreeNodes, treeNodes } from "./tree-nodes.js";

/** `{a: v, b: v}` nested `levels` times over `leaf`: levels + 1 objects, 2^levels leaves. */
function doubled(levels: number, leaf: unknown = 1): unknown {
  let value = leaf;
  for (let level = 0; level < levels; level++) value = { a: value, b: value };
  return value;
}

describe("treeNodes", () => {
  it("counts each value once per path, as the walks after it would", () => {
    expect(treeNodes(1, 100)).toBe(1);
    expect(treeNodes([1, [2, 3]], 100)).toBe(5);
    expect(treeNodes({ a: 1, b: { c: 2 } }, 100)).toBe(4);
    expect(treeNodes(new Map([["k", [1]]]), 100)).toBe(4);
    expect(treeNodes(new Set([1, 2]), 100)).toBe(3);
    // 2^n - 1 objects and 2^n leaves as a tree, however few objects as a graph.
    expect(treeNodes(doubled(10), 1e9)).toBe(2 ** 11 - 1);
  });

  it("measures 40 levels of shared structure at once, and stops past the limit", () => {
    expect(exceedsTreeNodes(doubled(40))).toBe(true);
    expect(exceedsTreeNodes(doubled(20))).toBe(false);
  });

  it("counts the slots of a sparse array, so a big leaf shared a few times is past the limit too", () => {
    const leaf = new Array(1_000_000);
    leaf[1] = new Uint8Array(4);
    expect(treeNodes(leaf, 1e9)).toBe(1_000_005);
    expect(exceedsTreeNodes(doubled(6, leaf))).toBe(true);
    expect(exceedsTreeNodes(new Array(2 ** 31))).toBe(true);
  });

  it("counts a cycle once, reads nothing that throws, and goes deeper than the stack", () => {
    const cyclic: Record<string, unknown> = { id: 1 };
    cyclic.self = cyclic;
    expect(treeNodes(cyclic, 100)).toBe(3);
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    const getter = Object.defineProperty({}, "trap", {
      enumerable: true,
      get() {
        throw new Error("trap");
      },
    });
    expect(treeNodes([proxy, getter], 100)).toBe(3);
    let deep: unknown = 1;
    for (let level = 0; level < 200_000; level++) deep = [deep];
    expect(treeNodes(deep, 1e9)).toBe(200_001);
  });
});
