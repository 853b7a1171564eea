#!/usr/bin/env node
// The `ptc-mcp` command. A checked-in file rather than dist/cli.js itself, so that installing the
// workspace can link the command before anything is built; it runs the built command.
import("../dist/cli.js").catch((error) => {
  if (error?.code === "ERR_MODULE_NOT_FOUND" && String(error.message).includes("cli.js")) {
    process.stderr.write(
      "ptc-mcp: @ptc/mcp is not built yet. Run `pnpm build` (or `pnpm --filter @ptc/mcp build`) in the repository first.\n",
    );
    process.exitCode = 2;
    return;
  }
  throw error;
});
