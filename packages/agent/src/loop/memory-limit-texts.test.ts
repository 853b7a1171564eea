/**
 * Every text about the memory limit is written once, in memory-limit-texts.ts: no other source of
 * the agent words it (each transport's reply reads it from there).
 */
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  memoryLimitFailure,
  memoryLimitToolMessage,
  rollbackMessage,
  rolledBackToolMessage,
} from "./memory-limit-texts.js";

const src = new URL("../", import.meta.url);

describe("memory-limit texts", () => {
  it("are worded in one file only", () => {
    const wording = readdirSync(src, { recursive: true, encoding: "utf8" })
      .filter((path) => path.endsWith(".ts") && !/\.test(-d)?\.ts$/.test(path))
      .filter((path) => readFileSync(new URL(path, src), "utf8").includes("Memory limit exceeded"));
    expect(wording.map((path) => path.replaceAll("\\", "/"))).toEqual(["loop/memory-limit-texts.ts"]);
  });

  it("state the same fact: the size over the limit", () => {
    for (const text of [
      memoryLimitFailure(300, 200),
      memoryLimitToolMessage(300, 200),
      rolledBackToolMessage(300, 200),
      rollbackMessage(300, 200),
    ]) {
      expect(text).toMatch(/^Memory limit exceeded\W+300 bytes > 200 bytes/);
    }
  });
});
