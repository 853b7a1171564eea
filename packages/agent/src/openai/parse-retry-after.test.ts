import { describe, expect, it } from "vitest";
import { parseRetryAfter } from "./parse-retry-after.js";

const now = Date.parse("2025-01-01T00:00:00Z");

describe("parseRetryAfter", () => {
  it("reads Retry-After seconds as milliseconds", () => {
    expect(parseRetryAfter(new Headers({ "retry-after": "2" }), now)).toBe(2000);
    expect(parseRetryAfter(new Headers({ "retry-after": "0.5" }), now)).toBe(500);
  });

  it("prefers retry-after-ms", () => {
    expect(parseRetryAfter(new Headers({ "retry-after": "2", "retry-after-ms": "120" }), now)).toBe(120);
  });

  it("reads an HTTP date as the time left until it, never negative", () => {
    expect(parseRetryAfter(new Headers({ "retry-after": "Wed, 01 Jan 2025 00:00:30 GMT" }), now)).toBe(
      30_000,
    );
    expect(parseRetryAfter(new Headers({ "retry-after": "Tue, 31 Dec 2024 23:59:00 GMT" }), now)).toBe(0);
  });

  it("returns undefined when the headers are absent or unreadable", () => {
    expect(parseRetryAfter(new Headers(), now)).toBeUndefined();
    expect(parseRetryAfter(new Headers({ "retry-after": "soon" }), now)).toBeUndefined();
    expect(parseRetryAfter(new Headers({ "retry-after": "-1" }), now)).toBeUndefined();
  });

  it("falls back to Retry-After when retry-after-ms is unreadable", () => {
    expect(parseRetryAfter(new Headers({ "retry-after": "1", "retry-after-ms": "x" }), now)).toBe(1000);
  });
});
