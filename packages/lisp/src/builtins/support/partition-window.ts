/**
 * How much of a partition window to allocate before its items arrive (the lazy stage in
 * lazy-pipeline.ts and the generated one in compiler/fused-pipelines.ts).
 */

const PREALLOCATED_WINDOW = 1024;

/**
 * Slots to make before the first item of a window of `size` items (partition's n, which the
 * program writes). Filling all of them up front would allocate and walk `size` slots whatever the
 * input holds: `(partition 100000000 xs)` spent seconds and gigabytes before reading an item, past
 * the clock and the memory budget, and past 2^32 slots V8 aborts the whole process ("invalid size
 * error"), which no catch stops. Past this many, the window grows by one slot per item read, so
 * its size is bounded by the input, as the eager partition's is.
 */
export function windowSlots(size: number): number {
  return Math.min(size, PREALLOCATED_WINDOW);
}
