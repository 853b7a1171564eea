/**
 * RE2 is loaded only for programs that may use a regex (regex-engine.ts): a cold start that runs
 * none never pays for it. Vitest gives each test file its own module graph, so the engine starts
 * unloaded here.
 */
import { describe, expect, test } from "vitest";
import { run } from "../run.js";
import { mayUseRegex, regexEngineLoaded } from "./regex-engine.js";

describe("the regex engine loads on first need", () => {
  test("a program with no regex leaves it unloaded, one with a regex loads it", async () => {
    const plain = await run('(->> [1 2 3] (map inc) (reduce + 0) (str "total "))');
    expect(plain.ok && plain.value).toBe("total 9");
    expect(regexEngineLoaded()).toBe(false);
    // A pattern outside the native subset needs RE2 at once.
    const result = await run('(re-find #"(?i)ab+" "xABBy")');
    expect(result.ok && result.value).toBe("ABB");
    expect(regexEngineLoaded()).toBe(true);
  });

  test.each([
    ['(re-find #"a" s)', true],
    ['(re-pattern "a")', true],
    ['(str/split s ",")', true],
    ['(str/replace s "a" "b")', true],
    ['(extract "a" s)', true],
    ["(+ 1 2)", false],
    ['(str/upper-case "re")', false],
  ])("%s may use a regex: %s", (source, expected) => {
    expect(mayUseRegex(source)).toBe(expected);
  });
});
