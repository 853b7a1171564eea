import { defineConfig } from "tsup";
import { dropBuiltinExamples } from "../../scripts/drop-builtin-examples.mjs";
import { keepClassNames } from "../../scripts/keep-class-names.mjs";

export default defineConfig({
  entry: {
    index: "src/index.ts",
    "node/index": "src/node/index.ts",
    "node/worker": "src/node/worker.ts",
    cli: "src/cli/main.ts",
  },
  format: ["esm"],
  dts: { entry: { index: "src/index.ts", "node/index": "src/node/index.ts" } },
  sourcemap: true,
  clean: true,
  target: "es2022",
  platform: "neutral",
  // src/node/ takes the root entry's types from "@ptc/lisp" itself (type-only imports): its
  // declarations then name them from the root entry, instead of both entries sharing a
  // `run-XXXXXXXX.d.ts` chunk with aliases (scripts/check-declarations.mjs checks).
  external: ["@ptc/lisp"],
  splitting: true,
  treeshake: true,
  // Cold start (docs/benchmarks.md): V8 scans every byte of a module on import, so the dist drops
  // whitespace, rewrites syntax shorter and renames local identifiers (property names stay); class
  // names are kept (scripts/keep-class-names.mjs), and the source maps lead back.
  minify: true,
  // The builtins' examples are test data: the bundle leaves them out (scripts/drop-builtin-examples.mjs).
  esbuildPlugins: [dropBuiltinExamples, keepClassNames],
});
