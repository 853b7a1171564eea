import { expect, test } from "vitest";
import { percentSaved } from "./bench-table.js";
import { measureMcpSchemaTokens } from "./mcp-schema-tokens.js";
import { runBench } from "./run-bench.js";

test("combined mode sends at least 95% fewer context tokens on 1,000+ row results, with the same answers", async () => {
  const results = await runBench();
  expect(results.map((result) => result.task)).toEqual([
    "log triage",
    "top customers",
    "revenue by tier (join)",
    "on call (small result)",
  ]);
  for (const result of results) {
    expect(result.text.ok && result.combined.ok, result.task).toBe(true);
    expect(result.combined.answer, result.task).toBe(result.text.answer);
    if (result.rows >= 1000) {
      expect(percentSaved(result.text.tokens, result.combined.tokens), result.task).toBeGreaterThanOrEqual(
        95,
      );
    }
  }
  const small = results.find((result) => result.rows < 1000);
  // The honest cost of the reference card and the lisp_eval schema on a small result.
  expect(small?.combined.tokens).toBeGreaterThan(small?.text.tokens ?? 0);
  // Both modes make the same requests there, so what combined mode adds to each one (card, tool
  // list, schema) is the whole difference, give or take a token where two texts join.
  const overhead = small?.combined.overhead;
  expect(small?.combined.requests).toBe(small?.text.requests);
  expect(overhead?.card).toBeLessThanOrEqual(300);
  expect(overhead?.schema).toBeLessThanOrEqual(80);
  const added = (overhead?.card ?? 0) + (overhead?.toolList ?? 0) + (overhead?.schema ?? 0);
  const perRequest =
    ((small?.combined.tokens ?? 0) - (small?.text.tokens ?? 0)) / (small?.text.requests ?? 1);
  expect(Math.abs(perRequest - added)).toBeLessThanOrEqual(3);
  // Issue 22 took this from 1.99x to 1.82x; a card or schema that grows shows here.
  expect((small?.combined.tokens ?? 0) / (small?.text.tokens ?? 1)).toBeLessThanOrEqual(1.85);
  expect(results.find((result) => result.task === "revenue by tier (join)")?.combined.cacheHits).toBe(2);
});

test("ptc-mcp's lisp_eval costs a fraction of listing the three reference servers' tools natively", async () => {
  const row = await measureMcpSchemaTokens();
  expect(row.servers).toEqual(["everything", "filesystem", "memory"]);
  expect(row.tools).toBeGreaterThan(30);
  expect(row.lispEval).toBeGreaterThan(0);
  expect(row.lispEval).toBeLessThan(row.native);
});
