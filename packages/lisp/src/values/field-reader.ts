/**
 * Fast field reads for hot keywords. `(group-by :region rows)` reads one field of 100,000 host
 * objects from inside a builtin, where a shared `item[name]` access sees every keyword of every
 * program and degrades to V8's slowest property lookup. A keyword read often enough gets a reader
 * function of its own, compiled from a fixed source text (the name is a captured value, never part
 * of the text), whose single access site V8 specializes to the rows' shape.
 *
 * Where `new Function` is forbidden or switched off (code-generation.ts), or the running program
 * must generate nothing (`engine: "general"`), keywords keep the shared path: same results, just
 * slower. A reader is compiled only once code generation is known to work: never as a probe.
 */
import { generatedCodePermitted } from "../code-generation.js";
import { fastTierStats } from "../compiler/fast-tier.js";
import type { Keyword } from "./keyword.js";
import { plainObjectTest } from "./plain-object.js";

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

/** The dedicated reader of a keyword once it is hot, else undefined (use the shared path). */
export function readerOf(
  keyword: Keyword & { reads: number; reader: FieldReader | undefined | null },
): FieldReader | undefined {
  const existing = keyword.reader;
  // A run that may not generate code runs none either (not even a reader an earlier run made),
  // and leaves the keyword as it is: a later run that may still gives it a reader.
  if (existing !== undefined) return existing !== null && generatedCodePermitted() ? existing : undefined;
  if (++keyword.reads < HOT_READS || !keyword.direct) return undefined;
  if (!generatedCodePermitted()) return undefined;
  const reader = compileReader(keyword);
  keyword.reader = reader ?? null;
  return reader;
}
