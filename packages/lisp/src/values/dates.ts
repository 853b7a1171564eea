/**
 * Date values from Java-style interop: a calendar date (`LocalDate/parse`), an instant
 * in UTC (`java.util.Date.`, `Instant/parse`) and a duration (`Duration/between`). They are opaque
 * to programs: they print as ISO text (quoted by the readable printer, bare in `str`), durations as
 * `#duration[1000ms]`, and only the interop methods look inside.
 *
 * Calendar arithmetic is done on day numbers (proleptic Gregorian), never through the host's
 * `Date`, so results do not depend on the host's time zone.
 */

import { CustomValue } from "./custom-value.js";

const MS_PER_DAY = 86_400_000;

/** Day number (days since 1970-01-01) of a proleptic Gregorian date. */
export function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

/** The date of a day number. */
export function civilFromDays(days: number): { year: number; month: number; day: number } {
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra -
      Math.floor(dayOfEra / 1460) +
      Math.floor(dayOfEra / 36_524) -
      Math.floor(dayOfEra / 146_096)) /
      365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const mp = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  return { year: yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day };
}

export function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

function pad(value: number, width: number): string {
  return String(value).padStart(width, "0");
}

function yearText(year: number): string {
  return year < 0 ? `-${pad(-year, 4)}` : pad(year, 4);
}

/** A calendar date without time or zone (Java's LocalDate). */
export class LocalDate extends CustomValue {
  readonly year: number;
  readonly month: number;
  readonly day: number;

  constructor(readonly epochDay: number) {
    super();
    const { year, month, day } = civilFromDays(epochDay);
    this.year = year;
    this.month = month;
    this.day = day;
  }

  static of(year: number, month: number, day: number): LocalDate {
    return new LocalDate(daysFromCivil(year, month, day));
  }

  iso(): string {
    return `${yearText(this.year)}-${pad(this.month, 2)}-${pad(this.day, 2)}`;
  }
  print(): string {
    return `"${this.iso()}"`;
  }
  override text(): string {
    return this.iso();
  }
  canonical(): string {
    return `#date ${this.iso()}`;
  }
  get typeName(): string {
    return "LocalDate";
  }
  toJSON(): unknown {
    return this.iso();
  }
}

/**
 * An instant, kept in UTC: whole milliseconds since the epoch, the microseconds below them, and
 * how many fraction digits it was given with (0 to 6), which is how it prints back
 * (`2024-01-01T00:00:00Z`, `...00.5Z`, `...00.000Z`).
 */
export class DateTime extends CustomValue {
  constructor(
    readonly epochMs: number,
    readonly micros = 0,
    readonly precision = 0,
  ) {
    super();
  }

  iso(): string {
    const days = Math.floor(this.epochMs / MS_PER_DAY);
    const msOfDay = this.epochMs - days * MS_PER_DAY;
    const { year, month, day } = civilFromDays(days);
    const seconds = Math.floor(msOfDay / 1000);
    const hour = Math.floor(seconds / 3600);
    const minute = Math.floor((seconds % 3600) / 60);
    const second = seconds % 60;
    let text = `${yearText(year)}-${pad(month, 2)}-${pad(day, 2)}T${pad(hour, 2)}:${pad(minute, 2)}:${pad(second, 2)}`;
    if (this.precision > 0) {
      const fraction = pad((msOfDay % 1000) * 1000 + this.micros, 6);
      text += `.${fraction.slice(0, this.precision)}`;
    }
    return `${text}Z`;
  }
  /** -1, 0 or 1 as this instant is before, equal to or after the other. */
  compare(other: DateTime): number {
    if (this.epochMs !== other.epochMs) return this.epochMs < other.epochMs ? -1 : 1;
    if (this.micros !== other.micros) return this.micros < other.micros ? -1 : 1;
    return 0;
  }
  print(): string {
    return `"${this.iso()}"`;
  }
  override text(): string {
    return this.iso();
  }
  canonical(): string {
    return `#datetime ${this.iso()}`;
  }
  get typeName(): string {
    return "DateTime";
  }
  toJSON(): unknown {
    return this.iso();
  }
}

/** A length of time in milliseconds (what `Duration/between` returns). Its host form is the count. */
export class Duration extends CustomValue {
  constructor(readonly milliseconds: number) {
    super();
  }
  print(): string {
    return `#duration[${this.milliseconds}ms]`;
  }
  canonical(): string {
    return `#duration ${this.milliseconds}`;
  }
  get typeName(): string {
    return "Duration";
  }
  toJSON(): unknown {
    return this.milliseconds;
  }
}

/** Instants the reference can represent: years -9999 to 9999. */
export const MIN_EPOCH_MS = daysFromCivil(-9999, 1, 1) * MS_PER_DAY;
export const MAX_EPOCH_MS = daysFromCivil(10000, 1, 1) * MS_PER_DAY - 1;

export { MS_PER_DAY };
