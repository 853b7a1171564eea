// Needs @ptc/lisp's `preview`/`format` (value previews in Clojure syntax).

import { createSession, run } from "@ptc/lisp";
import { describe, expect, it } from "vitest";
import {
  buildExecutionFeedback,
  renderSuccess,
  renderSuccessFromStep,
  UNTRUSTED_PREAMBLE,
  wrapUntrusted,
} from "./index.js";

const framed = (...blocks: [content: string, source: string][]) =>
  `${UNTRUSTED_PREAMBLE}\n\n${blocks.map(([content, source]) => wrapUntrusted(content, source)).join("\n\n")}`;

describe("buildExecutionFeedback", () => {
  it("previews the value as `user=> ...` and frames it for a multi-turn agent", () => {
    const execution = buildExecutionFeedback({ value: [1, 2, 3], prints: [] });
    expect(execution).toEqual({
      feedback: framed(["user=> [1 2 3]", "result"]),
      prints: [],
      result: "user=> [1 2 3]",
      memory: { changed: {}, storedKeys: [], truncated: false },
      visibleTruncated: false,
      truncated: false,
    });
  });

  it("shows printed output instead of the result block, but keeps the result field", () => {
    const execution = buildExecutionFeedback({ value: 42, prints: ["a", "b"] });
    expect(execution.feedback).toBe(framed(["a\nb", "println"]));
    expect(execution.result).toBe("user=> 42");
    expect(execution.prints).toEqual(["a", "b"]);
  });

  it("caps printed output at feedbackMaxChars with a hint, and flags it", () => {
    const execution = buildExecutionFeedback({ value: null, prints: ["x".repeat(600)] });
    expect(execution.feedback).toContain(
      `${"x".repeat(512)}\n... (truncated at 512 chars; print specific fields instead)`,
    );
    expect(execution.prints).toEqual(["x".repeat(600)]);
    expect(execution).toMatchObject({ visibleTruncated: true, truncated: true });
    expect(
      buildExecutionFeedback({ value: null, prints: ["abcd"] }, { feedbackMaxChars: 2 }).feedback,
    ).toContain("ab\n... (truncated at 2 chars;");
  });

  it("caps a value preview at 250 characters and flags it", () => {
    const execution = buildExecutionFeedback({ value: "y".repeat(400) });
    expect(execution.result).toContain("(truncated at 250 chars; use println on specific fields)");
    expect(execution.result?.length).toBeLessThan(400);
    expect(execution).toMatchObject({ visibleTruncated: true, truncated: true });
  });

  it("previews new and changed memory bindings, sorted, and lists every stored key", () => {
    const execution = buildExecutionFeedback(
      { value: null, memory: { total: 3, rows: [1, 2, 3], kept: "same" } },
      { previousMemory: { kept: "same", total: 2 } },
    );
    expect(execution.memory).toEqual({
      changed: { rows: "[1 2 3]", total: "3" },
      storedKeys: ["kept", "rows", "total"],
      truncated: false,
    });
    expect(execution.feedback).toBe(framed([";; rows = [1 2 3]\n;; total = 3", "memory"]));
  });

  it("says what is stored when nothing changed", () => {
    const memory = { b: [1], a: { k: 1 } };
    const execution = buildExecutionFeedback(
      { value: null, memory },
      { previousMemory: { a: { k: 1 }, b: [1] } },
    );
    expect(execution.memory.changed).toEqual({});
    expect(execution.feedback).toBe(framed(["Stored: a, b", "memory"]));
  });

  it("does not report a new binding to nil as a change", () => {
    expect(buildExecutionFeedback({ value: null, memory: { x: null } }).memory.changed).toEqual({});
  });

  it("flags clipped memory previews apart from visible truncation", () => {
    const execution = buildExecutionFeedback({ value: null, memory: { big: "z".repeat(400) } });
    expect(execution.memory.truncated).toBe(true);
    expect(execution.feedback).toContain(";; (truncated at 250 chars; use println on specific fields)");
    expect(execution).toMatchObject({ visibleTruncated: false, truncated: true });
  });

  it("shows neither result nor memory blocks to a single-turn agent, but fills the fields", () => {
    const execution = buildExecutionFeedback({ value: 3, memory: { x: 1 } }, { maxTurns: 1 });
    expect(execution.feedback).toBe("");
    expect(execution.result).toBe("user=> 3");
    expect(execution.memory.changed).toEqual({ x: "1" });
  });

  it("has no result for nil or for a var reference", () => {
    class VarLike {
      get typeName() {
        return "var";
      }
    }
    expect(buildExecutionFeedback({ value: null }).result).toBeNull();
    expect(buildExecutionFeedback({ value: new VarLike() }).result).toBeNull();
    expect(buildExecutionFeedback({ value: { typeName: "var" } }).result).toBe('user=> {"typeName" "var"}');
    expect(buildExecutionFeedback({ value: null }).feedback).toBe("");
  });
});

describe("buildExecutionFeedback with shape-only bindings", () => {
  it("previews the named bindings by kind and size, never their values, and says why", () => {
    const rows = [
      { id: 1, name: "SECRET-alice" },
      { id: 2, name: "SECRET-bob" },
    ];
    const execution = buildExecutionFeedback(
      {
        value: null,
        memory: { rows, first: rows[0], names: ["SECRET-alice"], n: 2, label: "shown", by: { a: 1 } },
      },
      { shapeOnly: new Set(["rows", "first", "names", "n", "by"]) },
    );
    expect(execution.memory.changed).toEqual({
      by: "<map of 1 entry>",
      first: "<map of 2 entries>",
      label: '"shown"',
      n: "<integer>",
      names: "<vector of 1 string>",
      rows: "<vector of 2 maps>",
    });
    expect(execution.feedback).not.toContain("SECRET");
    expect(execution.feedback).toContain(
      ";; (<...> previews hold tool data shown by shape only; println or return the fields you need)",
    );
  });

  it("adds no note when every preview shows its value", () => {
    expect(buildExecutionFeedback({ value: null, memory: { n: 1 } }).feedback).not.toContain("shape only");
  });
});

describe("buildExecutionFeedback with @ptc/lisp runs", () => {
  it("shows a def's binding as memory, not its var as a result (no result key, as docs/protocol.md says)", async () => {
    const session = createSession();
    const before = session.bindings();
    const result = await run("(def rows [1 2 3])", { session });
    if (!result.ok) throw new Error(result.error.message);
    const execution = buildExecutionFeedback(
      { ...result, memory: session.bindings() },
      { previousMemory: before },
    );
    expect(execution.result).toBeNull();
    expect(execution.memory).toEqual({
      changed: { rows: "[1 2 3]" },
      storedKeys: ["rows"],
      truncated: false,
    });
    expect(renderSuccess(result, { execution })).toBe(
      JSON.stringify({
        status: "ok",
        prints: [],
        // The binding reaches the model once, in memory.changed; feedback keeps the preamble.
        feedback: UNTRUSTED_PREAMBLE,
        truncated: false,
        memory: {
          changed: { rows: wrapUntrusted("[1 2 3]", "memory") },
          stored_keys: ["rows"],
          truncated: false,
        },
      }),
    );

    const next = await run('(println "hi") (+ 1 2)', { session });
    if (!next.ok) throw new Error(next.error.message);
    const second = buildExecutionFeedback(
      { ...next, memory: session.bindings() },
      { previousMemory: session.bindings() },
    );
    expect(second.feedback).toBe(framed(["hi", "println"], ["Stored: rows", "memory"]));
    expect(second.result).toBe("user=> 3");
  });
});

describe("renderSuccessFromStep", () => {
  it("renders a one-shot success without memory", () => {
    expect(renderSuccessFromStep({ value: 3, prints: [] })).toBe(
      JSON.stringify({
        status: "ok",
        result: wrapUntrusted("user=> 3", "result"),
        prints: [],
        feedback: "",
        truncated: false,
      }),
    );
    expect(JSON.parse(renderSuccessFromStep({ value: 3, prints: ["hi"] }, { validated: 3 }))).toEqual({
      status: "ok",
      result: wrapUntrusted("user=> 3", "result"),
      prints: [wrapUntrusted("hi", "println")],
      feedback: UNTRUSTED_PREAMBLE,
      truncated: false,
      validated: 3,
    });
  });
});

describe("buildExecutionFeedback snapshots", () => {
  it("a full turn: prints, a long value and changed memory", async () => {
    const session = createSession();
    await run("(def seen 1)", { session });
    const previousMemory = session.bindings();
    const result = await run(
      '(def seen 2) (def rows (vec (range 80))) (println "rows:" (count rows)) {:first (first rows) :all rows :note "x"}',
      { session, limits: { maxIterations: 10_000 } },
    );
    if (!result.ok) throw new Error(result.error.message);
    const execution = buildExecutionFeedback(
      { value: result.value, prints: result.prints, memory: session.bindings() },
      { previousMemory, maxTurns: 5 },
    );
    expect(execution).toMatchSnapshot();
  });
});
