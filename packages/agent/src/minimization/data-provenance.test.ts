import { describe, expect, it } from "vitest";
import type { ToolCallRecord } from "../step/step-types.js";
import { DataProvenance } from "./data-provenance.js";

const call = (name: string, result: unknown): ToolCallRecord => ({ name, args: {}, result, durationMs: 0 });

/** Runs one successful program through the tracker, as the combined loop does. */
function succeed(
  provenance: DataProvenance,
  source: string,
  defined: string[],
  options: { calls?: ToolCallRecord[]; returned?: boolean } = {},
) {
  const origins = provenance.assess(source, options.calls ?? []);
  provenance.keepJournal(origins);
  provenance.commitSuccess(origins, defined, options.returned !== true);
  return origins;
}

describe("DataProvenance", () => {
  it("hides what a form computes from a hidden tool, and what later forms compute from that", () => {
    const provenance = new DataProvenance(new Set(["search_logs"]));
    succeed(provenance, '(def rows (tool/search-logs {})) (def n (count rows)) (def label "x")', [
      "rows",
      "n",
      "label",
    ]);
    succeed(provenance, "(def big (filter :ok rows)) (def other 1)", ["big", "other"]);
    expect([...provenance.shapeOnly(["rows", "n", "label", "big", "other"])].sort()).toEqual([
      "big",
      "n",
      "rows",
    ]);
  });

  it("hides a value read through a function defined before its data became hidden", () => {
    const provenance = new DataProvenance(new Set(["t"]));
    succeed(provenance, "(def rows []) (defn f [] rows)", ["rows", "f"]);
    expect(provenance.shapeOnly(["f"]).size).toBe(0);
    succeed(provenance, "(def rows (tool/t {}))", ["rows"]);
    succeed(provenance, "(def y (f))", ["y"]);
    expect(provenance.shapeOnly(["y"]).has("y")).toBe(true);
  });

  it("keeps a binding hidden after the data it came from is redefined", () => {
    const provenance = new DataProvenance(new Set(["t"]));
    succeed(provenance, "(def rows (tool/t {})) (def copy rows)", ["rows", "copy"]);
    succeed(provenance, "(def rows [])", ["rows"]);
    expect([...provenance.shapeOnly(["rows", "copy"])]).toEqual(["copy"]);
  });

  it("keeps a hidden binding hidden through a defonce that may keep its value", () => {
    const provenance = new DataProvenance(new Set(["t"]));
    succeed(provenance, "(def rows (tool/t {}))", ["rows"]);
    succeed(provenance, "(defonce rows [])", ["rows"]);
    expect(provenance.shapeOnly(["rows"]).has("rows")).toBe(true);
  });

  it("follows hidden values through *1, data/fail and the task journal", () => {
    const provenance = new DataProvenance(new Set(["t"]));
    succeed(provenance, "(count (tool/t {}))", []);
    succeed(provenance, "(def a *1)", ["a"]);
    expect(provenance.shapeOnly(["a"]).has("a")).toBe(true);

    const failed = provenance.assess("(+ 1 (tool/t {}))", []);
    expect(failed.hidden).toBe(true);
    provenance.commitFailure(failed);
    succeed(provenance, "(def why (:message data/fail))", ["why"]);
    expect(provenance.shapeOnly(["why"]).has("why")).toBe(true);

    succeed(provenance, '(task "load" (tool/t {}))', []);
    succeed(provenance, '(def cached (task "load" nil))', ["cached"]);
    expect(provenance.shapeOnly(["cached"]).has("cached")).toBe(true);
  });

  it("hides everything a program defined when it called a hidden tool its text does not name", () => {
    const provenance = new DataProvenance(new Set(["t"]));
    const origins = succeed(provenance, "(def x (helper))", ["x"], { calls: [call("t", ["secret"])] });
    expect(origins.hidden).toBe(true);
    expect(origins.hiddenResults).toEqual([["secret"]]);
    expect(provenance.shapeOnly(["x"]).has("x")).toBe(true);
  });

  it("hides nothing of programs that touch no hidden data", () => {
    const provenance = new DataProvenance(new Set(["t"]));
    const origins = succeed(provenance, "(def x (tool/open {})) (def y (inc 1))", ["x", "y"], {
      calls: [call("open", 1)],
    });
    expect(origins.hidden).toBe(false);
    expect(provenance.shapeOnly(["x", "y"]).size).toBe(0);
    expect(provenance.assess("(unbalanced", []).hidden).toBe(false);
  });
});
