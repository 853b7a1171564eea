import { describe, expect, it } from "vitest";
import { redactPrinted, redactValues } from "./redact-values.js";

describe("redactValues", () => {
  it.each([
    [
      'add: invalid argument types: integer, map (1 and {"email" "a@x" "id" 1 "name" "...); both must be numbers',
      "add: invalid argument types: integer, map (1 and {…}",
    ],
    [
      'upper-case expects a string, got map {"email" "a@x" "id" 1 ...} (2/3)',
      "upper-case expects a string, got map {…} (2/3)",
    ],
    [
      'not callable: "SECRET-alice" is a string, not a function',
      'not callable: "…" is a string, not a function',
    ],
    [
      "keyword :SECRET-alice called with 3 arguments; write (:x m)",
      "keyword :… called with 3 arguments; write (:… m)",
    ],
    [
      "parse: invalid ISO-8601 date/time 'SECRET-alice'; write e.g. \"2024-03-15T10:00:00Z\"",
      "parse: invalid ISO-8601 date/time '…'; write e.g. \"…\"",
    ],
    ["count expects a collection, got set #{1 2}", "count expects a collection, got set #{…}"],
    [
      'cannot destructure string "a \\"quoted\\" b" with a map pattern',
      'cannot destructure string "…" with a map pattern',
    ],
  ])("takes the printed values out of %s", (message, expected) => {
    expect(redactValues(message, [])).toBe(expected);
  });

  it("keeps prose, names, types, counts and positions", () => {
    const message = "get expects 2 to 3 argument(s), got 1 at line 3, column 12: reason: arity";
    expect(redactPrinted(message)).toBe(message);
  });

  it("takes out a hidden string printed bare", () => {
    expect(redactValues("not callable: SECRET-alice is a symbol", [[{ user: "SECRET-alice" }]])).toBe(
      "not callable: … is a symbol",
    );
  });

  it("never fails on data it cannot walk", () => {
    const hostile = new Proxy(
      {},
      {
        ownKeys() {
          throw new Error("no");
        },
      },
    );
    expect(redactValues('got "x"', [hostile, null, 1n])).toBe('got "…"');
  });
});

describe("redactValues of a tool's own error", () => {
  it("keeps the tool's words and takes out only hidden strings", () => {
    const message = `Tool 'lookup' failed: "no user SECRET-alice; backend down"`;
    expect(redactValues(message, [{ user: "SECRET-alice" }], { printed: false })).toBe(
      `Tool 'lookup' failed: "no user …; backend down"`,
    );
  });
});
