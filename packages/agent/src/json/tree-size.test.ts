import { describe, expect, it } from "vitest";
import { exceedsTree, treeSize } from "./tree-size.js";

/** `{a: v, b: v}` nested `levels` times over `leaf`: levels + 1 objects, 2^levels leaves. */
function doubled(levels: number, leaf: unknown = 1): unknown {
  let value = leaf;
  for (let level = 0; level < levels; level++) value = { a: value, b: value };
  return value;
}

const roomy = { nodes: 1e12, chars: 1e12 };
const nodesOf = (value: unknown) => treeSize(value, roomy).nodes;

describe("treeSize", () => {
  it("counts each value once per path, as the walks after it would", () => {
    expect(nodesOf(1)).toBe(1);
    expect(nodesOf([1, [2, 3]])).toBe(5);
    expect(nodesOf({ a: 1, b: { c: 2 } })).toBe(4);
    expect(nodesOf(new Map([["k", [1]]]))).toBe(4);
    expect(nodesOf(new Set([1, 2]))).toBe(3);
    // 2^n - 1 objects and 2^n leaves as a tree, however few objects as a graph.
    expect(nodesOf(doubled(10))).toBe(2 ** 11 - 1);
  });

  it("counts the characters of strings and keys once per path", () => {
    expect(treeSize({ ab: "xyz" }, roomy)).toEqual({ nodes: 2, chars: 5 });
    expect(treeSize(doubled(12, "x".repeat(1000)), roomy).chars).toBe(4096 * 1000 + 2 * (2 ** 12 - 1));
  });

  it("counts parts that hold no object (rows, lists of ids) in one pass, with the same figures", () => {
    expect(treeSize([{ id: 1, name: "ab" }, [1, "xy", null]], roomy)).toEqual({ nodes: 8, chars: 10 });
    const row = { a: "xy" };
    expect(treeSize([row, row], roomy)).toEqual({ nodes: 5, chars: 6 });
    expect(treeSize(new Array(3), roomy)).toEqual({ nodes: 4, chars: 0 });
  });

  it("measures 40 levels of shared structure at once, and stops past a limit", () => {
    expect(exceedsTree(doubled(40))).toBe(true);
    expect(exceedsTree(doubled(20))).toBe(false);
    expect(exceedsTree(doubled(12, "x".repeat(2_000_000)))).toBe(true);
  });

  it("counts the slots of a sparse array, so a big leaf shared a few times is past the limit too", () => {
    const leaf = new Array(1_000_000);
    leaf[1] = new Uint8Array(4);
    expect(nodesOf(leaf)).toBe(1_000_005);
    expect(exceedsTree(doubled(6, leaf))).toBe(true);
    expect(exceedsTree(new Array(2 ** 31))).toBe(true);
  });

  it("counts a cycle once, reads nothing that throws, and goes deeper than the stack", () => {
    const cyclic: Record<string, unknown> = { id: 1 };
    cyclic.self = cyclic;
    expect(nodesOf(cyclic)).toBe(3);
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    const getter = Object.defineProperty({}, "trap", {
      enumerable: true,
      get() {
        throw new Error("trap");
      },
    });
    expect(nodesOf([proxy, getter])).toBe(3);
    let deep: unknown = 1;
    for (let level = 0; level < 100_000; level++) deep = [deep];
    expect(nodesOf(deep)).toBe(100_001);
  });
});
