/**
 * The REPL: one Session for the whole sitting (defs and *1 *2 *3 persist), input read until its
 * brackets balance, line editing and persistent history on a terminal. On piped input it reads
 * programs the same way, prints no prompts, and exits 1 if any program failed.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { preview } from "../format/format.js";
import { run } from "../run.js";
import { createSession, type Session } from "../session.js";
import { InputBalance, joinedLines } from "./balance.js";
import { type CliIo, type Evaluation, EXIT_FAILURE, EXIT_OK, showResult } from "./io.js";
import { packageVersion } from "./version.js";

const PROMPT = "ptc> ";
const CONTINUATION = "...> ";
const HISTORY_SIZE = 1000;

const HELP = `Enter PTC-Lisp forms; input continues over several lines until its brackets balance.
Definitions (def, defn) and *1 *2 *3 (the last three results) last for the whole session.
data/ names come from --data FILE.json; limits from --timeout, --memory, --iterations, --depth.

Commands:
  :help   this text
  :defs   list the session's definitions
  :reset  forget all definitions and *1 *2 *3
  :quit   leave (so do Ctrl-D and Ctrl-C twice; one Ctrl-C drops unfinished input)`;

/** History file: $PTC_LISP_HISTORY, else ~/.ptc_lisp_history; an empty PTC_LISP_HISTORY turns it off. */
function historyPath(env: CliIo["env"]): string | undefined {
  const configured = env.PTC_LISP_HISTORY;
  if (configured !== undefined) return configured === "" ? undefined : configured;
  return join(env.HOME ?? homedir(), ".ptc_lisp_history");
}

/**
 * The history file holds one entry per line, oldest first. A multi-line form that cannot be
 * joined into one line (it has a comment, or a line break inside a string) is kept whole, as
 * this prefix and the entry in JSON.
 */
const MULTILINE_PREFIX = ";;multiline ";

function decodeEntry(line: string): string {
  if (!line.startsWith(MULTILINE_PREFIX)) return line;
  try {
    const entry: unknown = JSON.parse(line.slice(MULTILINE_PREFIX.length));
    return typeof entry === "string" ? entry : line;
  } catch {
    return line;
  }
}

function encodeEntry(entry: string): string {
  return entry.includes("\n") || entry.includes("\r") ? `${MULTILINE_PREFIX}${JSON.stringify(entry)}` : entry;
}

function loadHistory(path: string | undefined): string[] {
  if (path === undefined) return [];
  try {
    const lines = readFileSync(path, "utf8")
      .split("\n")
      .filter((line) => line.trim() !== "")
      .map(decodeEntry);
    // The file is oldest first; readline wants newest first.
    return lines.slice(-HISTORY_SIZE).reverse();
  } catch {
    return [];
  }
}

function listDefinitions(session: Session): string {
  const names = session.names();
  if (names.length === 0) return "no definitions yet; (def name value) or (defn name [args] body) makes one";
  const width = Math.max(...names.map((name) => name.length));
  return names
    .map((name) => `${name.padEnd(width)}  ${preview(session.get(name), { maxChars: 60, maxItems: 8 }).text}`)
    .join("\n");
}

export async function startRepl(evaluation: Evaluation, io: CliIo): Promise<number> {
  const terminal = io.stdin.isTTY === true;
  const history = terminal ? historyPath(io.env) : undefined;
  // History is kept here, not by readline: readline would record each line of a form typed over
  // several lines, and one up-arrow should bring back the whole form. (historySize 0 turns
  // readline's own recording off; it still navigates the entries given to it.)
  const entries = loadHistory(history);
  const rl = createInterface({
    input: io.stdin,
    output: io.stdout,
    terminal,
    history: entries,
    historySize: 0,
  });
  let historyWarned = false;
  const remember = (input: string) => {
    if (!terminal) return;
    const entry = joinedLines(input) ?? input;
    const kept = entries.filter((line) => line !== entry).slice(0, HISTORY_SIZE - 1);
    entries.splice(0, entries.length, entry, ...kept);
    if (history === undefined) return;
    try {
      writeFileSync(history, `${[...entries].reverse().map(encodeEntry).join("\n")}\n`, { mode: 0o600 });
    } catch (error) {
      if (!historyWarned) {
        historyWarned = true;
        const reason = error instanceof Error ? error.message : String(error);
        io.stderr.write(
          `ptc-lisp: cannot save history to ${history} (${reason}); set PTC_LISP_HISTORY to another file\n`,
        );
      }
    }
  };

  let session = createSession();
  let buffer = "";
  let balance = new InputBalance();
  let failed = false;

  const prompt = () => {
    if (!terminal) return;
    rl.setPrompt(buffer === "" ? PROMPT : CONTINUATION);
    rl.prompt();
  };
  // Ctrl-C drops unfinished input; on an empty prompt, a second one in a row leaves.
  let interrupted = false;
  rl.on("SIGINT", () => {
    if (buffer === "" && interrupted) {
      rl.close();
      return;
    }
    io.stdout.write(buffer === "" ? "\n(press Ctrl-C again or type :quit to leave)\n" : "\n");
    interrupted = buffer === "";
    buffer = "";
    prompt();
  });

  const evaluate = async (source: string) => {
    const result = await run(source, {
      session,
      context: evaluation.context,
      tools: evaluation.tools,
      limits: evaluation.limits,
    });
    if (!showResult(result, source, "<repl>", evaluation.json, io)) failed = true;
  };

  /** Runs a REPL command; false means leave. */
  const command = (name: string): boolean => {
    switch (name) {
      case ":quit":
      case ":q":
      case ":exit":
        return false;
      case ":help":
        io.stdout.write(`${HELP}\n`);
        return true;
      case ":defs":
        io.stdout.write(`${listDefinitions(session)}\n`);
        return true;
      case ":reset":
        session = createSession();
        io.stdout.write("session reset: definitions and *1 *2 *3 are gone\n");
        return true;
      default:
        return true;
    }
  };
  const isCommand = (text: string) => [":quit", ":q", ":exit", ":help", ":defs", ":reset"].includes(text);

  if (terminal) {
    io.stdout.write(`PTC-Lisp ${packageVersion()}. :help for help, :quit or Ctrl-D to leave.\n`);
  }
  prompt();
  for await (const line of rl) {
    interrupted = false;
    const trimmed = line.trim();
    if (buffer === "") {
      if (trimmed === "") {
        prompt();
        continue;
      }
      if (isCommand(trimmed)) {
        remember(trimmed);
        if (!command(trimmed)) break;
        prompt();
        continue;
      }
    }
    // The balance scan goes on from the last line: only the new text is scanned.
    let complete: boolean;
    if (buffer === "") {
      balance = new InputBalance();
      buffer = line;
      complete = balance.feed(line);
    } else {
      buffer = `${buffer}\n${line}`;
      complete = balance.feed(`\n${line}`);
    }
    if (complete) {
      const source = buffer;
      buffer = "";
      remember(source);
      await evaluate(source);
    }
    prompt();
  }
  rl.close();
  // Unfinished input at the end of piped input is still a program: let the reader say what is missing.
  if (buffer.trim() !== "") await evaluate(buffer);
  if (terminal) io.stdout.write("\n");
  return terminal || !failed ? EXIT_OK : EXIT_FAILURE;
}
