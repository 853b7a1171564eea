/**
 * Reading dates and instants from text, as the reference's interop does: ISO-8601 dates
 * (`2024-03-15`), ISO-8601 date-times with or without an offset (offsetless means UTC), and
 * RFC 2822 (`Wed, 8 Jan 2026 14:30:00 +0000`, whose zone the reference ignores). Nothing here
 * uses the host's `Date` parser, whose leniency differs between engines.
 */
import { DateTime, daysFromCivil, daysInMonth, LocalDate, MS_PER_DAY } from "../../values/dates.js";

const DATE = /^(-?\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME =
  /^(-?\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})(?:[.,](\d+))?(Z|[+-]\d{2}(?::?\d{2})?)?$/;
const RFC_2822 =
  /^(?:[A-Z][a-z]{2},\s+)?(\d{1,2})\s+([A-Z][a-z]{2})\s+(\d{4})\s+(\d{2}):(\d{2}):(\d{2})(?:\s+(?:[+-]\d{4}|[A-Z]{1,3}))?$/;
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

function validDate(year: number, month: number, day: number): boolean {
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

function validTime(hour: number, minute: number, second: number): boolean {
  return hour <= 23 && minute <= 59 && second <= 59;
}

/** `YYYY-MM-DD` as a date, or undefined. */
export function parseIsoDate(text: string): LocalDate | undefined {
  const match = DATE.exec(text);
  if (match === null) return undefined;
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  return validDate(year, month, day) ? LocalDate.of(year, month, day) : undefined;
}

export type DateTimeParse =
  | { readonly kind: "ok"; readonly value: DateTime }
  | { readonly kind: "missing_offset"; readonly value: DateTime }
  | { readonly kind: "invalid" };

const INVALID: DateTimeParse = { kind: "invalid" };

/**
 * An ISO-8601 date-time. Without an offset the result is read as UTC and marked
 * `missing_offset`, so callers that need an offset can tell.
 */
export function parseIsoDateTime(text: string): DateTimeParse {
  const match = DATE_TIME.exec(text);
  if (match === null) return INVALID;
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  const hour = Number(match[4]);
  const minute = Number(match[5]);
  const second = Number(match[6]);
  if (!validDate(year, month, day) || !validTime(hour, minute, second)) return INVALID;
  const fraction = match[7];
  const precision = fraction === undefined ? 0 : Math.min(fraction.length, 6);
  const micro = fraction === undefined ? 0 : Number(fraction.slice(0, 6).padEnd(6, "0"));
  const zone = match[8];
  let offsetSeconds = 0;
  if (zone !== undefined && zone !== "Z") {
    const digits = zone.slice(1).replace(":", "");
    const offsetHours = Number(digits.slice(0, 2));
    const offsetMinutes = digits.length > 2 ? Number(digits.slice(2, 4)) : 0;
    if (offsetHours > 23 || offsetMinutes > 59) return INVALID;
    offsetSeconds = (offsetHours * 3600 + offsetMinutes * 60) * (zone.startsWith("-") ? -1 : 1);
    if (offsetSeconds === 0 && zone.startsWith("-")) return INVALID; // "-00:00" means "unknown offset"
  }
  const epochMs =
    daysFromCivil(year, month, day) * MS_PER_DAY +
    (hour * 3600 + minute * 60 + second - offsetSeconds) * 1000 +
    Math.floor(micro / 1000);
  const value = new DateTime(epochMs, micro % 1000, precision);
  return zone === undefined ? { kind: "missing_offset", value } : { kind: "ok", value };
}

/** RFC 2822 (`Wed, 8 Jan 2026 14:30:00 +0000`), read as UTC whatever the zone says. */
export function parseRfc2822(text: string): DateTime | undefined {
  const match = RFC_2822.exec(text);
  if (match === null) return undefined;
  const day = Number(match[1]);
  const month = MONTHS.indexOf(match[2] as string) + 1;
  const year = Number(match[3]);
  const hour = Number(match[4]);
  const minute = Number(match[5]);
  const second = Number(match[6]);
  if (month === 0 || !validDate(year, month, day) || !validTime(hour, minute, second)) return undefined;
  return new DateTime(
    daysFromCivil(year, month, day) * MS_PER_DAY + (hour * 3600 + minute * 60 + second) * 1000,
  );
}

/** Midnight UTC of a date. */
export function startOfDay(date: LocalDate): DateTime {
  return new DateTime(date.epochDay * MS_PER_DAY);
}
