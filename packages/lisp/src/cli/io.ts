/** What the command shares between one-shot runs and the REPL: its I/O, settings and exit codes. */
import { format } from "../format/format.js";
import { toJson } from "../format/to-json.js";
import type { HostTool } from "../runtime/context.js";
import type { Limits } from "../runtime/limits.js";

export interface CliIo {
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
  readonly stdin: NodeJS.ReadableStream & { readonly isTTY?: boolean };
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Directory that relative paths are read from; the process's by default. */
  readonly cwd?: string;
}

export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

/** Settings shared by one-shot runs and the REPL. */
export interface Evaluation {
  readonly context: Record<string, unknown>;
  /** Mock tools from --tool and --tools. */
  readonly tools: Readonly<Record<string, HostTool>>;
  readonly limits: Partial<Limits>;
  readonly json: boolean;
}

/** The value as the user asked to see it: Clojure text, or JSON with --json. */
export function showValue(value: unknown, json: boolean): string {
  return json ? JSON.stringify(toJson(value), null, 2) : format(value);
}

/** What the run let pass (a data/ key the context lacks, an extra bracket), on stderr. */
export function showWarnings(warnings: readonly string[], io: CliIo): void {
  for (const warning of warnings) io.stderr.write(`warning: ${warning}\n`);
}

/**
 * A reader that stops reading (`ptc-lisp -e '(range 100000)' | head`) closes the pipe: the
 * command then stops quietly, as `cat` and `grep` do, instead of dying on the EPIPE error.
 */
export function exitQuietlyOnClosedPipe(stream: NodeJS.WritableStream, exit: () => void): void {
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") exit();
    else throw error;
  });
}
