/**
 * Big integers (past 2^53, JS bigints) are values a program builds: each one is charged to the
 * memory budget by its size, and the work on it to the clock. Their operations are single native
 * calls the clock cannot interrupt, and some cost more than their size (V8 multiplies, divides
 * and converts to decimal text in more than linear time: a ten-million-bit integer takes seconds
 * to print). So an integer may hold at most MAX_INTEGER_BITS bits (values/numbers.ts), a size at
 * which every operation on it takes a few hundredths of a second at most; a result past it, or past the budget, is
 * refused before it is computed where its size is known in advance (a product has at most the
 * bits of its factors together, a shift adds its amount), and right after otherwise (sums, which
 * grow by one bit at a time). V8's own "Maximum BigInt size exceeded" is never reached.
 *
 * Nothing here may change a result: it only ends a run at its limits.
 */
import { LispError } from "../errors.js";
import { MAX_INTEGER_BITS, MAX_INTEGER_DIGITS } from "../values/numbers.js";
import { bigintBytes } from "./allocation.js";
import { active } from "./context.js";

/**
 * Bits of `value`'s magnitude (0 for 0), give or take one next to a power of two (a double holds
 * the leading bits well enough for a size, not exactly). JS has no bit length for bigints: below
 * 2^1023 one conversion to a double gives it; above, a search by shifts narrows the top bit to a
 * window a double can hold (a few shifts, each a copy: about three additions of the same size,
 * where its hexadecimal text would cost ten).
 */
export function bitLength(value: bigint): number {
  const approximate = Math.abs(Number(value));
  if (approximate === 0) return 0;
  if (approximate < 2 ** 1023) return Math.floor(Math.log2(approximate)) + 1;
  const magnitude = value < 0n ? -value : value;
  let below = 1000;
  let above = 2048;
  while (magnitude >> BigInt(above) !== 0n) {
    below = above;
    above *= 2;
  }
  while (above - below > 1000) {
    const middle = (below + above) >>> 1;
    if (magnitude >> BigInt(middle) !== 0n) below = middle;
    else above = middle;
  }
  return below + Math.floor(Math.log2(Number(magnitude >> BigInt(below)))) + 1;
}

export function integerTooLargeError(bits: number): LispError {
  return new LispError(
    "memory_exceeded",
    `integer too large: the result would have about ${bits} bits, more than the ${MAX_INTEGER_BITS} bits (about ${MAX_INTEGER_DIGITS} decimal digits) an integer may hold. Work with smaller numbers (use floats, or reduce modulo a bound), or compare sizes with logarithms instead of building the number`,
  );
}

/**
 * Charges an integer of `bits` bits that is about to be built: refuses it past
 * MAX_INTEGER_BITS, charges its bytes to the memory budget, and its words to the clock (so a
 * loop over large integers reads the clock at every step, and over small ones every few).
 */
export function chargeInteger(bits: number): void {
  if (bits > MAX_INTEGER_BITS) throw integerTooLargeError(bits);
  const context = active;
  context.allocate(bigintBytes(bits));
  context.work(1 + (bits >>> 5));
}

/**
 * A result computed as a bigint, charged by its size and narrowed to a number when it is safe
 * (values/numbers.ts, makeInteger). For results whose size was not charged before they were
 * computed: sums and differences (at most one bit past their larger operand), remainders and
 * bitwise results (no larger than their operands).
 */
export function chargedInteger(value: bigint): number | bigint {
  if (value >= -9007199254740991n && value <= 9007199254740991n) return Number(value);
  chargeInteger(bitLength(value));
  return value;
}

/** Bits of an integer operand, a number or a bigint. */
export function operandBits(value: number | bigint): number {
  if (typeof value === "bigint") return bitLength(value);
  const magnitude = Math.abs(value);
  return magnitude === 0 ? 0 : Math.floor(Math.log2(magnitude)) + 1;
}

/**
 * A decimal integer read from text (parse-long, JSON): refused before it is parsed when it has
 * more digits than the largest integer (parsing is superlinear too), else parsed and charged.
 */
export function parseDecimalInteger(text: string): number | bigint {
  const digits = significantDigits(text);
  if (digits > MAX_INTEGER_DIGITS + 1) throw integerTooLargeError(Math.ceil(digits * Math.log2(10)));
  return chargedInteger(BigInt(text));
}

/** Digits of a decimal integer's text after its sign and leading zeros. */
export function significantDigits(text: string): number {
  let start = 0;
  if (text.charCodeAt(0) === 43 || text.charCodeAt(0) === 45) start++;
  while (start < text.length - 1 && text.charCodeAt(start) === 48) start++;
  return text.length - start;
}
