/**
 * Long builtin work in slices, so the run's wall-clock limit holds inside a single call: sorting
 * two million rows, building a huge range. Between slices the meters are charged (which reads the
 * clock), and a run past its deadline stops there. Small inputs take the direct path.
 */
import { active } from "./context.js";

/** Elements handled between two clock checks. */
const SLICE = 16384;

/**
 * Items a builtin loop over program data handles between two charges of the clock, for loops that
 * do not call back into the program (a callback into PTC-Lisp code charges its own steps). The
 * loop tests `(i & CHECK_MASK) === CHECK_MASK` and then calls `active.work(CHECK_EVERY)`: one AND
 * and one compare per item, one call per chunk, so hot loops stay fast and a call over ten
 * million items still reads the clock every few thousand.
 */
export const CHECK_EVERY = 1024;
export const CHECK_MASK = CHECK_EVERY - 1;

/**
 * Stable in-place sort: native sort of slices, then bottom-up merges, with a deadline check
 * between slices. Equal elements keep their order, as with Array.prototype.sort.
 */
export function sortInSlices<T>(items: T[], compare: (a: T, b: T) => number): void {
  const n = items.length;
  active.work(n);
  if (n <= 2 * SLICE) {
    items.sort(compare);
    return;
  }
  for (let start = 0; start < n; start += SLICE) {
    const slice = items.slice(start, Math.min(start + SLICE, n));
    slice.sort(compare);
    for (let i = 0; i < slice.length; i++) items[start + i] = slice[i] as T;
    active.work(SLICE * 14);
  }
  let source = items;
  let target = new Array<T>(n);
  for (let width = SLICE; width < n; width *= 2) {
    for (let left = 0; left < n; left += 2 * width) {
      const middle = Math.min(left + width, n);
      const right = Math.min(left + 2 * width, n);
      let i = left;
      let j = middle;
      let k = left;
      while (i < middle && j < right) {
        // Take from the left on ties: stability.
        if (compare(source[j] as T, source[i] as T) < 0) target[k++] = source[j++] as T;
        else target[k++] = source[i++] as T;
        if ((k & (SLICE - 1)) === 0) active.work(SLICE);
      }
      while (i < middle) target[k++] = source[i++] as T;
      while (j < right) target[k++] = source[j++] as T;
    }
    [source, target] = [target, source];
  }
  if (source !== items) for (let i = 0; i < n; i++) items[i] = source[i] as T;
}

/** Sorts plain numbers ascending in slices (numeric order, as a Float64Array sorts). */
export function sortNumbersInSlices(values: Float64Array<ArrayBuffer>): Float64Array<ArrayBuffer> {
  const n = values.length;
  active.work(n);
  if (n <= 2 * SLICE) return values.sort();
  for (let start = 0; start < n; start += SLICE) {
    values.subarray(start, Math.min(start + SLICE, n)).sort();
    active.work(SLICE * 14);
  }
  let source = values;
  let target = new Float64Array(n);
  for (let width = SLICE; width < n; width *= 2) {
    for (let left = 0; left < n; left += 2 * width) {
      const middle = Math.min(left + width, n);
      const right = Math.min(left + 2 * width, n);
      let i = left;
      let j = middle;
      let k = left;
      while (i < middle && j < right) {
        target[k++] =
          (source[j] as number) < (source[i] as number) ? (source[j++] as number) : (source[i++] as number);
        if ((k & (SLICE - 1)) === 0) active.work(SLICE);
      }
      while (i < middle) target[k++] = source[i++] as number;
      while (j < right) target[k++] = source[j++] as number;
    }
    [source, target] = [target, source];
  }
  return source;
}

/** Calls `fill(i)` for i in [0, count), checking the deadline between slices. */
export function fillInSlices(count: number, fill: (index: number) => void): void {
  for (let start = 0; start < count; start += SLICE) {
    const end = Math.min(start + SLICE, count);
    for (let i = start; i < end; i++) fill(i);
    active.work(end - start);
  }
}
