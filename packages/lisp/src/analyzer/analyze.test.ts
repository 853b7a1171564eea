/**
 * The analyzer on its own: forms in, core nodes or a static error out, before anything runs.
 * (run.test.ts covers the same checks through `run`; these pin the analyzer's own contract: what
 * it resolves each name to, what it records, and the errors a model reads.)
 */
import { beforeAll, describe, expect, test } from "vitest";
import { registry } from "../builtins/index.js";
import { SPECIAL_FORMS } from "../builtins/reference.js";
import { LispError } from "../errors.js";
import { read } from "../reader/reader.js";
import { Regex } from "../values/regex.js";
import { loadRegexEngine } from "../values/regex-engine.js";

// `run` loads RE2 before it analyzes a program that may use a regex; these tests go around run.
beforeAll(() => loadRegexEngine());

import { type AnalyzedProgram, type AnalyzerEnvironment, analyzeProgram } from "./analyze.js";
import type { Node } from "./ast.js";
import { MACROS } from "./macros.js";
import { SPECIAL_FORM_NAMES } from "./special-forms.js";

function environment(overrides: Partial<AnalyzerEnvironment> = {}): AnalyzerEnvironment {
  return {
    isBuiltin: (name) => registry.has(name),
    builtinNames: () => registry.names().filter((name) => registry.definition(name)?.category !== "Internal"),
    userNames: new Set(),
    toolNames: new Set(),
    checkRegex: (pattern) => Regex.problem(pattern),
    ...overrides,
  };
}

function analyze(source: string, overrides: Partial<AnalyzerEnvironment> = {}): AnalyzedProgram {
  return analyzeProgram(read(source), environment(overrides));
}

function rejection(source: string, overrides: Partial<AnalyzerEnvironment> = {}): LispError {
  try {
    analyze(source, overrides);
  } catch (error) {
    if (error instanceof LispError) return error;
    throw error;
  }
  throw new Error(`expected ${source} to be rejected`);
}

/** Every node of a tree, depth first (enough of the shapes for these tests). */
function nodes(node: Node): Node[] {
  const children: Node[] = [];
  for (const value of Object.values(node)) {
    if (Array.isArray(value)) {
      for (const item of value) {
        if (item !== null && typeof item === "object" && "kind" in item) children.push(item as Node);
        if (Array.isArray(item))
          for (const inner of item) if (inner?.kind !== undefined) children.push(inner);
      }
    } else if (value !== null && typeof value === "object" && "kind" in value && "position" in value) {
      children.push(value as Node);
    }
  }
  return [node, ...children.flatMap(nodes)];
}

describe("resolving names", () => {
  test("a local becomes a frame slot, a builtin stays a builtin, a session name a var", () => {
    const { body, frameSize } = analyze("(let [x 1] (inc (+ x prior)))", { userNames: new Set(["prior"]) });
    const kinds = nodes(body).map((node) =>
      node.kind === "local" || node.kind === "var" ? `${node.kind}:${node.name}` : node.kind,
    );
    expect(kinds).toContain("local:x");
    expect(kinds).toContain("var:prior");
    expect(nodes(body).some((node) => node.kind === "builtin" && node.name === "inc")).toBe(true);
    expect(frameSize).toBe(1);
  });

  test("names defined later in the same program are vars already", () => {
    const { body } = analyze("(defn twice [x] (* 2 x)) (twice 2)");
    expect(nodes(body).some((node) => node.kind === "var" && node.name === "twice")).toBe(true);
  });

  test("records the data keys and tools a program uses", () => {
    const program = analyze("(tool/search {:q (first data/queries)}) data/limit", {
      toolNames: new Set(["search", "unused"]),
    });
    expect([...program.dataKeys].sort()).toEqual(["limit", "queries"]);
    expect([...program.toolsUsed]).toEqual(["search"]);
  });

  test("macros are gone after analysis", () => {
    const { body } = analyze("(when (pos? 1) (->> [1 2] (map inc)))");
    expect(body.kind).toBe("if");
    // (->> [1 2] (map inc)) became (map inc [1 2]).
    const calls = nodes(body).filter((node) => node.kind === "call");
    expect(
      calls.map((node) => node.kind === "call" && node.callee.kind === "builtin" && node.callee.name),
    ).toEqual(["pos?", "map"]);
  });

  test("a local of the same name shadows a macro-like form but not a true special form", () => {
    expect(() => analyze("(let [when inc] (when 1))")).not.toThrow();
    const { body } = analyze("(let [if inc] (if true 1 2))");
    expect(nodes(body).some((node) => node.kind === "if")).toBe(true);
  });
});

describe("unknown names", () => {
  test("are all reported at once, at the first one's position", () => {
    const error = rejection("(let [x 1]\n  (+ x y (zz)))");
    expect(error.reason).toBe("unbound_var");
    expect(error.message).toMatch(/^Undefined variables: y, zz\. /);
    expect({ line: error.line, column: error.column }).toEqual({ line: 2, column: 8 });
  });

  test("suggest the nearest builtin", () => {
    expect(rejection("(fitler odd? [1 2])").message).toMatch(
      /^Undefined variable: fitler \(did you mean filter\?\)\. /,
    );
  });

  test("suggest a local in scope, or a definition of the session", () => {
    expect(rejection("(let [total 3] (inc totl))").message).toContain("totl (did you mean total?)");
    expect(rejection("(inc ordrs)", { userNames: new Set(["orders"]) }).message).toContain(
      "ordrs (did you mean orders?)",
    );
  });

  test("suggest nothing when nothing is near, or for names too short to guess from", () => {
    expect(rejection("(frobnicate 1)").message).not.toContain("did you mean");
    expect(rejection("(let [x 1] y)").message).not.toContain("did you mean");
  });

  test("never suggest the internal builtins the analyzer itself inserts", () => {
    expect(rejection("(tool-callabel 1)").message).not.toContain("tool-callable");
  });

  test("read as nil as a direct operand of or, as in the reference", () => {
    expect(() => analyze("(or saved-state {})")).not.toThrow();
  });
});

describe("tool names", () => {
  const tools = { toolNames: new Set(["list_orders", "get-customer"]) };

  test("resolve across - and _ when only one tool matches", () => {
    const program = analyze("(tool/list-orders {}) (tool/get_customer {:id 1})", tools);
    expect([...program.toolsUsed].sort()).toEqual(["get-customer", "list_orders"]);
    const calls = nodes(program.body).filter((node) => node.kind === "tool");
    expect(calls.map((node) => node.kind === "tool" && node.name)).toEqual(["list_orders", "get-customer"]);
  });

  test("resolve as values too (tool/name passed to map)", () => {
    const program = analyze("(map tool/list-orders [{}])", tools);
    expect([...program.toolsUsed]).toEqual(["list_orders"]);
  });

  test("an exact name wins over a - / _ variant", () => {
    const program = analyze("(tool/a-b {})", { toolNames: new Set(["a-b", "a_b"]) });
    expect([...program.toolsUsed]).toEqual(["a-b"]);
  });

  test("two tools that differ only in - and _ make a third spelling ambiguous", () => {
    const error = rejection("(tool/a-b-c {})", { toolNames: new Set(["a_b-c", "a-b_c"]) });
    expect(error.reason).toBe("unknown_tool");
    expect(error.message).toContain("tool/a-b_c, tool/a_b-c");
  });

  test("an unknown tool gets the nearest name and the list of tools", () => {
    const error = rejection("(tool/list-order {})", tools);
    expect(error.reason).toBe("unknown_tool");
    expect(error.message).toBe(
      "Unknown tool: list-order. Did you mean tool/list_orders? Available tools: get-customer, list_orders",
    );
  });

  test("without tools, says there are none", () => {
    expect(rejection("(tool/anything {})").message).toBe("Unknown tool: anything. Available tools: (none)");
  });
});

describe("static errors a model reads", () => {
  test.each([
    ["(recur 1)", "invalid_form"],
    ["(loop [i 0] (inc (recur i)))", "invalid_form"],
    ["(map if [1])", "invalid_form"],
    ["(inc %)", "invalid_placeholder"],
    ["#(map #(inc %) %)", "invalid_form"],
    ["()", "invalid_form"],
    ['(re-find #"(" "x")', "invalid_form"],
    ["(1 2)", "not_callable"],
    ["(data/orders)", "invalid_form"],
    ["(budget/spent)", "invalid_form"],
  ])("%s is rejected with %s", (source, reason) => {
    expect(rejection(source).reason).toBe(reason);
  });
});

describe("the special forms", () => {
  // The reference documents `a / b` and `a, b` groups; these are not documented on purpose:
  // rejected Clojure forms and discovery forms listed elsewhere.
  const UNDOCUMENTED = new Set([".", "fn*", "letfn", "ns-publics", "if-not"]);
  const documented = new Set(SPECIAL_FORMS.flatMap((form) => form.name.split(/\s*[/,]\s+|\s+\/\s*/)));

  test("every special form and macro the analyzer knows is in the language reference", () => {
    const missing = [...SPECIAL_FORM_NAMES, ...MACROS.keys()].filter(
      (name) => !documented.has(name) && !UNDOCUMENTED.has(name),
    );
    expect(missing, "add a SpecialFormDoc in builtins/reference.ts").toEqual([]);
  });
});
