/**
 * `AGENT_FAIL_REASONS` is the whole list of reasons the agent writes into `step.fail.reason`:
 * `failure()` takes no other (a type check), and this test reads the sources for reasons written
 * any other way (a callback's default, a model that could not be resolved, a refused state).
 * docs/limits.md describes every reason of the list.
 */
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { AGENT_FAIL_REASONS } from "../index.js";

const src = new URL("../", import.meta.url);

/** The package's own sources: not tests, fuzz harnesses or the testing helpers. */
function sources(): { path: string; text: string }[] {
  return readdirSync(src, { recursive: true, encoding: "utf8" })
    .filter((path) => path.endsWith(".ts") && !/\.test(-d)?\.ts$/.test(path) && !path.startsWith("__"))
    .filter((path) => !path.startsWith("testing"))
    .map((path) => ({ path, text: readFileSync(new URL(path, src), "utf8") }));
}

/** How a reason reaches `step.fail`: the finish helpers, with a reason or a default for one. */
const WRITTEN = [
  /\b(?:failure|chosenFailure)\(\s*"([a-z_]+)"/g,
  /\bchosenFailure\(\s*[^,;]*?\?\? "([a-z_]+)"/g,
];
/** Files whose `reason:` fields become a run's failure (a model not resolved, a refused state). */
const REFUSALS = ["run/run-agent.ts", "approvals/read-state.ts"];

function writtenReasons(): Map<string, string> {
  const found = new Map<string, string>();
  for (const { path, text } of sources()) {
    const patterns = REFUSALS.includes(path.replaceAll("\\", "/"))
      ? [...WRITTEN, /\breason: "([a-z_]+)"/g]
      : WRITTEN;
    for (const pattern of patterns)
      for (const match of text.matchAll(pattern)) found.set(match[1] as string, path);
  }
  return found;
}

describe("AGENT_FAIL_REASONS", () => {
  it("holds every reason the agent's code writes into step.fail", () => {
    const found = writtenReasons();
    // The scan must see the reasons written through failure() and the model and state refusals.
    for (const reason of [
      "internal_error",
      "recursion_limit_exceeded",
      "llm_required",
      "state_expired",
      "stopped",
    ]) {
      expect(found.has(reason), reason).toBe(true);
    }
    const missing = [...found].filter(
      ([reason]) => !(AGENT_FAIL_REASONS as readonly string[]).includes(reason),
    );
    expect(missing).toEqual([]);
  });

  it("names each reason once, and docs/limits.md describes each", () => {
    expect(new Set(AGENT_FAIL_REASONS).size).toBe(AGENT_FAIL_REASONS.length);
    const limits = readFileSync(new URL("../../../../docs/limits.md", import.meta.url), "utf8");
    const undocumented = AGENT_FAIL_REASONS.filter((reason) => !limits.includes(`\`${reason}\``));
    expect(undocumented).toEqual([]);
  });
});
