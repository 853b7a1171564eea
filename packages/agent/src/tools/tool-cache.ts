/**
 * The run's tool cache: full results of `cache: true` tools under their canonical key, shared by
 * native calls and programs. Optional byte limits (per run, per tool) keep it bounded: the least
 * recently used entries are evicted first, and a result too large to keep is simply not kept (the
 * next identical call runs the tool again). Without limits nothing is measured or evicted.
 */
import { toJsonSafe } from "../json/to-json-safe.js";
import type { ToolCache, ToolCacheEntry } from "../step/step-types.js";

export type CacheWrite =
  | { readonly stored: true }
  | { readonly stored: false; readonly sizeBytes: number; readonly limitBytes: number };

const encoder = new TextEncoder();

/** Bytes of a value's JSON, as the step writes it (json/to-json-safe.ts: BigInts as text, cycles cut). */
export function jsonBytes(value: unknown): number {
  return encoder.encode(JSON.stringify(toJsonSafe(value))).length;
}

export class RunToolCache {
  /** The entries themselves, in least- to most-recently-used order; `step.toolCache` is this map. */
  readonly entries: ToolCache;
  private readonly sizes = new Map<string, number>();
  private totalBytes = 0;

  constructor(
    seed: ToolCache | Readonly<Record<string, ToolCacheEntry>> | undefined,
    private readonly limitBytes: number | undefined,
  ) {
    this.entries = new Map();
    const pairs = seed === undefined ? [] : seed instanceof Map ? [...seed.entries()] : Object.entries(seed);
    for (const [key, entry] of pairs) {
      if (typeof key === "string" && typeof entry === "object" && entry !== null && "result" in entry) {
        this.write(key, entry.result, undefined);
      }
    }
  }

  get(key: string): ToolCacheEntry | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    // Move to the most-recently-used end.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry;
  }

  has(key: string): boolean {
    return this.entries.has(key);
  }

  /** Stores a result unless it is larger than `toolLimitBytes` or the run's whole limit. */
  set(key: string, result: unknown, toolLimitBytes: number | undefined): CacheWrite {
    return this.write(key, result, toolLimitBytes);
  }

  private write(key: string, result: unknown, toolLimitBytes: number | undefined): CacheWrite {
    const limited = this.limitBytes !== undefined || toolLimitBytes !== undefined;
    const size = limited ? jsonBytes(result) : 0;
    const limit = Math.min(
      toolLimitBytes ?? Number.POSITIVE_INFINITY,
      this.limitBytes ?? Number.POSITIVE_INFINITY,
    );
    if (size > limit) return { stored: false, sizeBytes: size, limitBytes: limit };
    this.remove(key);
    this.entries.set(key, { result });
    this.sizes.set(key, size);
    this.totalBytes += size;
    if (this.limitBytes !== undefined) {
      for (const oldest of this.entries.keys()) {
        if (this.totalBytes <= this.limitBytes || oldest === key) break;
        this.remove(oldest);
      }
    }
    return { stored: true };
  }

  private remove(key: string): void {
    if (!this.entries.has(key)) return;
    this.totalBytes -= this.sizes.get(key) ?? 0;
    this.entries.delete(key);
    this.sizes.delete(key);
  }
}
