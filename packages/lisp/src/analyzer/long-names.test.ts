/**
 * Error messages quote what the program wrote (a symbol, a keyword, a tool's name, a regex, a
 * form), and go back to the model that wrote it. A program may be a megabyte, so a name may be
 * too: a message quotes the start of such a name and its length, never the whole of it, and still
 * says what went wrong and what to write instead. Names of ordinary length are quoted as written.
 */
import { describe, expect, test } from "vitest";
import { run } from "../index.js";
import { MAX_MESSAGE_CHARS } from "../quoted-text.js";

const LONG = "a".repeat(500_000);
/** The start of LONG as quoted, and the length it reports. */
const QUOTED = `${"a".repeat(200)}... (500000 characters)`;
/** The same, where the quoted text holds a character or two around the name (`"`, `.`, `(`). */
const QUOTED_AROUND = /a{190}\.\.\. \(50000[0-2] characters\)/;

/** Each program fails with a message that would quote LONG: reason, and advice the message keeps. */
const CASES: Record<string, { program: string; reason: string; keeps: string }> = {
  "an unbound symbol": {
    program: `(+ 1 ${LONG})`,
    reason: "unbound_var",
    keeps: "Define it with (def name value)",
  },
  "a keyword called with no map": {
    program: `(:${LONG})`,
    reason: "invalid_keyword_call",
    keeps: "called with 0 arguments; write (:",
  },
  "an unknown tool": {
    program: `(tool/${LONG} {})`,
    reason: "unknown_tool",
    keeps: "Available tools: (none)",
  },
  "an unknown namespace": {
    program: `(${LONG}/f 1)`,
    reason: "invalid_form",
    keeps: "Available namespaces: data/",
  },
  "an unknown member of str/": {
    program: `(str/${LONG} 1)`,
    reason: "invalid_form",
    keeps: "String functions:",
  },
  "a named fn called with the wrong arity": {
    program: `(let [f (fn ${LONG} [x] x)] (f 1 2))`,
    reason: "arity_error",
    keeps: "expects 1 argument(s), got 2",
  },
  "an invalid regex literal": {
    program: `(re-find #"${LONG}(" "a")`,
    reason: "invalid_form",
    keeps: "invalid regex",
  },
  "a cond whose last test has no result": {
    program: `(cond ${LONG})`,
    reason: "invalid_cond_form",
    keeps: "(write :else value for a default)",
  },
  "a string literal called as a function": {
    program: `("${LONG}" 1)`,
    reason: "not_callable",
    keeps: "is not a function; to build a list write [",
  },
  "a keyword in a for binding's place": {
    program: `(for [:${LONG} [1]] 1)`,
    reason: "invalid_form",
    keeps: "Keywords like :when/:let/:while must follow a binding pair",
  },
  "an unsupported interop method": {
    program: `(.${LONG} "s")`,
    reason: "unsupported_method",
    keeps: "Supported interop methods:",
  },
};

describe("a message quoting a 500,000-character name", () => {
  for (const [label, { program, reason, keeps }] of Object.entries(CASES)) {
    test(`${label} quotes its start and length`, async () => {
      const result = await run(program);
      expect(result.ok).toBe(false);
      if (result.ok) return;
      expect(result.error.reason).toBe(reason);
      expect(result.error.message.length).toBeLessThan(2000);
      expect(result.error.message).toMatch(QUOTED_AROUND);
      expect(result.error.message).not.toContain("a".repeat(300));
      expect(result.error.message).toContain(keeps);
    });
  }

  test("a data key read from an empty context is warned about with its start and length", async () => {
    const result = await run(`(count data/${LONG})`, { context: {} });
    expect(result.ok).toBe(true);
    const warnings = result.ok ? result.warnings : [];
    expect(warnings.join("\n").length).toBeLessThan(1000);
    expect(warnings.join("\n")).toContain(`data/${QUOTED} is not in the context`);
  });

  test("names of ordinary length are quoted as written", async () => {
    const name = "b".repeat(200);
    const result = await run(`(+ 1 ${name})`);
    expect(result.ok ? "" : result.error.message).toMatch(
      new RegExp(`^Undefined variable: ${name}\\. Define`),
    );
  });
});

describe("the bound on every message", () => {
  test("a message quoting many long names keeps its start and its advice", async () => {
    const names = Array.from({ length: 100 }, (_, index) => `${"n".repeat(1000)}${index}`);
    const result = await run(`[${names.join(" ")}]`);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.reason).toBe("unbound_var");
    expect(result.error.message.length).toBeLessThanOrEqual(MAX_MESSAGE_CHARS + 100);
    expect(result.error.message).toMatch(/^Undefined variables: n/);
    expect(result.error.message).toMatch(
      /characters cut\) \.\.\. .*tools are called as \(tool\/name \{\.\.\.\}\)$/s,
    );
  });

  test("a (fail v) message is the program's own string, as before", async () => {
    const result = await run(`(fail "${"f".repeat(20_000)}")`);
    expect(result.ok ? "" : result.error.message).toBe("f".repeat(20_000));
  });
});
