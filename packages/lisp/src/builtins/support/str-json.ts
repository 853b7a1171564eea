/**
 * JSON text in and out for json/parse-string and json/generate-string. Both signal instead of
 * raising: text that is not JSON parses to nil, and a value JSON cannot carry faithfully
 * (keywords, sets, special floats, functions, dates, keys other than strings and integers)
 * generates nil, so a program can test the result.
 *
 * Parsing keeps the numeric tower: `1.0` stays a float, integers beyond 2^53 stay exact. Objects
 * become host maps (string keys, read with flexible lookup like any tool result).
 */
import { active } from "../../runtime/context.js";
import { LispMap } from "../../values/lisp-map.js";
import { mapEntries } from "../../values/map-access.js";
import { makeFloat, makeInteger, WholeFloat } from "../../values/numbers.js";
import { defineOwn, isPlainObject, type PlainObject } from "../../values/plain-object.js";

/** Deeper nesting is refused (nil): no legitimate payload needs it, and it would exhaust the stack. */
export const MAX_JSON_DEPTH = 512;

class Invalid extends Error {}
const INVALID = new Invalid();

class Parser {
  index = 0;
  bytes = 0;
  constructor(readonly text: string) {}

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
      out.push(this.value(depth));
      this.skipSpace();
      const next = this.text.charCodeAt(this.index++);
      if (next === 93) break; // ]
      if (next !== 44) this.fail();
    }
    this.bytes += 16 + 8 * out.length;
    return out;
  }

  string(): string {
    const text = this.text;
    const start = ++this.index;
    let i = start;
    // Fast path: no escapes.
    for (;;) {
      const code = text.charCodeAt(i);
      if (code === 34) {
        this.index = i + 1;
        this.bytes += i - start;
        return text.slice(start, i);
      }
      if (code === 92 || code < 32 || Number.isNaN(code)) break;
      i++;
    }
    let out = text.slice(start, i);
    for (;;) {
      const code = text.charCodeAt(i);
      if (Number.isNaN(code) || code < 32) this.fail();
      if (code === 34) break;
      if (code !== 92) {
        out += text[i];
        i++;
        continue;
      }
      const escaped = text[i + 1];
      i += 2;
      switch (escaped) {
        case '"':
          out += '"';
          break;
        case "\\":
          out += "\\";
          break;
        case "/":
          out += "/";
          break;
        case "b":
          out += "\b";
          break;
        case "f":
          out += "\f";
          break;
        case "n":
          out += "\n";
          break;
        case "r":
          out += "\r";
          break;
        case "t":
          out += "\t";
          break;
        case "u": {
          const hex = text.slice(i, i + 4);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.fail();
          out += String.fromCharCode(Number.parseInt(hex, 16));
          i += 4;
          break;
        }
        default:
          this.fail();
      }
    }
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
      return Number.isSafeInteger(value) ? value || 0 : makeInteger(BigInt(literal));
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
    active.allocate(parser.bytes);
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

class Unencodable extends Error {}
const UNENCODABLE = new Unencodable();

function encodeKey(key: unknown): string {
  if (typeof key === "string") return JSON.stringify(key);
  if ((typeof key === "number" && Number.isInteger(key)) || typeof key === "bigint") return `"${key}"`;
  throw UNENCODABLE;
}

function encode(value: unknown, depth: number): string {
  if (depth > MAX_JSON_DEPTH) throw UNENCODABLE;
  switch (typeof value) {
    case "string":
      return JSON.stringify(value);
    case "boolean":
      return value ? "true" : "false";
    case "bigint":
      return value.toString();
    case "number":
      if (Number.isInteger(value)) return String(value);
      if (!Number.isFinite(value)) throw UNENCODABLE;
      return shortestFloat(value);
    case "undefined":
      return "null";
    case "object": {
      if (value === null) return "null";
      if (value instanceof WholeFloat) {
        if (!Number.isFinite(value.value)) throw UNENCODABLE;
        return shortestFloat(value.value);
      }
      if (Array.isArray(value)) {
        let out = "[";
        for (let i = 0; i < value.length; i++) out += (i === 0 ? "" : ",") + encode(value[i], depth + 1);
        return `${out}]`;
      }
      if (value instanceof LispMap || isPlainObject(value)) {
        let out = "{";
        let first = true;
        for (const [key, item] of mapEntries(value)) {
          out += `${first ? "" : ","}${encodeKey(key)}:${encode(item, depth + 1)}`;
          first = false;
        }
        return `${out}}`;
      }
      throw UNENCODABLE;
    }
    default:
      throw UNENCODABLE;
  }
}

/** JSON text of a value, or null when the value holds something JSON cannot carry. */
export function generateJson(value: unknown): string | null {
  try {
    const text = encode(value, 0);
    active.allocate(text.length);
    return text;
  } catch (error) {
    if (error instanceof Unencodable || error instanceof RangeError) return null;
    throw error;
  }
}
