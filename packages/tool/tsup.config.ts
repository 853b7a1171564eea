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
  // fast-json-stable-stringify is CommonJS. Imported from node_modules, the first CommonJS module an
  // ES module process meets makes Node load its CommonJS interop (4-5 ms of every cold start of
  // @ptc/agent); bundled, esbuild wraps its few lines as ES module code and nothing extra loads.
  noExternal: ["fast-json-stable-stringify"],
});
