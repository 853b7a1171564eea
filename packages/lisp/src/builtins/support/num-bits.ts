/**
 * Bitwise operations on the integer tower: two's complement semantics on unbounded integers, as
 * the reference gives them. Small values (the 32-bit range, by far the common case) use JS
 * bitwise operators; everything else goes through bigint and is narrowed back to a number when it
 * fits (values/numbers.ts). Every result past 2^53 is charged by its size (runtime/big-integers.ts);
 * shifting left can build an arbitrarily large integer, so its size is charged (or refused) before
 * it is built.
 */
import { LispError } from "../../errors.js";
import { print } from "../../format/print.js";
import { chargedInteger, chargeInteger, operandBits } from "../../runtime/big-integers.js";
import { typeAndValue } from "../../runtime/describe.js";
import { makeInteger } from "../../values/numbers.js";

export type Int = number | bigint;

export function requireInt(value: unknown, who: string): Int {
  if ((typeof value === "number" && Number.isInteger(value)) || typeof value === "bigint") return value;
  throw new LispError(
    "type_error",
    `${who} expects integers, got ${typeAndValue(value, 40)}; convert with (int x) first`,
  );
}

/** A shift amount or bit index: a non-negative integer. */
export function requireShift(value: unknown, who: string): Int {
  if (((typeof value === "number" && Number.isInteger(value)) || typeof value === "bigint") && value >= 0)
    return value;
  throw new LispError(
    "type_error",
    `${who}: the shift amount must be a non-negative integer, got ${print(value, { maxChars: 40 })}`,
  );
}

function isSmall(value: Int): value is number {
  return typeof value === "number" && (value | 0) === value;
}

const big = (value: Int): bigint => (typeof value === "bigint" ? value : BigInt(value));

export function bitAnd(a: Int, b: Int): Int {
  return isSmall(a) && isSmall(b) ? a & b : chargedInteger(big(a) & big(b));
}

export function bitOr(a: Int, b: Int): Int {
  return isSmall(a) && isSmall(b) ? a | b : chargedInteger(big(a) | big(b));
}

export function bitXor(a: Int, b: Int): Int {
  return isSmall(a) && isSmall(b) ? a ^ b : chargedInteger(big(a) ^ big(b));
}

export function bitAndNot(a: Int, b: Int): Int {
  return isSmall(a) && isSmall(b) ? a & ~b : chargedInteger(big(a) & ~big(b));
}

export function bitNot(a: Int): Int {
  return isSmall(a) ? ~a : chargedInteger(~big(a));
}

/** Charges the integer a left shift by `n` would build, refusing absurd sizes before any work. */
function chargeShift(value: Int, n: Int): number {
  chargeInteger(operandBits(value) + Number(n));
  return Number(n);
}

export function shiftLeft(value: Int, n: Int): Int {
  if (value === 0 || value === 0n) return 0;
  if (typeof value === "number" && typeof n === "number" && n < 53) {
    const result = value * 2 ** n;
    if (Number.isSafeInteger(result)) return result;
  }
  const amount = chargeShift(value, n);
  return makeInteger(big(value) << BigInt(amount));
}

/** Arithmetic (sign-extending) right shift. */
export function shiftRight(value: Int, n: Int): Int {
  const negative = value < 0;
  // A bigint amount is beyond the size of any integer a run can hold: only the sign remains.
  if (typeof n === "bigint") return negative ? -1 : 0;
  if (typeof value === "number") {
    if (n >= 60) return negative ? -1 : 0;
    // Dividing a safe integer by a power of two is exact, so the floor is the shifted value.
    return Math.floor(value / 2 ** n) || 0;
  }
  return chargedInteger(value >> BigInt(n));
}

/** The integer with only bit `n` set, charged like a shift. */
function mask(n: Int): Int {
  if (typeof n === "number" && n < 31) return 1 << n;
  return shiftLeft(1, n);
}

export function bitSet(value: Int, n: Int): Int {
  return bitOr(value, mask(n));
}

export function bitClear(value: Int, n: Int): Int {
  return bitAndNot(value, mask(n));
}

export function bitFlip(value: Int, n: Int): Int {
  return bitXor(value, mask(n));
}

export function bitTest(value: Int, n: Int): boolean {
  const shifted = shiftRight(value, n);
  return typeof shifted === "number" ? (shifted & 1) === 1 : (shifted & 1n) === 1n;
}
