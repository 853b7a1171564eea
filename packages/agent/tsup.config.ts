import { defineConfig } from "tsup";

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
  // Optional peers stay imports of the subpaths that need them; the root entry never loads them.
  external: ["@ai-sdk/provider", "@opentelemetry/api", "@ptc/agent"],
});
