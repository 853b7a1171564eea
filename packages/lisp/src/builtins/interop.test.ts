/** Java-style interop through `run`: dates, instants, durations, String methods, Java-named aliases. */
import { describe, expect, test } from "vitest";
import { toJson } from "../format/to-json.js";
import { run } from "../run.js";
import { evaluate, failure } from "../test-support.js";

describe("LocalDate/parse and parse", () => {
  test("YYYY-MM-DD gives a date that prints as its ISO text", async () => {
    expect(await evaluate('(LocalDate/parse "2024-03-15")')).toBe('"2024-03-15"');
    expect(await evaluate('(java.time.LocalDate/parse "2024-02-29")')).toBe('"2024-02-29"');
    expect(await evaluate('(str "on " (parse "2024-03-15"))')).toBe('"on 2024-03-15"');
    expect(await evaluate('(format "%s" (parse "2024-03-15"))')).toBe('"2024-03-15"');
    expect(await evaluate('(pr-str (parse "2024-03-15"))')).toBe('"\\"2024-03-15\\""');
  });

  test("text with a time gives an instant in UTC (offsetless text is UTC)", async () => {
    expect(await evaluate('(LocalDate/parse "2026-01-01T02:00:00+02:00")')).toBe('"2026-01-01T00:00:00Z"');
    expect(await evaluate('(Instant/parse "2026-01-01T08:15:00")')).toBe('"2026-01-01T08:15:00Z"');
    expect(await evaluate('(java.time.Instant/parse "2026-01-01T08:15:00.25Z")')).toBe(
      '"2026-01-01T08:15:00.25Z"',
    );
  });

  test("invalid text and non-strings raise with the expected shape", async () => {
    expect(await failure('(LocalDate/parse "2023-02-30")')).toMatchObject({
      reason: "type_error",
      message: expect.stringContaining("(expected YYYY-MM-DD)"),
    });
    expect(await failure('(parse "2026-13-99T00:00:00Z")')).toMatchObject({
      message: expect.stringContaining("parse: invalid ISO-8601 date/time"),
    });
    expect(await failure("(LocalDate/parse nil)")).toMatchObject({
      message: expect.stringContaining("parse: cannot parse nil"),
    });
    expect(await failure("(parse 20240315)")).toMatchObject({
      reason: "type_error",
      message: expect.stringContaining("parse: expected string"),
    });
  });

  test("type names the kind of date (the reference says :unknown)", async () => {
    expect(await evaluate('[(type (parse "2024-03-15")) (type (parse "2024-03-15T00:00:00Z"))]')).toBe(
      "[:LocalDate :DateTime]",
    );
  });

  test("dates compare by value", async () => {
    expect(await evaluate('(= (parse "2024-03-15") (parse "2024-03-15"))')).toBe("true");
    expect(await evaluate('(= (parse "2024-03-15") "2024-03-15")')).toBe("false");
    expect(
      await evaluate('(count (set [(parse "2024-03-15") (parse "2024-03-15") (parse "2024-03-16")]))'),
    ).toBe("2");
  });
});

describe("LocalDate methods", () => {
  test("epoch days and day arithmetic, across month and year ends", async () => {
    expect(
      await evaluate(
        '[(.toEpochDay (parse "1970-01-01")) (.toEpochDay (parse "1969-12-31")) (.toEpochDay (parse "2000-03-01"))]',
      ),
    ).toBe("[0 -1 11017]");
    expect(await evaluate('(.plusDays (parse "2024-02-28") 2)')).toBe('"2024-03-01"');
    expect(await evaluate('(.minusDays (parse "2025-01-01") 1)')).toBe('"2024-12-31"');
    expect(await evaluate('(.plusDays (parse "2024-01-31") -31)')).toBe('"2023-12-31"');
  });

  test("wrong receivers and day counts raise type errors", async () => {
    expect(await failure('(.plusDays (parse "2026-05-22") "7")')).toMatchObject({
      reason: "type_error",
      message: expect.stringContaining(".plusDays: expected integer days, got string"),
    });
    expect(await failure('(.minusDays "2026-05-22" 7)')).toMatchObject({
      message: expect.stringContaining(".minusDays: expected LocalDate, got string"),
    });
    expect(await failure('(.toEpochDay (Instant/parse "2026-05-22T00:00:00Z"))')).toMatchObject({
      message: expect.stringContaining(".toEpochDay: expected LocalDate, got DateTime"),
    });
  });
});

describe("java.util.Date.", () => {
  test("from epoch seconds (below 10^12) or milliseconds", async () => {
    expect(await evaluate("(java.util.Date. 1000000000)")).toBe('"2001-09-09T01:46:40Z"');
    expect(await evaluate("(.getTime (java.util.Date. 1000000000))")).toBe("1000000000000");
    expect(await evaluate("(java.util.Date. 1767860276937)")).toBe('"2026-01-08T08:17:56.937Z"');
    expect(await evaluate("(java.util.Date. -1000000000)")).toBe('"1938-04-24T22:13:20Z"');
  });

  test("from ISO text with or without offset, a plain date, or RFC 2822", async () => {
    expect(await evaluate('(.getTime (java.util.Date. "2026-05-03T09:14:00"))')).toBe("1777799640000");
    expect(await evaluate('(java.util.Date. "2026-01-08")')).toBe('"2026-01-08T00:00:00Z"');
    expect(await evaluate('(java.util.Date. "Wed, 8 Jan 2026 14:30:00 +0000")')).toBe(
      '"2026-01-08T14:30:00Z"',
    );
    expect(await evaluate('(java.util.Date. "8 Jan 2026 14:30:00")')).toBe('"2026-01-08T14:30:00Z"');
    expect(await evaluate('(java.util.Date. "2026-01-08 10:00:00-05:00")')).toBe('"2026-01-08T15:00:00Z"');
  });

  test("from another date value, and now", async () => {
    expect(await evaluate('(java.util.Date. (parse "2024-03-15"))')).toBe('"2024-03-15T00:00:00Z"');
    expect(
      await evaluate('(let [d (java.util.Date. "2024-03-15T01:02:03Z")] (= d (java.util.Date. d)))'),
    ).toBe("true");
    const before = Date.now();
    const result = await run("(.getTime (java.util.Date.))");
    expect(result.ok && typeof result.value === "number" && result.value >= before).toBe(true);
  });

  test("a str of an instant parses back to the same instant", async () => {
    expect(await evaluate("(let [d (java.util.Date. 1767860276937)] (= d (java.util.Date. (str d))))")).toBe(
      "true",
    );
  });

  test("unreadable input raises", async () => {
    expect(await failure('(java.util.Date. "not-a-date")')).toMatchObject({
      reason: "type_error",
      message: expect.stringContaining("cannot parse 'not-a-date'"),
    });
    expect(await failure("(java.util.Date. nil)")).toMatchObject({ reason: "type_error" });
    expect(await failure("(java.util.Date. 1.5)")).toMatchObject({ reason: "type_error" });
    expect(await failure("(java.util.Date. 999999999999999999)")).toMatchObject({
      message: expect.stringContaining("invalid timestamp"),
    });
    expect((await failure('(java.util.Date. "a" "b")')).reason).toBe("arity_error");
  });
});

describe("comparing dates", () => {
  test(".isBefore and .isAfter on the same kind", async () => {
    expect(
      await evaluate(
        '[(.isBefore (parse "2023-01-01") (parse "2023-12-31")) (.isAfter (parse "2023-01-01") (parse "2023-12-31")) (.isBefore (parse "2023-06-15") (parse "2023-06-15"))]',
      ),
    ).toBe("[true false false]");
    expect(
      await evaluate(
        '(.isAfter (java.util.Date. "2024-01-01T00:00:00.001Z") (java.util.Date. "2024-01-01T00:00:00Z"))',
      ),
    ).toBe("true");
  });

  test("mixed kinds and non-dates raise, saying which", async () => {
    expect(
      await failure('(.isBefore (parse "2023-01-01") (java.util.Date. "2023-01-01T00:00:00Z"))'),
    ).toMatchObject({
      reason: "type_error",
      message: expect.stringContaining("cannot compare LocalDate with DateTime — use same types"),
    });
    expect(
      await failure('(.isAfter (java.util.Date. "2023-01-01T00:00:00Z") (parse "2023-01-01"))'),
    ).toMatchObject({ message: expect.stringContaining("cannot compare DateTime with LocalDate") });
    expect(await failure('(.isBefore nil (parse "2023-01-01"))')).toMatchObject({
      message: expect.stringContaining(".isBefore: expected LocalDate or DateTime, got nil"),
    });
    expect(await failure('(.isBefore (parse "2023-01-01") "2023-12-31")')).toMatchObject({
      message: expect.stringContaining(".isBefore: expected LocalDate argument, got string"),
    });
  });
});

describe("Duration", () => {
  test("between two instants, in milliseconds and whole days (truncated toward zero)", async () => {
    expect(
      await evaluate(
        '(.toMillis (Duration/between (Instant/parse "2026-05-22T00:00:01Z") (Instant/parse "2026-05-22T00:00:00Z")))',
      ),
    ).toBe("-1000");
    expect(
      await evaluate(
        '(.toDays (java.time.Duration/between (Instant/parse "2026-05-01T00:00:00Z") (Instant/parse "2026-05-03T12:00:00Z")))',
      ),
    ).toBe("2");
    expect(
      await evaluate(
        '(.toDays (Duration/between (Instant/parse "2026-05-04T12:00:00Z") (Instant/parse "2026-05-02T00:00:00Z")))',
      ),
    ).toBe("-2");
  });

  test("prints as #duration[Nms], in str too", async () => {
    const program =
      '(Duration/between (Instant/parse "2026-05-22T00:00:00Z") (Instant/parse "2026-05-22T00:00:01Z"))';
    expect(await evaluate(program)).toBe("#duration[1000ms]");
    expect(await evaluate(`(str ${program})`)).toBe('"#duration[1000ms]"');
  });

  test("dates are rejected, and only Durations have .toMillis", async () => {
    expect(await failure('(Duration/between (parse "2026-05-01") (parse "2026-05-02"))')).toMatchObject({
      message: expect.stringContaining("expected DateTime start argument, got LocalDate"),
    });
    expect(await failure('(.toMillis (Instant/parse "2026-05-22T00:00:00Z"))')).toMatchObject({
      message: expect.stringContaining(".toMillis: expected Duration, got DateTime"),
    });
    expect(await failure("(.toDays nil)")).toMatchObject({
      message: expect.stringContaining(".toDays: expected Duration, got nil"),
    });
  });

  test("Duration/ has only between", async () => {
    expect(await failure('(Duration/parse "PT1S")')).toMatchObject({
      reason: "invalid_form",
      message: "Duration/parse is not available. Interop functions: Duration/between",
    });
    expect((await failure("(between 1 2)")).reason).toBe("unbound_var");
  });
});

describe("String methods", () => {
  test("search and case methods", async () => {
    expect(
      await evaluate(
        '[(.indexOf "hello" "l") (.indexOf "hello" "x") (.indexOf "hello" "l" 4) (.lastIndexOf "hello" "l") (.contains "hello" "ell")]',
      ),
    ).toBe("[2 -1 -1 3 true]");
    expect(
      await evaluate(
        '[(.startsWith "über" "üb") (.endsWith "über" "ber") (.toUpperCase "über") (.toLowerCase "ÜBER") (.length "👍🏽x")]',
      ),
    ).toBe('[true true "ÜBER" "über" 2]');
    expect(await evaluate('(.indexOf "🍎🍊🍋fruit" "fruit")')).toBe("3");
  });

  test(".substring is strict where subs is forgiving", async () => {
    expect(
      await evaluate('[(.substring "hello world" 6) (.substring "abc" 3) (.substring "über" 1 3)]'),
    ).toBe('["world" "" "be"]');
    expect(await evaluate('(let [s "abcdef"] (subs s (.indexOf s "xyz")))')).toBe('""');
    for (const program of [
      '(.substring "abcdef" -1)',
      '(.substring "abc" 10)',
      '(.substring "abc" 0 10)',
      '(.substring "abcdef" 4 2)',
    ]) {
      expect(await failure(program), program).toMatchObject({
        reason: "type_error",
        message: expect.stringContaining(".substring"),
      });
    }
  });

  test("non-string receivers and arguments raise type errors naming the method", async () => {
    expect(await failure('(.indexOf 123 "x")')).toMatchObject({
      reason: "type_error",
      message: expect.stringContaining(".indexOf: expected string, got integer"),
    });
    expect(await failure('(.startsWith "hello" 123)')).toMatchObject({
      message: expect.stringContaining(".startsWith: expected string argument, got integer"),
    });
    expect(await failure("(.length nil)")).toMatchObject({
      message: expect.stringContaining(".length: expected string, got nil"),
    });
  });

  test("a wrong number of arguments is an arity error with the usage", async () => {
    expect(await failure('(.length "a" "b")')).toMatchObject({
      reason: "arity_error",
      message: expect.stringContaining("(.length s)"),
    });
  });

  test("an unknown method lists the supported ones", async () => {
    const error = await failure('(.trim " a ")');
    expect(error.reason).toBe("unsupported_method");
    expect(error.message).toContain(".getTime");
    expect(error.message).toContain(".substring");
  });
});

describe("Java-named aliases", () => {
  test("Math/ reaches the math builtins; System/currentTimeMillis reads the clock", async () => {
    expect(await evaluate("[(Math/abs -3) (Math/max 1 5)]")).toBe("[3 5]");
    const before = Date.now();
    const result = await run("(System/currentTimeMillis)");
    expect(result.ok && typeof result.value === "number" && result.value >= before).toBe(true);
  });

  test("unknown members name what the class offers", async () => {
    expect(await failure("(Math/PI)")).toMatchObject({
      reason: "invalid_form",
      message: expect.stringContaining("PI is not available. Math functions: abs,"),
    });
    expect(await failure('(Integer/valueOf "1")')).toMatchObject({
      message: "valueOf is not available. Interop functions: parseInt",
    });
    expect(await failure("(LocalDate/now)")).toMatchObject({
      message: "now is not available. Interop functions: parse",
    });
    expect(await failure("(Double/isNaN 1)")).toMatchObject({
      message:
        "isNaN is not available. Interop functions: parseDouble, POSITIVE_INFINITY, NEGATIVE_INFINITY, NaN",
    });
  });
});

describe("dates at the host boundary", () => {
  test("a date result becomes its ISO text in JSON; a duration its milliseconds", async () => {
    const date = await run('(parse "2024-03-15")');
    const duration = await run(
      '(Duration/between (Instant/parse "2024-01-01T00:00:00Z") (Instant/parse "2024-01-01T00:01:00Z"))',
    );
    expect(date.ok && toJson(date.value)).toBe("2024-03-15");
    expect(duration.ok && toJson(duration.value)).toBe(60000);
  });

  test("tools receive dates as ISO text", async () => {
    const seen: unknown[] = [];
    const tools = {
      log: async (args: Record<string, unknown>) => {
        seen.push(args);
        return null;
      },
    };
    await run('(tool/log {:at (Instant/parse "2024-01-01T10:00:00Z")})', { tools });
    expect(seen).toEqual([{ at: "2024-01-01T10:00:00Z" }]);
  });

  test("JSON generation writes dates as toJson hands them to the host (the reference: nil)", async () => {
    expect(await evaluate('(json/generate-string {"d" (parse "2024-03-15")})')).toBe(
      '"{\\"d\\":\\"2024-03-15\\"}"',
    );
  });
});
