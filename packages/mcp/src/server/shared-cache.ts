/**
 * The tool cache one MCP client shares between its native calls and its programs (combined mode
 * over MCP): full results of `cache: true` tools under their canonical key, bounded in bytes,
 * least recently used entries evicted first. It lives as long as the client's connection (a
 * stdio process, an HTTP session), where an agent's lives for one run. A result larger than the
 * whole bound is not kept; the next identical call runs the tool again.
 */

const encoder = new TextEncoder();

/** Bytes of a value's JSON; Infinity when it has none (cycles, BigInt). */
export function jsonBytes(value: unknown): number {
  try {
    const text = JSON.stringify(value);
    return text === undefined ? 0 : encoder.encode(text).length;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

export const DEFAULT_CACHE_LIMIT_BYTES = 64 * 1024 * 1024;

export class SharedToolCache {
  private readonly entries = new Map<string, { readonly result: unknown; readonly bytes: number }>();
  private totalBytes = 0;

  constructor(private readonly limitBytes: number = DEFAULT_CACHE_LIMIT_BYTES) {}

  has(key: string): boolean {
    return this.entries.has(key);
  }

  /** The cached result, marked most recently used; undefined when absent. */
  get(key: string): { readonly result: unknown } | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry;
  }

  /** Keeps a result; false when it alone is larger than the cache (nothing is kept then). */
  set(key: string, result: unknown): boolean {
    const bytes = jsonBytes(result);
    if (bytes > this.limitBytes) return false;
    this.delete(key);
    this.entries.set(key, { result, bytes });
    this.totalBytes += bytes;
    for (const [oldest] of this.entries) {
      if (this.totalBytes <= this.limitBytes || oldest === key) break;
      this.delete(oldest);
    }
    return true;
  }

  private delete(key: string): void {
    const entry = this.entries.get(key);
    if (entry === undefined) return;
    this.entries.delete(key);
    this.totalBytes -= entry.bytes;
  }

  get size(): number {
    return this.entries.size;
  }
}
