import { defineConfig } from "vitest/config";

// Tests run against package sources: the "@ptc/source" export condition points every
// @ptc/* import at src/ so no build is needed before `pnpm test`.
const conditions = ["@ptc/source", "module", "node", "development|production"];

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: {
    include: ["packages/*/src/**/*.test.ts", "apps/*/src/**/*.test.ts", "scripts/*.test.mjs"],
    setupFiles: ["./vitest.setup.ts"],
    globalSetup: ["./vitest.global-setup.ts"],
    testTimeout: 20_000,
  },
});
