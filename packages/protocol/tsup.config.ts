import { defineConfig } from "tsup";
import { keepClassNames } from "../../scripts/keep-class-names.mjs";

export default defineConfig({
  entry: { index: "src/index.ts" },
  format: ["esm"],
  dts: true,
  sourcemap: true,
  clean: true,
  target: "es2022",
  platform: "neutral",
  treeshake: true,
  // Cold start (docs/benchmarks.md): V8 scans every byte of a module on import, so the dist drops
  // whitespace, rewrites syntax shorter and renames local identifiers (property names stay); class
  // names are kept (scripts/keep-class-names.mjs), and the source maps lead back.
  minify: true,
  esbuildPlugins: [keepClassNames],
});
