/**
 * Memory charges use the named sizes of allocation.ts, so that a vector, a map or a set costs the
 * same whichever builtin builds it, and a change of a size is one edit.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "vitest";
import { run } from "../index.js";
import {
  MAP_BYTES,
  MAP_ENTRY_BYTES,
  mapBytes,
  SET_BYTES,
  setBytes,
  VECTOR_BYTES,
  vectorBytes,
} from "./allocation.js";

test("no charge is written with the sizes' numbers", () => {
  const root = join(import.meta.dirname, "..");
  const sources = readdirSync(root, { recursive: true, encoding: "utf8" }).filter(
    (path) => path.endsWith(".ts") && !path.endsWith(".test.ts") && path !== join("runtime", "allocation.ts"),
  );
  const sizes = new Set([VECTOR_BYTES, MAP_BYTES, MAP_ENTRY_BYTES, SET_BYTES, 8, 24, 56]);
  const offending: string[] = [];
  for (const path of sources) {
    const text = readFileSync(join(root, path), "utf8");
    for (const match of text.matchAll(/\.allocate\(([^;]*)\);/g)) {
      const numbers = (match[1] ?? "").match(/\b\d+\b/g) ?? [];
      if (numbers.some((number) => sizes.has(Number(number)))) offending.push(`${path}: ${match[0]}`);
    }
  }
  expect(offending).toEqual([]);
});

test("a collection literal is charged its size, whichever tier builds it", async () => {
  // The outer vector, and the three inside it.
  const limit = vectorBytes(3) + vectorBytes(3) + mapBytes(2) + setBytes(1) - 1;
  for (const engine of ["fast", "general"] as const) {
    const source = "(let [n 1] [[n 2 3] {:a n :b 2} #{n}])";
    const tight = await run(source, { engine, limits: { maxMemoryBytes: limit } });
    expect(tight.ok, engine).toBe(false);
    expect(!tight.ok && tight.error.reason).toBe("memory_exceeded");
    const enough = await run(source, { engine, limits: { maxMemoryBytes: limit + 1 } });
    expect(enough.ok, engine).toBe(true);
  }
});
