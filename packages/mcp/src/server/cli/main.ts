#!/usr/bin/env node
/** Entry point of the `ptc-mcp` command (built to dist/cli.js). The logic lives in cli.ts. */
import { runCli } from "./cli.js";

// Stdout belongs to the protocol in stdio mode: whatever a tool module logs goes to stderr.
for (const method of ["log", "info", "debug"] as const) console[method] = console.error;

const stopSignal = new Promise<string>((resolve) => {
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => resolve(signal));
});

runCli(process.argv.slice(2), {
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  cwd: process.cwd(),
  stopSignal,
}).then(
  (status) => {
    // Upstream servers are closed by now; nothing else should hold the process open.
    process.exit(status);
  },
  (error: unknown) => {
    process.stderr.write(
      `ptc-mcp: internal error (please report it): ${error instanceof Error ? error.stack : String(error)}\n`,
    );
    process.exit(70);
  },
);
