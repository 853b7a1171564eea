/** What the command shares between one-shot runs and the REPL: its I/O, settings and exit codes. */
import { LispError } from "../errors.js";
import { format } from "../format/format.js";
import { toJson } from "../format/to-json.js";
import type { RunError, RunResult } from "../run.js";
import type { HostTool } from "../runtime/context.js";
import type { Limits } from "../runtime/limits.js";
import { renderError } from "./diagnostic.js";

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

/** The value as the user asked to see it: Clojure text, or JSON with --json. Throws when it cannot be shown. */
function showValue(value: unknown, json: boolean): string {
  return json ? JSON.stringify(toJson(value), null, 2) : format(value);
}

/**
 * Why a value that `run` returned cannot be printed, as a program error: host data a tool
 * returned may throw when read (format and toJson say so with a LispError), toJson refuses shared
 * structure that expands past its bound, and JSON.stringify, which recurses, runs out of stack on
 * a value nested some thousands deep (toJson and format walk iteratively and manage) or out of
 * string length on a huge one. Anything else is a bug of ours and goes on up.
 */
function unprintable(error: unknown, json: boolean): RunError {
  if (error instanceof LispError) return { reason: error.reason, message: error.message };
  if (json && error instanceof RangeError) {
    return /call stack/i.test(error.message)
      ? {
          reason: "recursion_limit_exceeded",
          message:
            "the value is nested too deep to print as JSON (--json); return a flatter value, or print it without --json",
        }
      : {
          reason: "memory_exceeded",
          message: "the value is too large to print as JSON (--json); return a smaller value",
        };
  }
  throw error;
}

/**
 * Writes what a run produced: its println lines and warnings, then its value on stdout or its
 * error on stderr. A value that cannot be printed counts as a failure, so the status says so
 * rather than the command ending as an internal error. Returns whether the run succeeded.
 */
export function showResult(
  result: RunResult,
  source: string,
  name: string,
  json: boolean,
  io: CliIo,
): boolean {
  for (const line of result.prints) io.stdout.write(`${line}\n`);
  showWarnings(result.warnings, io);
  let error: RunError;
  if (result.ok) {
    try {
      io.stdout.write(`${showValue(result.value, json)}\n`);
      return true;
    } catch (thrown) {
      error = unprintable(thrown, json);
    }
  } else error = result.error;
  io.stderr.write(renderError(error, source, name));
  return false;
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
