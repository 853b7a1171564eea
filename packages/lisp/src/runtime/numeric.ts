/**
 * Arithmetic on the numeric tower (values/numbers.ts): integers stay exact (promoting to bigint
 * past 2^53), any float operand makes a float result, and every operation starts with a fast path
 * for two plain JS numbers. Every integer result past 2^53 is charged by its size, a product
 * before it is computed (big-integers.ts).
 */
import { LispError } from "../errors.js";
import { print } from "../format/print.js";
import { isFloat, type LispNumber, makeFloat, makeInteger, toDouble, WholeFloat } from "../values/numbers.js";
import { chargedInteger, chargeInteger, operandBits } from "./big-integers.js";
import { typeAndValue, typeName } from "./describe.js";

export function requireNumber(value: unknown, who: string): LispNumber {
  if (typeof value === "number" || typeof value === "bigint" || value instanceof WholeFloat) return value;
  throw new LispError("type_error", `${who} expects numbers, got ${typeAndValue(value, 40)}`);
}

function operandsError(who: string, a: unknown, b: unknown): LispError {
  return new LispError(
    "type_error",
    `${who}: invalid argument types: ${typeName(a)}, ${typeName(b)} (${print(a, { maxChars: 30 })} and ${print(b, { maxChars: 30 })}); both must be numbers`,
  );
}

function bothNumbers(who: string, a: unknown, b: unknown): void {
  const ok = (v: unknown) => typeof v === "number" || typeof v === "bigint" || v instanceof WholeFloat;
  if (!ok(a) || !ok(b)) throw operandsError(who, a, b);
}

function toBig(value: number | bigint): bigint {
  return typeof value === "bigint" ? value : BigInt(value);
}

export function add(a: unknown, b: unknown): LispNumber {
  if (typeof a === "number" && typeof b === "number") {
    const r = a + b;
    if (Number.isInteger(r)) {
      if (Number.isInteger(a) && Number.isInteger(b))
        return Number.isSafeInteger(r) ? r : chargedInteger(BigInt(a) + BigInt(b));
      return new WholeFloat(r);
    }
    return r;
  }
  bothNumbers("add", a, b);
  if (isFloat(a) || isFloat(b)) return makeFloat(toDouble(a as LispNumber) + toDouble(b as LispNumber));
  return chargedInteger(toBig(a as number | bigint) + toBig(b as number | bigint));
}

export function subtract(a: unknown, b: unknown): LispNumber {
  if (typeof a === "number" && typeof b === "number") {
    const r = a - b;
    if (Number.isInteger(r)) {
      if (Number.isInteger(a) && Number.isInteger(b))
        return Number.isSafeInteger(r) ? r : chargedInteger(BigInt(a) - BigInt(b));
      return new WholeFloat(r);
    }
    return r;
  }
  bothNumbers("subtract", a, b);
  if (isFloat(a) || isFloat(b)) return makeFloat(toDouble(a as LispNumber) - toDouble(b as LispNumber));
  return chargedInteger(toBig(a as number | bigint) - toBig(b as number | bigint));
}

export function multiply(a: unknown, b: unknown): LispNumber {
  if (typeof a === "number" && typeof b === "number") {
    const r = a * b;
    if (Number.isInteger(r)) {
      if (Number.isInteger(a) && Number.isInteger(b))
        return Number.isSafeInteger(r) ? (r === 0 ? 0 : r) : chargedInteger(BigInt(a) * BigInt(b));
      return new WholeFloat(r);
    }
    return r;
  }
  bothNumbers("multiply", a, b);
  if (isFloat(a) || isFloat(b)) return makeFloat(toDouble(a as LispNumber) * toDouble(b as LispNumber));
  // A product has at most the bits of its factors together: refused or charged before V8
  // spends the time to compute it.
  chargeInteger(operandBits(a as number | bigint) + operandBits(b as number | bigint));
  return makeInteger(toBig(a as number | bigint) * toBig(b as number | bigint));
}

function divisionByZero(): LispError {
  return new LispError("arithmetic_error", "division by zero");
}

/** `/`: always a float; an integer zero divisor is an error, a float zero follows IEEE. */
export function divide(a: unknown, b: unknown): LispNumber {
  bothNumbers("divide", a, b);
  if (!isFloat(b) && toDouble(b as LispNumber) === 0) throw divisionByZero();
  return makeFloat(toDouble(a as LispNumber) / toDouble(b as LispNumber));
}

export function isZero(value: LispNumber): boolean {
  return toDouble(value) === 0;
}

/** quot: truncated division. */
export function quot(a: unknown, b: unknown): LispNumber {
  bothNumbers("quot", a, b);
  if (isZero(b as LispNumber)) throw divisionByZero();
  if (isFloat(a) || isFloat(b)) {
    // An infinite dividend has no integral quotient: NaN, as in the reference.
    const x = toDouble(a as LispNumber);
    if (!Number.isFinite(x)) return Number.NaN;
    return makeFloat(Math.trunc(x / toDouble(b as LispNumber)));
  }
  if (typeof a === "number" && typeof b === "number") return Math.trunc(a / b);
  return chargedInteger(toBig(a as number | bigint) / toBig(b as number | bigint));
}

/** rem: remainder with the sign of the dividend. */
export function rem(a: unknown, b: unknown): LispNumber {
  bothNumbers("rem", a, b);
  if (isZero(b as LispNumber)) throw divisionByZero();
  if (isFloat(a) || isFloat(b)) return makeFloat(toDouble(a as LispNumber) % toDouble(b as LispNumber));
  if (typeof a === "number" && typeof b === "number") {
    const r = a % b;
    return r === 0 ? 0 : r;
  }
  return chargedInteger(toBig(a as number | bigint) % toBig(b as number | bigint));
}

/** mod: remainder with the sign of the divisor (floored division). */
export function mod(a: unknown, b: unknown): LispNumber {
  bothNumbers("mod", a, b);
  if (isZero(b as LispNumber)) throw divisionByZero();
  if (isFloat(a) || isFloat(b)) {
    const x = toDouble(a as LispNumber);
    const y = toDouble(b as LispNumber);
    const r = x % y;
    return makeFloat(r !== 0 && r < 0 !== y < 0 ? r + y : r);
  }
  if (typeof a === "number" && typeof b === "number") {
    const r = a % b;
    return r !== 0 && r < 0 !== b < 0 ? r + b : r === 0 ? 0 : r;
  }
  const x = toBig(a as number | bigint);
  const y = toBig(b as number | bigint);
  const r = x % y;
  return chargedInteger(r !== 0n && r < 0n !== y < 0n ? r + y : r);
}

export function negate(a: unknown): LispNumber {
  return subtract(0, a);
}

/** Numeric comparison for two numbers: -1, 0, 1, or NaN when either is NaN. */
export function compareNumbers(a: LispNumber, b: LispNumber): number {
  const x = a instanceof WholeFloat ? a.value : a;
  const y = b instanceof WholeFloat ? b.value : b;
  if (typeof x === "number" && Number.isNaN(x)) return Number.NaN;
  if (typeof y === "number" && Number.isNaN(y)) return Number.NaN;
  return x < y ? -1 : x > y ? 1 : 0;
}
