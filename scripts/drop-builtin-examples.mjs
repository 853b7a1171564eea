// An esbuild plugin for @ptc/lisp's build (packages/lisp/tsup.config.ts): the published bundle
// leaves out the examples of the builtin definitions. Each `builtin(...)` record in
// src/builtins/ ends with its examples, programs and the values they print; only the test suite
// (reference.test.ts runs them, fuzz.test.ts seeds from them) and the generated reference
// (reference.ts, not part of the bundle) read them, always from the sources. In the bundle they
// were 13 KB of nested array literals in module top-level code, which V8 parses and compiles
// to bytecode on import and then runs, building arrays nothing reads: about 3.7 M of the
// ~110 M instructions a cold `import` and `(+ 1 2)` cost (docs/benchmarks.md, "Cold start").
//
// The examples argument is blanked, not cut: every character becomes a space (line breaks stay),
// so no position moves and the source maps stay exact (their copy of the sources shows the blanks).
// A trailing comma is left behind, which call syntax allows.
import { readFile } from "node:fs/promises";
import ts from "typescript";
import { withClassNames } from "./keep-class-names.mjs";

/** Index of the examples argument of `builtin(name, arity, signatures, doc, category, fn, examples)`. */
const EXAMPLES = 6;

/** The source with the examples argument of each `builtin(...)` call blanked. */
export function withoutBuiltinExamples(source, fileName = "source.ts") {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const blanks = [];
  const visit = (node) => {
    if (
      ts.isCallExpression(node) &&
      ts.isIdentifier(node.expression) &&
      node.expression.text === "builtin" &&
      node.arguments.length === EXAMPLES + 1
    ) {
      // From the end of `fn` to the end of the examples: the comma between them goes too.
      blanks.push([node.arguments[EXAMPLES - 1].end, node.arguments[EXAMPLES].end]);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  let text = source;
  for (const [start, end] of blanks.reverse())
    text = text.slice(0, start) + text.slice(start, end).replace(/[^\n]/g, " ") + text.slice(end);
  return text;
}

/** Blanks the examples in src/builtins/ (and keeps class names there, as keepClassNames does elsewhere). */
export const dropBuiltinExamples = {
  name: "drop-builtin-examples",
  setup(build) {
    // Registered before keepClassNames: esbuild takes the first onLoad that answers, so this one
    // applies both transforms to the files it claims.
    build.onLoad({ filter: /[\\/]src[\\/]builtins[\\/].*\.ts$/ }, async (args) => {
      if (args.path.includes("node_modules") || args.path.endsWith(".test.ts")) return undefined;
      const source = await readFile(args.path, "utf8");
      return { contents: withClassNames(withoutBuiltinExamples(source, args.path), args.path), loader: "ts" };
    });
  },
};
