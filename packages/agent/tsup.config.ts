import { defineConfig } from "tsup";
import { keepClassNames } from "../../scripts/keep-class-names.mjs";

export default defineConfig({
  entry: {
    index: "src/index.ts",
    "testing/index": "src/testing/index.ts",
    "openai/index": "src/openai/index.ts",
    "ai-sdk/index": "src/ai-sdk/index.ts",
    "otel/index": "src/otel/index.ts",
    "node/index": "src/node/index.ts",
  },
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
  // Optional peers stay imports of the subpaths that need them; the root entry never loads them.
  external: ["@ai-sdk/provider", "@opentelemetry/api", "@ptc/agent"],
});
