/**
 * The `ptc-lisp` command line: flags in, a plan out (run a file, an expression, stdin, or start a
 * REPL). Every mistake becomes a UsageError whose message says what to write instead.
 */
import { nearestName } from "../analyzer/nearest-name.js";
import type { Limits } from "../runtime/limits.js";

export type ProgramSource =
  | { readonly kind: "file"; readonly path: string }
  | { readonly kind: "eval"; readonly source: string }
  | { readonly kind: "stdin" };

/** A mock tool: calling `tool/name` returns the JSON in `path`. */
export interface ToolFile {
  readonly name: string;
  readonly path: string;
}

export interface CliOptions {
  readonly action: "run" | "repl" | "help" | "version";
  readonly program: ProgramSource | undefined;
  readonly dataPath: string | undefined;
  /** `--tool name=FILE.json`, in order. */
  readonly toolFiles: readonly ToolFile[];
  /** `--tools MODULE`: modules whose exports are tools, in order. */
  readonly toolModules: readonly string[];
  readonly json: boolean;
  readonly limits: Partial<Limits>;
}

export class UsageError extends Error {
  override readonly name = "UsageError";
}

export const USAGE = `Usage:
  ptc-lisp FILE [options]          run a PTC-Lisp program file ("-" reads it from stdin)
  ptc-lisp -e '(expr)' [options]   run a program given on the command line
  ptc-lisp [options]               start a REPL (reads programs from stdin when it is not a terminal)

Options:
  -e, --eval CODE       the program to run
  -d, --data FILE.json  a JSON object whose keys become the data/ namespace (data/orders ...)
      --tool NAME=FILE.json
                        a mock tool: (tool/NAME {...}) returns the file's JSON (repeatable)
      --tools MODULE.mjs  tools from a JavaScript module: its exports that are functions or
                        have an execute function (repeatable)
      --json            print the value as JSON instead of Clojure text
      --timeout MS      wall-clock limit per program, in milliseconds (default 1000)
      --memory BYTES    memory budget per program (default 64000000; 50MB, 1GB also work)
      --iterations N    recur jumps allowed per program (default 1000000)
      --depth N         deepest chain of nested function calls (default 1000)
  -h, --help            show this help
  -v, --version         show the version

Limits also accept "unlimited". Exit status: 0 success, 1 the program failed, 2 usage error.

Examples:
  ptc-lisp examples/top-customers.clj --data examples/orders.json
  ptc-lisp -e '(->> data/orders (filter #(> (:total %) 100)) count)' --data examples/orders.json
  ptc-lisp -e '(count (:orders (tool/shop {})))' --tool shop=examples/orders.json
  ptc-lisp -e '(count (tool/list-orders {:status "refunded"}))' --tools examples/tools.mjs
  echo '(+ 1 2)' | ptc-lisp -`;

const HELP_HINT = "Run ptc-lisp --help to see the usage.";

interface LimitFlag {
  readonly limit: keyof Limits;
  readonly what: string;
  readonly example: string;
  readonly bytes?: boolean;
}

const LIMIT_FLAGS: Readonly<Record<string, LimitFlag>> = {
  "--timeout": { limit: "timeoutMs", what: "a positive number of milliseconds", example: "--timeout 5000" },
  "--memory": {
    limit: "maxMemoryBytes",
    what: "a positive number of bytes",
    example: "--memory 50MB",
    bytes: true,
  },
  "--iterations": { limit: "maxIterations", what: "a positive whole number", example: "--iterations 100000" },
  "--depth": { limit: "maxDepth", what: "a positive whole number", example: "--depth 5000" },
};

const BYTE_UNITS: Readonly<Record<string, number>> = {
  "": 1,
  b: 1,
  kb: 1e3,
  mb: 1e6,
  gb: 1e9,
  k: 1e3,
  m: 1e6,
  g: 1e9,
};

function limitValue(flag: string, spec: LimitFlag, text: string): number {
  const trimmed = text.trim().toLowerCase();
  if (trimmed === "unlimited" || trimmed === "infinity" || trimmed === "inf") return Number.POSITIVE_INFINITY;
  let value: number;
  if (spec.bytes) {
    const match = /^(\d+(?:\.\d+)?)\s*([a-z]*)$/.exec(trimmed.replaceAll("_", ""));
    const unit = match === null ? undefined : BYTE_UNITS[match[2] as string];
    value = match === null || unit === undefined ? Number.NaN : Math.round(Number(match[1]) * unit);
  } else {
    value = /^\d+$/.test(trimmed.replaceAll("_", "")) ? Number(trimmed.replaceAll("_", "")) : Number.NaN;
  }
  if (!Number.isFinite(value) || value <= 0) {
    throw new UsageError(`${flag} expects ${spec.what} or "unlimited", got "${text}" (e.g. ${spec.example})`);
  }
  return value;
}

/** Every flag the command reads, for "did you mean". */
const FLAGS: readonly string[] = [
  "--eval",
  "--data",
  "--tool",
  "--tools",
  "--json",
  "--help",
  "--version",
  ...Object.keys(LIMIT_FLAGS),
];

/** `unknown option "--dta" (did you mean --data?)`: the nearest flag, when one is near. */
function unknownFlagMessage(flag: string): string {
  const suggestion = flag.startsWith("--")
    ? nearestName(
        flag.slice(2),
        FLAGS.map((known) => known.slice(2)),
      )
    : undefined;
  const hint = suggestion === undefined ? "" : ` (did you mean --${suggestion}?)`;
  return `unknown option "${flag}"${hint}. ${HELP_HINT}`;
}

/** Parses the arguments after the command name. Throws UsageError. */
export function parseArguments(argv: readonly string[]): CliOptions {
  let program: ProgramSource | undefined;
  let dataPath: string | undefined;
  const toolFiles: ToolFile[] = [];
  const toolModules: string[] = [];
  let json = false;
  let help = false;
  let version = false;
  const limits: Record<string, number> = {};

  const setProgram = (next: ProgramSource, shown: string) => {
    if (program !== undefined) {
      const first = program.kind === "eval" ? "-e" : program.kind === "stdin" ? "-" : `"${program.path}"`;
      throw new UsageError(`give one program at a time: got ${first} and ${shown}. ${HELP_HINT}`);
    }
    program = next;
  };

  let onlyFiles = false;
  for (let i = 0; i < argv.length; i++) {
    const argument = argv[i] as string;
    if (onlyFiles || argument === "-" || !argument.startsWith("-")) {
      if (argument === "-" && !onlyFiles) setProgram({ kind: "stdin" }, "-");
      else setProgram({ kind: "file", path: argument }, `"${argument}"`);
      continue;
    }
    if (argument === "--") {
      onlyFiles = true;
      continue;
    }
    const equals = argument.startsWith("--") ? argument.indexOf("=") : -1;
    const flag = equals === -1 ? argument : argument.slice(0, equals);
    const inline = equals === -1 ? undefined : argument.slice(equals + 1);
    const value = (usage: string): string => {
      if (inline !== undefined) return inline;
      const next = argv[i + 1];
      if (next === undefined) throw new UsageError(`${flag} needs a value: ${usage}. ${HELP_HINT}`);
      i++;
      return next;
    };
    const noValue = () => {
      if (inline !== undefined)
        throw new UsageError(`${flag} takes no value; write just ${flag}. ${HELP_HINT}`);
    };
    switch (flag) {
      case "-e":
      case "--eval": {
        const source = value(`${flag} '(+ 1 2)'`);
        setProgram({ kind: "eval", source }, "-e");
        break;
      }
      case "-d":
      case "--data":
        if (dataPath !== undefined)
          throw new UsageError(`--data can be given once: put everything in one JSON object`);
        dataPath = value(`${flag} FILE.json`);
        break;
      case "--tool": {
        const spec = value("--tool NAME=FILE.json");
        const equalsAt = spec.indexOf("=");
        const name = equalsAt === -1 ? "" : spec.slice(0, equalsAt).trim();
        const path = equalsAt === -1 ? "" : spec.slice(equalsAt + 1).trim();
        if (name === "" || path === "") {
          throw new UsageError(
            `--tool expects NAME=FILE.json (the tool's name, then the JSON file its calls return), got "${spec}". ${HELP_HINT}`,
          );
        }
        toolFiles.push({ name, path });
        break;
      }
      case "--tools":
        toolModules.push(value("--tools MODULE.mjs"));
        break;
      case "--json":
        noValue();
        json = true;
        break;
      case "-h":
      case "--help":
        noValue();
        help = true;
        break;
      case "-v":
      case "--version":
        noValue();
        version = true;
        break;
      default: {
        const spec = LIMIT_FLAGS[flag];
        if (spec === undefined) throw new UsageError(unknownFlagMessage(flag));
        limits[spec.limit] = limitValue(flag, spec, value(spec.example));
      }
    }
  }

  const action = help ? "help" : version ? "version" : program === undefined ? "repl" : "run";
  return { action, program, dataPath, toolFiles, toolModules, json, limits: limits as Partial<Limits> };
}
