#!/usr/bin/env node
/** `pnpm start`: runs the demo on this process's arguments and streams, then exits with its code. */
import { main } from "./main.js";

// `pnpm start -- --flag` may pass the separator through; the demo has no positionals.
const argv = process.argv.slice(2);
const result = await main(argv[0] === "--" ? argv.slice(1) : argv, {
  stdout: process.stdout,
  stderr: process.stderr,
});
process.exitCode = result.exitCode;
