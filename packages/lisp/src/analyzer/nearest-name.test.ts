import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { editDistance, nearestName } from "./nearest-name.js";

describe("editDistance", () => {
  test.each([
    ["filter", "filter", 0],
    ["fitler", "filter", 1],
    ["totl", "total", 1],
    ["kitten", "sitting", 3],
    ["", "abc", 3],
  ])("%s to %s is %d", (a, b, distance) => {
    expect(editDistance(a, b)).toBe(distance);
  });

  test("is symmetric and zero only for equal strings", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 }), (a, b) => {
        expect(editDistance(a, b)).toBe(editDistance(b, a));
        expect(editDistance(a, b) === 0).toBe(a === b);
      }),
    );
  });

  test("stops early past the limit, never answering below the true distance", () => {
    expect(editDistance("abcdef", "uvwxyz", 2)).toBe(3);
  });
});

describe("nearestName", () => {
  test("finds a likely typo, treating - and _ alike", () => {
    expect(nearestName("list-orders", ["list_orders", "get_order"])).toBe("list_orders");
    expect(nearestName("sum_by", ["sum-by", "some"])).toBe("sum-by");
    expect(nearestName("grup-by", ["group-by", "partition-by"])).toBe("group-by");
  });

  test("says nothing when no name is near", () => {
    expect(nearestName("frobnicate", ["filter", "map"])).toBeUndefined();
    expect(nearestName("ab", ["ac"])).toBeUndefined();
  });

  test("breaks ties in sorted order, so the suggestion is stable", () => {
    expect(nearestName("cat", ["cut", "bat"])).toBe("bat");
    expect(nearestName("cat", ["bat", "cut"])).toBe("bat");
  });
});
