// The bundle of @ptc/lisp leaves out the builtins' examples; drop-builtin-examples.mjs must blank
// exactly the examples argument, keep every position, and leave the rest of the record working.
import { transform } from "esbuild";
import { describe, expect, test } from "vitest";
import { withoutBuiltinExamples } from "./drop-builtin-examples.mjs";

describe("withoutBuiltinExamples", () => {
  const source = [
    "export const defs = [",
    '  builtin("nil?", [1, 1], ["[x]"], "True when x is nil.", CATEGORY, isNil, [',
    '    ["(nil? nil)", "true"],',
    "  ]),",
    "  builtin(",
    '    "some?",',
    "    [1, 1],",
    '    ["[x]"],',
    '    "True when x is not nil.",',
    "    CATEGORY,",
    "    (x: unknown) => !isNil(x),",
    '    [["(some? false)", "true"]],',
    "  ),",
    '  builtin("rand", [0, 0], ["[]"], "A random float.", CATEGORY, () => random()),',
    "];",
  ].join("\n");
  const out = withoutBuiltinExamples(source);

  test("the examples are gone, every line keeps its length", () => {
    expect(out).not.toContain("(nil? nil)");
    expect(out).not.toContain("(some? false)");
    expect(out.split("\n").map((line) => line.length)).toEqual(source.split("\n").map((line) => line.length));
  });

  test("everything before the examples is untouched", () => {
    expect(out).toContain('builtin("nil?", [1, 1], ["[x]"], "True when x is nil.", CATEGORY, isNil');
    expect(out).toContain("    (x: unknown) => !isNil(x)");
    expect(out).toContain('builtin("rand", [0, 0], ["[]"], "A random float.", CATEGORY, () => random()),');
  });

  test("the records still evaluate, without examples", async () => {
    // Compiled and imported as a module, as the build does (no eval: the suite also runs with
    // code generation from strings disallowed).
    const prelude = [
      "const builtin = (...args) => ({ name: args[0], fn: args[5], examples: args[6] });",
      'const CATEGORY = "Predicates";',
      "const isNil = (x) => x == null;",
      "const random = Math.random;",
    ].join("\n");
    const { code } = await transform(`${prelude}\n${out}`, { loader: "ts", format: "esm" });
    const { defs } = await import(`data:text/javascript,${encodeURIComponent(code)}`);
    expect(defs.map((d) => d.name)).toEqual(["nil?", "some?", "rand"]);
    expect(defs.every((d) => d.examples === undefined)).toBe(true);
    expect(defs[1].fn(false)).toBe(true);
  });

  test("leaves alone calls of other functions and definitions without examples", () => {
    const text =
      'const x = other("a", [1, 1], ["[x]"], "d", C, f, [["(a)", "1"]]);\nbuiltin("b", [0, 0], ["[]"], "d", C, f);';
    expect(withoutBuiltinExamples(text)).toBe(text);
  });
});
