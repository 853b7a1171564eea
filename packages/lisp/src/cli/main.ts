#!/usr/bin/env node
/** Entry point of the `ptc-lisp` command (built to dist/cli.js). The logic lives in cli.ts. */
import { main } from "./cli.js";
import { exitQuietlyOnClosedPipe } from "./io.js";

exitQuietlyOnClosedPipe(process.stdout, () => process.exit(process.exitCode ?? 0));
main(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  env: process.env,
}).then(
  (status) => {
    process.exitCode = status;
  },
  (error: unknown) => {
    process.stderr.write(
      `ptc-lisp: internal error (please report it): ${error instanceof Error ? error.stack : String(error)}\n`,
    );
    process.exitCode = 70;
  },
);
