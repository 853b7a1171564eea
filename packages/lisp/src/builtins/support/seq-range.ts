/**
 * `range`: eager, so its size is charged to the memory budget before a single element exists —
 * `(range 1e9)` fails at once with memory_exceeded instead of exhausting the host.
 *
 * Elements are produced the reference's way, by repeated addition from the start: the first
 * element keeps the start's type (`(range 1 2 0.25)` is [1 1.25 1.5 1.75]) and float steps
 * accumulate rounding as they would there.
 */

import { chargeUnboundedVector, VECTOR_SLOT_BYTES } from "../../runtime/allocation.js";
import { active } from "../../runtime/context.js";
import { CHECK_EVERY, CHECK_MASK, fillInSlices } from "../../runtime/interruptible.js";
import { add, compareNumbers } from "../../runtime/numeric.js";
import { isNumber, type LispNumber, toDouble } from "../../values/numbers.js";
import { checkVectorLength } from "../../values/vector-limit.js";

function isPlainInteger(value: unknown): value is number {
  return typeof value === "number" && Number.isSafeInteger(value);
}

export function range(...args: unknown[]): unknown[] {
  const start = args.length === 1 ? 0 : args[0];
  const end = args.length === 1 ? args[0] : args[1];
  const step = args.length === 3 ? args[2] : 1;
  // Non-numeric bounds give an empty range, as in the reference.
  if (!isNumber(start) || !isNumber(end) || !isNumber(step)) return [];
  if (isPlainInteger(start) && isPlainInteger(end) && isPlainInteger(step))
    return integerRange(start, end, step);
  return numericRange(start, end, step);
}

function integerRange(start: number, end: number, step: number): number[] {
  if (step === 0) return [];
  const count =
    step > 0 ? Math.max(0, Math.ceil((end - start) / step)) : Math.max(0, Math.ceil((start - end) / -step));
  chargeUnboundedVector(count);
  const out = new Array<number>(count);
  fillInSlices(count, (i) => {
    out[i] = start + i * step;
  });
  return out;
}

function numericRange(start: LispNumber, end: LispNumber, step: LispNumber): unknown[] {
  const stepValue = toDouble(step);
  if (stepValue === 0 || Number.isNaN(stepValue)) return [];
  const estimate = Math.ceil((toDouble(end) - toDouble(start)) / stepValue);
  if (Number.isNaN(estimate) || estimate <= 0) {
    // Bigint bounds can round to an empty estimate while the exact range is not empty: fall
    // through to the exact loop, which charges per element.
    if (!(typeof start === "bigint" || typeof end === "bigint" || typeof step === "bigint")) return [];
  }
  const charged = Math.max(0, Number.isNaN(estimate) ? 0 : estimate);
  chargeUnboundedVector(charged);
  active.work(charged);
  const ascending = stepValue > 0;
  const out: unknown[] = [];
  let current: LispNumber = start;
  while (true) {
    const c = compareNumbers(current, end);
    if (!(ascending ? c < 0 : c > 0)) break;
    if (out.length >= charged) checkVectorLength(out.length + 1);
    out.push(current);
    if (out.length > charged) {
      active.allocate(VECTOR_SLOT_BYTES);
      active.work(1);
    } else if ((out.length & CHECK_MASK) === 0) {
      // The estimate was charged at once, one clock read: read it again as the range grows.
      active.work(CHECK_EVERY);
    }
    current = add(current, step);
  }
  return out;
}
