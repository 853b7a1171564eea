/**
 * The `ptc-lisp` command, as a function: `main(argv, io)` returns the exit status (0 success,
 * 1 the program failed, 2 usage error) and touches the outside world only through `io` and the
 * files named on the command line, so tests run it in-process.
 */
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { run } from "../run.js";
import { isPlainObject } from "../values/plain-object.js";
import { type CliOptions, parseArguments, USAGE, UsageError } from "./arguments.js";
import { type CliIo, type Evaluation, EXIT_FAILURE, EXIT_OK, EXIT_USAGE, showResult } from "./io.js";
import { locateJsonError } from "./json-error.js";
import { loadMockTools } from "./mock-tools.js";
import { startRepl } from "./repl.js";
import { packageVersion } from "./version.js";

export type { CliIo } from "./io.js";

function describeReadError(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  if (code === "ENOENT") return "no such file";
  if (code === "EISDIR") return "it is a directory";
  if (code === "EACCES" || code === "EPERM") return "permission denied";
  return error instanceof Error ? error.message : String(error);
}

async function readText(path: string, io: CliIo, what: string, advice: string): Promise<string> {
  try {
    const text = await readFile(resolve(io.cwd ?? process.cwd(), path), "utf8");
    // Editors on Windows may start a UTF-8 file with a byte-order mark; neither JSON nor the reader wants it.
    return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  } catch (error) {
    throw new UsageError(`cannot read ${what} "${path}": ${describeReadError(error)}. ${advice}`);
  }
}

async function readStdin(stdin: NodeJS.ReadableStream): Promise<string> {
  const chunks: string[] = [];
  stdin.setEncoding("utf8");
  for await (const chunk of stdin) chunks.push(chunk as string);
  return chunks.join("");
}

async function readJson(path: string, io: CliIo, what: string): Promise<unknown> {
  const text = await readText(path, io, `${what} file`, "Check the path; it should name a JSON file");
  try {
    return JSON.parse(text);
  } catch (error) {
    const located = locateJsonError(text);
    const problem =
      located === undefined
        ? error instanceof Error
          ? error.message
          : String(error)
        : `${located.problem} at line ${located.line}, column ${located.column}`;
    throw new UsageError(`${what} file "${path}" is not valid JSON: ${problem}. Fix the file`);
  }
}

async function readData(path: string, io: CliIo): Promise<Record<string, unknown>> {
  const data = await readJson(path, io, "--data");
  if (!isPlainObject(data)) {
    const kind = Array.isArray(data) ? "an array" : data === null ? "null" : `a ${typeof data}`;
    throw new UsageError(
      `--data file "${path}" must hold a JSON object whose keys become data/ names (e.g. {"orders": [...]} for data/orders); it holds ${kind}`,
    );
  }
  return data;
}

async function programText(options: CliOptions, io: CliIo): Promise<{ source: string; name: string }> {
  const program = options.program;
  if (program === undefined) throw new Error("internal: no program");
  switch (program.kind) {
    case "eval":
      return { source: program.source, name: "<expr>" };
    case "stdin":
      return { source: await readStdin(io.stdin), name: "<stdin>" };
    case "file":
      return {
        source: await readText(
          program.path,
          io,
          "program file",
          "Check the path, or run an expression with -e '(expr)'",
        ),
        name: program.path,
      };
  }
}

async function runOnce(options: CliOptions, evaluation: Evaluation, io: CliIo): Promise<number> {
  const { source, name } = await programText(options, io);
  const result = await run(source, {
    context: evaluation.context,
    tools: evaluation.tools,
    limits: evaluation.limits,
  });
  return showResult(result, source, name, evaluation.json, io) ? EXIT_OK : EXIT_FAILURE;
}

/** Runs the command with `argv` (the arguments after `ptc-lisp`) and returns its exit status. */
export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  try {
    const options = parseArguments(argv);
    if (options.action === "help") {
      io.stdout.write(`${USAGE}\n`);
      return EXIT_OK;
    }
    if (options.action === "version") {
      io.stdout.write(`ptc-lisp ${packageVersion()}\n`);
      return EXIT_OK;
    }
    const context = options.dataPath === undefined ? {} : await readData(options.dataPath, io);
    const tools = await loadMockTools({
      toolFiles: options.toolFiles,
      toolModules: options.toolModules,
      cwd: io.cwd ?? process.cwd(),
      readJson: (path, what) => readJson(path, io, what),
    });
    const evaluation: Evaluation = { context, tools, limits: options.limits, json: options.json };
    if (options.action === "repl") return await startRepl(evaluation, io);
    return await runOnce(options, evaluation, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr.write(`ptc-lisp: ${error.message}\n`);
      return EXIT_USAGE;
    }
    throw error;
  }
}
