import { defineConfig } from "tsup";

// The demo is an app, not a library: one bundle per command, with the @ptc packages compiled in
// from their sources (the "@ptc/source" condition), so `pnpm start` needs no prior build of them
// and starts in a second or two on a fresh clone. Its own npm dependencies stay external.
// apps/demo/turbo.json says the same to turbo: the build needs no package built, and the packages'
// sources are among its inputs, so `pnpm start` (a turbo build of the demo alone) is cached, and
// `pnpm build` finds the demo built.
export default defineConfig({
  entry: {
    demo: "src/cli.ts",
    "bench-tokens": "bench/tokens.ts",
  },
  format: ["esm"],
  platform: "node",
  target: "node20",
  sourcemap: true,
  clean: true,
  dts: false,
  silent: true,
  noExternal: [/^@ptc\//],
  esbuildOptions(options) {
    options.conditions = ["@ptc/source", "module", "import"];
  },
});
