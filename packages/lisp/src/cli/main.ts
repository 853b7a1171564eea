#!/usr/bin/env node
/** Entry point of the `ptc-lisp` command (built to dist/cli.js). The logic lives in cli.ts. */
import { main } from "./cli.js";
import { exitQuietlyOnClosedPipe } from "./io.js";

exitQuietlyOnClosedPipe(process.stdout, () => process.exit(process.exitCode ?? 0));
// Node exits once nothing holds its event loop open, whatever promises are still pending. A run's
// deadline timer is unref'd (a library must not keep its host alive), so a tool that returns a
// promise nothing will ever settle would end the process at once: no output, status 0. This
// timer holds the loop open until the command is done, so the deadline fires and says so.
const keepAlive = setInterval(() => undefined, 1 << 30);
main(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  env: process.env,
})
  .then(
    (status) => {
      process.exitCode = status;
    },
    (error: unknown) => {
      process.stderr.write(
        `ptc-lisp: internal error (please report it): ${error instanceof Error ? error.stack : String(error)}\n`,
      );
      process.exitCode = 70;
    },
  )
  .finally(() => clearInterval(keepAlive));
