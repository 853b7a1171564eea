import { defineConfig } from "vitest/config";

// The browser tests (e2e/): the built playground in Debian's Chromium. Not part of `pnpm test`:
// they need `pnpm --filter @ptc/playground build` and /usr/bin/chromium.
export default defineConfig({
  test: {
    include: ["e2e/**/*.e2e.test.ts"],
    testTimeout: 180_000,
    hookTimeout: 60_000,
    fileParallelism: false,
  },
});
