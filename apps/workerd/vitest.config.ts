import { defineConfig } from "vitest/config";

// Not part of `pnpm test`: this suite packs the built packages (run `pnpm build` first), installs
// them from their tarballs and bundles the worker from them, as a user deploying to Workers would.
export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 240_000,
  },
});
