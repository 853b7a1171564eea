import { describe, expect, test } from "vitest";
import { generateLogs } from "./log-data.js";
import { parseLogQuery, parseSince } from "./log-query.js";
import { searchLogs } from "./log-tools.js";

const now = Date.parse("2026-03-14T12:00:00.000Z");

describe("parseLogQuery", () => {
  test("reads levels, codes and services however the model phrases them", () => {
    for (const query of ["error code 42", "errors with code 42", "level:error AND code:42", "E42 error"]) {
      const filter = parseLogQuery(query);
      expect([...filter.levels], query).toEqual(["error"]);
      expect([...filter.codes], query).toEqual([42]);
      expect(filter.words, query).toEqual([]);
    }
    expect([...parseLogQuery("checkout timeout").services]).toEqual(["checkout"]);
    expect(parseLogQuery("checkout timeout").words).toEqual(["timeout"]);
  });

  test("names the fields it knows when given another one", () => {
    expect(() => parseLogQuery("host:web-1")).toThrow(/use level:, code:, service: or message:/);
  });
});

describe("parseSince", () => {
  test("counts durations back from the store's clock", () => {
    expect(parseSince("1h", now)).toBe(now - 3_600_000);
    expect(parseSince("last hour", now)).toBe(now - 3_600_000);
    expect(parseSince("90 minutes", now)).toBe(now - 5_400_000);
    expect(parseSince("2d", now)).toBe(now - 172_800_000);
    expect(parseSince("2026-03-14T11:00:00Z", now)).toBe(now - 3_600_000);
  });

  test("tells the model what to write instead of a time it cannot read", () => {
    expect(() => parseSince("yesterday-ish", now)).toThrow(/write a duration such as "1h"/);
  });
});

describe("searchLogs", () => {
  test("finds exactly the planted incident: 1,842 errors with code 42 in the last hour, newest first", () => {
    const store = generateLogs(42, 48_000);
    const rows = searchLogs(store, { query: "error code 42", since: "1h" });
    expect(rows).toHaveLength(1842);
    expect(rows.every((row) => row.level === "error" && row.code === 42)).toBe(true);
    expect(rows[0]?.timestamp.localeCompare(rows[1]?.timestamp ?? "")).toBeGreaterThanOrEqual(0);
    expect(searchLogs(store, { query: "error code 42" }).length).toBeGreaterThan(1842);
  });
});
