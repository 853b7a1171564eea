/**
 * Fast field reads for hot keywords. `(group-by :region rows)` reads one field of 100,000 host
 * objects from inside a builtin, where a shared `item[name]` access sees every keyword of every
 * program and degrades to V8's slowest property lookup. A keyword read often enough gets a reader
 * function of its own, compiled from a fixed source text (the name is a captured value, never part
 * of the text), whose single access site V8 specializes to the rows' shape.
 *
 * Where `new Function` is forbidden or switched off (code-generation.ts), or the running program
 * must generate nothing (`engine: "general"`), a hot keyword gets one of a fixed pool of readers
 * written out in the source instead (reader-pool.ts), and once those are all taken keeps the
 * shared path: same results either way. A reader is compiled only once code generation is known
 * to work: never as a probe.
 */
import { generatedCodePermitted } from "../code-generation.js";
import { fastTierStats } from "../compiler/fast-tier.js";
import type { Keyword } from "./keyword.js";
import { plainObjectTest } from "./plain-object.js";
import { pooledReader } from "./reader-pool.js";

export type FieldReader = (item: unknown, fallback: (item: unknown, keyword: Keyword) => unknown) => unknown;

/** Reads before a keyword gets its own reader (compiling one costs tens of microseconds). */
const HOT_READS = 2000;

const SOURCE = `"use strict";
return function read(item, fallback) {
  if (${plainObjectTest("item")}) {
    const found = item[name];
    if (found !== undefined) return found;
  }
  return fallback(item, keyword);
};`;

let serial = 0;

function compileReader(keyword: Keyword): FieldReader | undefined {
  try {
    // A serial number makes each text unique: V8 caches compiled `new Function` texts, and readers
    // sharing one compiled function would share one access site again.
    const reader = new Function("name", "keyword", `${SOURCE}\n// reader ${++serial}`)(
      keyword.name,
      keyword,
    ) as FieldReader;
    fastTierStats.fieldReaders++;
    return reader;
  } catch {
    return undefined;
  }
}

/**
 * The dedicated reader of a keyword once it is hot, else undefined (use the shared path). Where
 * code may not be generated, a reader from the fixed pool (reader-pool.ts) stands in.
 */
export function readerOf(
  keyword: Keyword & {
    reads: number;
    reader: FieldReader | undefined | null;
    pooled: FieldReader | undefined | null;
  },
): FieldReader | undefined {
  const existing = keyword.reader;
  // A run that may not generate code runs none either (not even a reader an earlier run made),
  // and leaves the keyword as it is: a later run that may still gives it a reader.
  if (existing !== undefined)
    return existing !== null && generatedCodePermitted() ? existing : (keyword.pooled ?? undefined);
  const pooled = keyword.pooled;
  if (pooled !== undefined && pooled !== null && !generatedCodePermitted()) return pooled;
  if (++keyword.reads < HOT_READS || !keyword.direct) return undefined;
  if (!generatedCodePermitted()) return pooledOf(keyword);
  const reader = compileReader(keyword);
  keyword.reader = reader ?? null;
  return reader ?? pooledOf(keyword);
}

/** The keyword's pooled reader, taken from the pool on first need (null once the pool is out). */
function pooledOf(keyword: Keyword & { pooled: FieldReader | undefined | null }): FieldReader | undefined {
  if (keyword.pooled === undefined) keyword.pooled = pooledReader(keyword) ?? null;
  return keyword.pooled ?? undefined;
}
