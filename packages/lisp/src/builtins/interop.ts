/**
 * The Java-shaped subset models reach for: dates (`java.util.Date.`, `LocalDate/parse`,
 * `Instant/parse`, `.getTime`, `.plusDays`, `.isBefore`, `Duration/between`, ...) and the common
 * `java.lang.String` methods. These are emulations, not JVM calls: a closed list, registered with
 * the method/constructor dispatch in internal.ts; anything else is an unsupported-method error
 * listing what exists.
 *
 * String methods count graphemes like the rest of the language. Unlike `subs`, `.substring`
 * raises on an out-of-range index, as Java does (so `(.substring s (.indexOf s "x"))` cannot
 * silently return the whole string).
 */

import { headOf } from "../cut-text.js";
import { LispError } from "../errors.js";
import { typeName } from "../runtime/describe.js";
import { DateTime, Duration, LocalDate, MAX_EPOCH_MS, MIN_EPOCH_MS, MS_PER_DAY } from "../values/dates.js";
import { type BuiltinDefinition, builtin } from "./definition.js";
import { defineConstructor, defineMethod, type MethodImplementation } from "./internal.js";
import { indexOfText, lastIndexOfText } from "./strings.js";
import { parseIsoDate, parseIsoDateTime, parseRfc2822, startOfDay } from "./support/str-dates.js";
import { changeCase, describe, graphemeLength, graphemeSlice } from "./support/str-text.js";

function interopError(message: string): LispError {
  return new LispError("type_error", message);
}

function quoted(text: string): string {
  return text.length > 80 ? `'${headOf(text, 80)}...'` : `'${text}'`;
}

/** Registers a method taking `min` to `max` arguments after the receiver. */
function method(
  name: string,
  min: number,
  max: number,
  usage: string,
  implementation: MethodImplementation,
): void {
  defineMethod(name, (receiver, args) => {
    if (args.length < min || args.length > max) {
      throw new LispError(
        "arity_error",
        `${name} called with ${args.length + 1} argument(s); write ${usage}`,
      );
    }
    return implementation(receiver, args);
  });
}

// ------------------------------------------------------------------ reading dates

/** `parse` (LocalDate/parse, Instant/parse): a date for `YYYY-MM-DD`, an instant for text with a `T`. */
function parseTemporal(value: unknown): LocalDate | DateTime {
  if (value === null || value === undefined)
    throw interopError('parse: cannot parse nil; pass a date string such as "2024-03-15"');
  if (typeof value !== "string") throw interopError(`parse: expected string, got ${describe(value)}`);
  if (value.includes("T")) {
    const parsed = parseIsoDateTime(value);
    if (parsed.kind === "invalid") {
      throw interopError(
        `parse: invalid ISO-8601 date/time ${quoted(value)}; write e.g. "2024-03-15T10:00:00Z"`,
      );
    }
    return parsed.value;
  }
  const date = parseIsoDate(value);
  if (date === undefined)
    throw interopError(`parse: invalid ISO-8601 date ${quoted(value)} (expected YYYY-MM-DD)`);
  return date;
}

/** `java.util.Date.`: now, or an instant from epoch seconds/milliseconds, text, or another date. */
function javaUtilDate(args: readonly unknown[]): DateTime {
  if (args.length > 1)
    throw new LispError("arity_error", `(java.util.Date.) takes 0 or 1 argument, got ${args.length}`);
  if (args.length === 0) return new DateTime(Date.now(), 0, 3);
  const [value] = args;
  if (value === null || value === undefined) throw interopError("java.util.Date: cannot construct from nil");
  if (value instanceof DateTime) return value;
  if (value instanceof LocalDate) return startOfDay(value);
  if (typeof value === "bigint") throw interopError(`java.util.Date: invalid timestamp ${value}`);
  if (typeof value === "number" && Number.isInteger(value)) {
    // Below 10^12 the number is read as seconds (10^12 ms is 2001-09-09), as the reference does.
    const seconds = Math.abs(value) < 1e12;
    const ms = seconds ? value * 1000 : value;
    if (ms < MIN_EPOCH_MS || ms > MAX_EPOCH_MS)
      throw interopError(`java.util.Date: invalid timestamp ${value}`);
    return new DateTime(ms, 0, seconds ? 0 : 3);
  }
  if (typeof value === "string") {
    const iso = parseIsoDateTime(value);
    if (iso.kind !== "invalid") return iso.value;
    const date = parseIsoDate(value);
    if (date !== undefined) return startOfDay(date);
    const rfc = parseRfc2822(value);
    if (rfc !== undefined) return rfc;
    throw interopError(
      `java.util.Date: cannot parse ${quoted(value)}. Expected ISO-8601, RFC 2822, or timestamp.`,
    );
  }
  throw interopError(`java.util.Date: cannot construct from ${describe(value)}`);
}

defineConstructor("java.util.Date", javaUtilDate);

// ------------------------------------------------------------------ date methods

function requireDays(name: string, days: unknown): number {
  if (typeof days === "number" && Number.isInteger(days)) return days;
  if (typeof days === "bigint") throw interopError(`${name}: day count ${days} is out of range`);
  throw interopError(`${name}: expected integer days, got ${typeName(days)}`);
}

method(".getTime", 0, 0, "(.getTime date)", (receiver) => {
  if (receiver instanceof DateTime) return receiver.epochMs;
  throw interopError(
    `.getTime: expected DateTime, got ${typeName(receiver)}; make one with (java.util.Date. s) or (Instant/parse s)`,
  );
});

method(".toEpochDay", 0, 0, "(.toEpochDay date)", (receiver) => {
  if (receiver instanceof LocalDate) return receiver.epochDay;
  throw interopError(
    `.toEpochDay: expected LocalDate, got ${typeName(receiver)}; make one with (LocalDate/parse "2024-03-15")`,
  );
});

for (const [name, sign] of [
  [".plusDays", 1],
  [".minusDays", -1],
] as const) {
  method(name, 1, 1, `(${name} date n)`, (receiver, [days]) => {
    if (!(receiver instanceof LocalDate)) {
      throw interopError(
        `${name}: expected LocalDate, got ${typeName(receiver)}; make one with (LocalDate/parse "2024-03-15")`,
      );
    }
    return new LocalDate(receiver.epochDay + sign * requireDays(name, days));
  });
}

function durationBetween(start: unknown, end: unknown): Duration {
  if (!(start instanceof DateTime)) {
    throw interopError(
      `Duration/between: expected DateTime start argument, got ${typeName(start)}; use (Instant/parse "2024-03-15T00:00:00Z")`,
    );
  }
  if (!(end instanceof DateTime)) {
    throw interopError(
      `Duration/between: expected DateTime end argument, got ${typeName(end)}; use (Instant/parse "2024-03-15T00:00:00Z")`,
    );
  }
  return new Duration(end.epochMs - start.epochMs);
}

method(".toMillis", 0, 0, "(.toMillis duration)", (receiver) => {
  if (receiver instanceof Duration) return receiver.milliseconds;
  throw interopError(
    `.toMillis: expected Duration, got ${typeName(receiver)}; make one with (Duration/between start end)`,
  );
});

method(".toDays", 0, 0, "(.toDays duration)", (receiver) => {
  if (receiver instanceof Duration) return Math.trunc(receiver.milliseconds / MS_PER_DAY) || 0;
  throw interopError(
    `.toDays: expected Duration, got ${typeName(receiver)}; make one with (Duration/between start end)`,
  );
});

function comparison(name: string, wanted: (c: number) => boolean): MethodImplementation {
  return (receiver, [other]) => {
    if (receiver instanceof LocalDate) {
      if (other instanceof LocalDate) return wanted(Math.sign(receiver.epochDay - other.epochDay));
      if (other instanceof DateTime)
        throw interopError(`${name}: cannot compare LocalDate with DateTime — use same types`);
      throw interopError(`${name}: expected LocalDate argument, got ${typeName(other)}`);
    }
    if (receiver instanceof DateTime) {
      if (other instanceof DateTime) return wanted(receiver.compare(other));
      if (other instanceof LocalDate)
        throw interopError(`${name}: cannot compare DateTime with LocalDate — use same types`);
      throw interopError(`${name}: expected DateTime argument, got ${typeName(other)}`);
    }
    throw interopError(`${name}: expected LocalDate or DateTime, got ${typeName(receiver)}`);
  };
}

method(
  ".isBefore",
  1,
  1,
  "(.isBefore a b)",
  comparison(".isBefore", (c) => c < 0),
);
method(
  ".isAfter",
  1,
  1,
  "(.isAfter a b)",
  comparison(".isAfter", (c) => c > 0),
);

// ------------------------------------------------------------------ string methods

function receiverString(name: string, receiver: unknown): string {
  if (typeof receiver === "string") return receiver;
  throw interopError(`${name}: expected string, got ${typeName(receiver)}`);
}

function argumentString(name: string, value: unknown): string {
  if (typeof value === "string") return value;
  throw interopError(`${name}: expected string argument, got ${typeName(value)}`);
}

function integerArgument(name: string, role: string, value: unknown): number {
  if (typeof value === "number" && Number.isInteger(value)) return value;
  if (typeof value === "bigint") return value < 0n ? Number.MIN_SAFE_INTEGER : Number.MAX_SAFE_INTEGER;
  throw interopError(`${name}: expected integer ${role}, got ${typeName(value)}`);
}

method(".indexOf", 1, 2, "(.indexOf s sub) or (.indexOf s sub from)", (receiver, [part, from]) => {
  const text = receiverString(".indexOf", receiver);
  const value = argumentString(".indexOf", part);
  return indexOfText(
    text,
    value,
    from === undefined ? undefined : integerArgument(".indexOf", "start", from),
  );
});

method(".lastIndexOf", 1, 1, "(.lastIndexOf s sub)", (receiver, [part]) => {
  const text = receiverString(".lastIndexOf", receiver);
  return lastIndexOfText(text, argumentString(".lastIndexOf", part));
});

method(".contains", 1, 1, "(.contains s sub)", (receiver, [part]) => {
  const text = receiverString(".contains", receiver);
  return text.includes(argumentString(".contains", part));
});

method(".startsWith", 1, 1, "(.startsWith s prefix)", (receiver, [part]) => {
  const text = receiverString(".startsWith", receiver);
  return text.startsWith(argumentString(".startsWith", part));
});

method(".endsWith", 1, 1, "(.endsWith s suffix)", (receiver, [part]) => {
  const text = receiverString(".endsWith", receiver);
  return text.endsWith(argumentString(".endsWith", part));
});

// Charged as upper-case and lower-case are (changeCase).
method(".toLowerCase", 0, 0, "(.toLowerCase s)", (receiver) =>
  changeCase(receiverString(".toLowerCase", receiver), "lower"),
);
method(".toUpperCase", 0, 0, "(.toUpperCase s)", (receiver) =>
  changeCase(receiverString(".toUpperCase", receiver), "upper"),
);
method(".length", 0, 0, "(.length s)", (receiver) => graphemeLength(receiverString(".length", receiver)));

method(".substring", 1, 2, "(.substring s start) or (.substring s start end)", (receiver, [start, end]) => {
  const text = receiverString(".substring", receiver);
  const from = integerArgument(".substring", "start", start);
  const length = graphemeLength(text);
  const hint = "; (subs s start end) returns a shorter string instead of failing";
  if (end === undefined) {
    if (from < 0 || from > length)
      throw interopError(
        `.substring: start index ${from} out of range for string of length ${length}${hint}`,
      );
    return graphemeSlice(text, from);
  }
  const to = integerArgument(".substring", "end", end);
  if (from < 0)
    throw interopError(`.substring: start index ${from} out of range for string of length ${length}${hint}`);
  if (to > length)
    throw interopError(`.substring: end index ${to} out of range for string of length ${length}${hint}`);
  if (from > to) throw interopError(`.substring: start index ${from} is greater than end index ${to}${hint}`);
  return graphemeSlice(text, from, to);
});

// ------------------------------------------------------------------ builtins

const CATEGORY = "Interop";

export const interopBuiltins: BuiltinDefinition[] = [
  builtin(
    "parse",
    [1, 1],
    ["[s]"],
    "Reads ISO-8601 text: YYYY-MM-DD gives a LocalDate, text with a time (…T…) an instant (UTC when no offset). Also LocalDate/parse and Instant/parse.",
    CATEGORY,
    parseTemporal,
    [
      ['(LocalDate/parse "2024-03-15")', '"2024-03-15"'],
      ['(Instant/parse "2024-03-15T10:00:00+02:00")', '"2024-03-15T08:00:00Z"'],
    ],
  ),
  builtin(
    "Duration/between",
    [2, 2],
    ["[start end]"],
    "The Duration from one instant to another (use .toMillis or .toDays on it).",
    CATEGORY,
    durationBetween,
    [
      [
        '(.toMillis (Duration/between (Instant/parse "2024-01-01T00:00:00Z") (Instant/parse "2024-01-01T00:00:01Z")))',
        "1000",
      ],
      [
        '(Duration/between (Instant/parse "2024-01-01T00:00:00Z") (Instant/parse "2024-01-02T00:00:00Z"))',
        "#duration[86400000ms]",
      ],
    ],
  ),
  builtin(
    "currentTimeMillis",
    [0, 0],
    ["[]"],
    "Milliseconds since 1970-01-01 UTC, now (also System/currentTimeMillis).",
    CATEGORY,
    () => Date.now(),
    [["(> (System/currentTimeMillis) 0)", "true"]],
  ),
];
