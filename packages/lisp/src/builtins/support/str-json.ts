/**
 * JSON text in and out for json/parse-string and json/generate-string. Text that is not JSON
 * parses to nil (a program can test for it). Generating writes keywords as their names and sets
 * as arrays, as `toJson` hands values to the host; a value JSON cannot carry (##NaN, ##Inf, a
 * function, a regex, a map key that is not a string, keyword or integer, two keys with the same
 * name such as :a and "a") is an error that says what and where: a nil would be a silent wrong
 * answer. (The reference returns nil for all of these, keywords included.)
 *
 * Parsing keeps the numeric tower: `1.0` stays a float, integers beyond 2^53 stay exact. Objects
 * become host maps (string keys, read with flexible lookup like any tool result). Both directions
 * charge the run as they go (time and memory), so a huge text or a value with shared structure
 * stops at the run's limits.
 */
import { LispError } from "../../errors.js";
import { print } from "../../format/print.js";
import { parseDecimalInteger } from "../../runtime/big-integers.js";
import { active } from "../../runtime/context.js";
import { CHECK_EVERY, CHECK_MASK } from "../../runtime/interruptible.js";
import { CustomValue } from "../../values/custom-value.js";
import { DateTime, Duration, LocalDate } from "../../values/dates.js";
import { Keyword } from "../../values/keyword.js";
import { LispMap } from "../../values/lisp-map.js";
import { LispSet } from "../../values/lisp-set.js";
import { mapEntries } from "../../values/map-access.js";
import { makeFloat, WholeFloat } from "../../values/numbers.js";
import { defineOwn, isPlainObject, type PlainObject } from "../../values/plain-object.js";
import { checkTextLength, sliceEnd, TEXT_SLICE } from "../../values/text-limit.js";
import { vectorPolicy, vectorTooLongError } from "../../values/vector-limit.js";

/** Deeper nesting is refused (nil): no legitimate payload needs it, and it would exhaust the stack. */
export const MAX_JSON_DEPTH = 512;

class Invalid extends Error {}
const INVALID = new Invalid();

class Parser {
  index = 0;
  bytes = 0;
  private charged = 0;
  /** Values parsed so far: the clock is read every CHECK_EVERY of them (see `value`). */
  private values = 0;
  constructor(readonly text: string) {}

  /** Charges the run for what was parsed so far (called as collections close). */
  charge(): void {
    if (this.bytes - this.charged < 65536) return;
    active.work((this.bytes - this.charged) >> 4);
    active.allocate(this.bytes - this.charged);
    this.charged = this.bytes;
  }

  chargeRest(): void {
    active.allocate(this.bytes - this.charged);
    this.charged = this.bytes;
  }

  fail(): never {
    throw INVALID;
  }

  skipSpace(): void {
    const text = this.text;
    let i = this.index;
    for (;;) {
      const code = text.charCodeAt(i);
      if (code === 32 || code === 10 || code === 13 || code === 9) i++;
      else break;
    }
    this.index = i;
  }

  value(depth: number): unknown {
    // Collections are charged as they close: an array of ten million numbers closes only at the end.
    if ((++this.values & CHECK_MASK) === 0) active.work(CHECK_EVERY);
    this.skipSpace();
    const code = this.text.charCodeAt(this.index);
    switch (code) {
      case 123: // {
        return this.object(depth + 1);
      case 91: // [
        return this.array(depth + 1);
      case 34: // "
        return this.string();
      case 116: // t
        return this.literal("true", true);
      case 102: // f
        return this.literal("false", false);
      case 110: // n
        return this.literal("null", null);
      default:
        if (code === 45 || (code >= 48 && code <= 57)) return this.number();
        return this.fail();
    }
  }

  literal(word: string, value: unknown): unknown {
    if (!this.text.startsWith(word, this.index)) this.fail();
    this.index += word.length;
    return value;
  }

  object(depth: number): PlainObject {
    if (depth > MAX_JSON_DEPTH) this.fail();
    this.index++;
    const out: PlainObject = {};
    let size = 0;
    this.skipSpace();
    if (this.text.charCodeAt(this.index) === 125) {
      this.index++;
      this.bytes += 32;
      return out;
    }
    for (;;) {
      this.skipSpace();
      if (this.text.charCodeAt(this.index) !== 34) this.fail();
      const key = this.string();
      this.skipSpace();
      if (this.text.charCodeAt(this.index) !== 58) this.fail(); // :
      this.index++;
      defineOwn(out, key, this.value(depth));
      size++;
      this.skipSpace();
      const next = this.text.charCodeAt(this.index++);
      if (next === 125) break; // }
      if (next !== 44) this.fail(); // ,
    }
    this.bytes += 32 + 40 * size;
    this.charge();
    return out;
  }

  array(depth: number): unknown[] {
    if (depth > MAX_JSON_DEPTH) this.fail();
    this.index++;
    const out: unknown[] = [];
    this.skipSpace();
    if (this.text.charCodeAt(this.index) === 93) {
      this.index++;
      this.bytes += 16;
      return out;
    }
    for (;;) {
      // An array is charged only as it closes, and its text may hold four times as many items as
      // a vector may (values/vector-limit.ts): the cap is checked item by item. Its error is not
      // Invalid, so it ends the run rather than parsing to nil.
      if (out.push(this.value(depth)) > vectorPolicy.maxLength) throw vectorTooLongError(out.length);
      this.skipSpace();
      const next = this.text.charCodeAt(this.index++);
      if (next === 93) break; // ]
      if (next !== 44) this.fail();
    }
    this.bytes += 16 + 8 * out.length;
    this.charge();
    return out;
  }

  string(): string {
    const text = this.text;
    const start = ++this.index;
    let i = start;
    // Fast path: no escapes. A string may be megabytes long: the clock is read every 64K characters.
    for (;;) {
      const code = text.charCodeAt(i);
      if (code === 34) {
        this.index = i + 1;
        this.bytes += i - start;
        return text.slice(start, i);
      }
      if (code === 92 || code < 32 || Number.isNaN(code)) break;
      if ((++i & 0xffff) === 0) active.work(0x10000);
    }
    // With escapes: runs of plain characters are sliced whole and the pieces joined in batches,
    // never appended a character at a time (a rope of millions of one-character links is many
    // times the size of the text, and is not charged).
    let pieces: string[] = [text.slice(start, i)];
    let run = i;
    let read = 0;
    for (;;) {
      const code = text.charCodeAt(i);
      if (Number.isNaN(code) || code < 32) this.fail();
      if (code === 34) break;
      if ((++read & 0xffff) === 0) active.work(0x10000);
      if (code !== 92) {
        i++;
        continue;
      }
      if (i > run) pieces.push(text.slice(run, i));
      const escaped = text[i + 1];
      i += 2;
      switch (escaped) {
        case '"':
          pieces.push('"');
          break;
        case "\\":
          pieces.push("\\");
          break;
        case "/":
          pieces.push("/");
          break;
        case "b":
          pieces.push("\b");
          break;
        case "f":
          pieces.push("\f");
          break;
        case "n":
          pieces.push("\n");
          break;
        case "r":
          pieces.push("\r");
          break;
        case "t":
          pieces.push("\t");
          break;
        case "u": {
          const hex = text.slice(i, i + 4);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.fail();
          pieces.push(String.fromCharCode(Number.parseInt(hex, 16)));
          i += 4;
          break;
        }
        default:
          this.fail();
      }
      run = i;
      if (pieces.length >= 4096) pieces = [pieces.join("")];
    }
    if (i > run) pieces.push(text.slice(run, i));
    const out = pieces.join("");
    this.index = i + 1;
    this.bytes += out.length;
    return out;
  }

  number(): unknown {
    const text = this.text;
    const start = this.index;
    let i = start;
    let integral = true;
    if (text.charCodeAt(i) === 45) i++;
    const digitsStart = i;
    while (isDigit(text.charCodeAt(i))) i++;
    if (i === digitsStart || (text.charCodeAt(digitsStart) === 48 && i - digitsStart > 1)) this.fail();
    if (text.charCodeAt(i) === 46) {
      integral = false;
      const fractionStart = ++i;
      while (isDigit(text.charCodeAt(i))) i++;
      if (i === fractionStart) this.fail();
    }
    const e = text.charCodeAt(i);
    if (e === 101 || e === 69) {
      integral = false;
      i++;
      const sign = text.charCodeAt(i);
      if (sign === 43 || sign === 45) i++;
      const exponentStart = i;
      while (isDigit(text.charCodeAt(i))) i++;
      if (i === exponentStart) this.fail();
    }
    this.index = i;
    const literal = text.slice(start, i);
    if (integral) {
      const value = Number(literal);
      return Number.isSafeInteger(value) ? value || 0 : parseDecimalInteger(literal);
    }
    const value = Number(literal);
    if (!Number.isFinite(value)) this.fail();
    return makeFloat(value);
  }
}

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

/** The value of a JSON text, or null when it is not JSON (or is JSON null). */
export function parseJson(text: string): unknown {
  const parser = new Parser(text);
  try {
    const value = parser.value(0);
    parser.skipSpace();
    if (parser.index !== text.length) return null;
    parser.chargeRest();
    return value;
  } catch (error) {
    if (error instanceof Invalid || error instanceof RangeError) return null;
    throw error;
  }
}

/**
 * A float as the reference's JSON encoder writes it (Erlang's shortest form): `1.5`, `100.0`,
 * `1.0e3`, `1.0e-4` — plain digits unless the exponent form is shorter.
 */
export function shortestFloat(value: number): string {
  if (value === 0) return Object.is(value, -0) ? "-0.0" : "0.0";
  const sign = value < 0 ? "-" : "";
  const [mantissa, exponentText] = Math.abs(value).toExponential().split("e") as [string, string];
  const digits = mantissa.replace(".", "");
  const length = digits.length;
  const exponent = Number(exponentText);
  const place = exponent - length + 1; // value = digits × 10^place
  const exponentCost = String(exponent).length + 2;
  const scientificForm = () => `${sign}${digits[0]}.${length === 1 ? "0" : digits.slice(1)}e${exponent}`;
  if (place < 0) {
    if (exponent >= 0) return `${sign}${digits.slice(0, length + place)}.${digits.slice(length + place)}`;
    if (2 - place - length <= exponentCost) return `${sign}0.${"0".repeat(-place - length)}${digits}`;
    return scientificForm();
  }
  const dot = length === 1 ? 1 : 0;
  if (exponentCost + dot >= place + 2 && Math.abs(value) < 2 ** 53)
    return `${sign}${digits}${"0".repeat(place)}.0`;
  return scientificForm();
}

/** Where the encoder is, for messages: `[:rows 3 :price]`. */
function pathText(path: readonly unknown[]): string {
  return path.length === 0 ? "the top level" : print(path, { maxChars: 80 });
}

function unencodable(what: string, path: readonly unknown[], advice: string): LispError {
  return new LispError(
    "type_error",
    `json/generate-string cannot encode ${what} at ${pathText(path)}: ${advice}`,
  );
}

function encodeKey(key: unknown, path: readonly unknown[]): string {
  if (typeof key === "string") return key;
  if (key instanceof Keyword) return key.name;
  if ((typeof key === "number" && Number.isInteger(key)) || typeof key === "bigint") return String(key);
  throw unencodable(
    `the map key ${print(key, { maxChars: 40 })}`,
    path,
    "JSON keys are text; use strings, keywords or integers as keys",
  );
}

function floatText(value: number, path: readonly unknown[]): string {
  if (Number.isFinite(value)) return shortestFloat(value);
  throw unencodable(
    print(value),
    path,
    "JSON has no NaN or infinities; replace such numbers first (with nil, say)",
  );
}

/** The JSON text of one value; `parts` collects the output, `path` says where we are. */
class Encoder {
  readonly parts: string[] = [];
  private readonly path: unknown[] = [];
  private length = 0;
  private charged = 0;

  private emit(text: string): void {
    this.parts.push(text);
    this.length += text.length;
    if (this.length - this.charged >= 4096) {
      checkTextLength(this.length);
      active.allocate(this.length - this.charged);
      this.charged = this.length;
    }
  }

  /**
   * A string as JSON: a long one a slice at a time, each charged (emit) before the next is
   * escaped, so text that grows with every pass (JSON of JSON of...) stops at the memory budget.
   */
  private string(text: string): void {
    if (text.length <= TEXT_SLICE) {
      this.emit(JSON.stringify(text));
      return;
    }
    this.emit('"');
    for (let start = 0; start < text.length; ) {
      // Never between the two halves of a surrogate pair: alone, each would be escaped.
      const end = sliceEnd(text, start);
      active.work(end - start);
      this.emit(JSON.stringify(text.slice(start, end)).slice(1, -1));
      start = end;
    }
    this.emit('"');
  }

  finish(): string {
    checkTextLength(this.length);
    active.allocate(this.length - this.charged);
    return this.parts.join("");
  }

  value(value: unknown): void {
    if (this.path.length > MAX_JSON_DEPTH)
      throw unencodable(
        "a value",
        this.path.slice(0, 8),
        `it is nested deeper than ${MAX_JSON_DEPTH} levels`,
      );
    switch (typeof value) {
      case "string":
        this.string(value);
        return;
      case "boolean":
        this.emit(value ? "true" : "false");
        return;
      case "bigint": {
        // Superlinear in V8 (and bounded by the size of an integer): charged by its length.
        const text = value.toString();
        active.work(text.length);
        this.emit(text);
        return;
      }
      case "number":
        this.emit(Number.isInteger(value) ? String(value) : floatText(value, this.path));
        return;
      case "undefined":
        this.emit("null");
        return;
      case "object":
        this.object(value);
        return;
      default:
        throw unencodable(
          print(value, { maxChars: 40 }),
          this.path,
          "only data (maps, vectors, sets, strings, numbers, booleans, nil) can be written as JSON",
        );
    }
  }

  private items(items: readonly unknown[]): void {
    active.work(items.length + 1);
    this.emit("[");
    for (let i = 0; i < items.length; i++) {
      if (i > 0) this.emit(",");
      this.path.push(i);
      this.value(items[i]);
      this.path.pop();
      // The charge above is one clock read, and items may be millions of numbers and strings.
      if ((i & CHECK_MASK) === CHECK_MASK) active.work(CHECK_EVERY);
    }
    this.emit("]");
  }

  private object(value: object | null): void {
    if (value === null) this.emit("null");
    else if (value instanceof Keyword) this.string(value.name);
    else if (value instanceof WholeFloat) this.emit(floatText(value.value, this.path));
    else if (Array.isArray(value)) this.items(value);
    else if (value instanceof LispSet) this.items(value.members());
    else if (value instanceof LispMap || isPlainObject(value)) this.map(value);
    else if (value instanceof LocalDate || value instanceof DateTime || value instanceof Duration) {
      // As toJson hands them to the host: ISO text, or a duration's milliseconds.
      this.value(value.toJSON());
    } else {
      const what =
        value instanceof CustomValue ? `${value.typeName} ${value.print()}` : print(value, { maxChars: 40 });
      throw unencodable(
        what,
        this.path,
        "only data (maps, vectors, sets, strings, numbers, booleans, nil, dates) can be written as JSON",
      );
    }
  }

  private map(value: LispMap | PlainObject): void {
    const entries = mapEntries(value);
    active.work(entries.length + 1);
    const seen = new Map<string, unknown>();
    this.emit("{");
    for (let i = 0; i < entries.length; i++) {
      const [key, item] = entries[i] as readonly [unknown, unknown];
      const name = encodeKey(key, this.path);
      if (seen.has(name)) {
        throw unencodable(
          `both keys ${print(seen.get(name), { maxChars: 40 })} and ${print(key, { maxChars: 40 })}`,
          this.path,
          "they would be the same JSON key; keep one of them",
        );
      }
      seen.set(name, key);
      if (i > 0) this.emit(",");
      this.string(name);
      this.emit(":");
      this.path.push(key);
      this.value(item);
      this.path.pop();
      if ((i & CHECK_MASK) === CHECK_MASK) active.work(CHECK_EVERY);
    }
    this.emit("}");
  }
}

/** JSON text of a value; a LispError (type_error) naming the first part JSON cannot carry. */
export function generateJson(value: unknown): string {
  const encoder = new Encoder();
  encoder.value(value);
  return encoder.finish();
}
