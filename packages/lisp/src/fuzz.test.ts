/**
 * Property tests of the whole pipeline (reader, analyzer, evaluator, printer) on generated input:
 * random text, token soup, and real programs mutated (tokens deleted, duplicated, swapped,
 * numbers changed). The real programs are the conformance corpus (../shared/conformance) when it
 * is there, and the builtins' documented examples always.
 *
 * Properties:
 * - `run` never rejects and never lets a raw exception out: every failure is a RunError whose
 *   reason is one of the documented ErrorReason values (an internal error would show up as the
 *   "unexpected internal error" runtime_error);
 * - a data value prints as text that reads back as an equal value, printing the same;
 * - the same program gives the same result twice;
 * - host data (context, tool results) is never written.
 *
 * `pnpm test` runs a few hundred cases of each. `pnpm fuzz` (scripts/fuzz.mjs) runs the same
 * properties with FUZZ_RUNS cases each and a seed it prints, so a failure replays with
 * `pnpm fuzz --seed <seed> --property <id> --runs <n> --path <path>`.
 */
import { existsSync, readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { ALL_BUILTINS } from "./builtins/index.js";
import { SPECIAL_FORMS } from "./builtins/reference.js";
import {
  type ErrorReason,
  equals,
  format,
  Keyword,
  type Limits,
  LispMap,
  LispSet,
  preview,
  type RunResult,
  read,
  run,
  toJson,
  WholeFloat,
} from "./index.js";

// ---------------------------------------------------------------- settings

const fuzzRuns = Number(process.env.FUZZ_RUNS ?? 0);
const fuzzing = fuzzRuns > 0;
const seed = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);
const replayPath = process.env.FUZZ_PATH;
const only = process.env.FUZZ_PROPERTY;

/** fast-check settings for one property: a modest count in `pnpm test`, FUZZ_RUNS in `pnpm fuzz`. */
function settings(id: string, testRuns: number): fc.Parameters<unknown> {
  const base: fc.Parameters<unknown> = { numRuns: fuzzing ? fuzzRuns : testRuns };
  if (seed === undefined) return base;
  // Each property gets its own seed derived from the one printed, so one number replays all.
  let hash = seed | 0;
  for (let i = 0; i < id.length; i++) hash = (Math.imul(hash, 31) + id.charCodeAt(i)) | 0;
  return replayPath === undefined ? { ...base, seed: hash } : { ...base, seed: hash, path: replayPath };
}

/**
 * A property as a test, known to `pnpm fuzz` by its id: skipped by `--property other`, and
 * unbounded in time when fuzzing.
 */
function property(id: string, title: string, body: (id: string) => Promise<void>): void {
  const skip = only !== undefined && only !== id;
  (skip ? test.skip : test)(
    `${title} [${id}]`,
    async () => {
      const started = performance.now();
      await body(id);
      if (fuzzing) {
        const seconds = ((performance.now() - started) / 1000).toFixed(1);
        console.log(
          replayPath === undefined
            ? `fuzz: ${id}: ${fuzzRuns} cases passed in ${seconds} s`
            : `fuzz: ${id}: the case at path ${replayPath} passed`,
        );
      }
    },
    fuzzing ? 24 * 3600_000 : 20_000,
  );
}

// ---------------------------------------------------------------- what a run may answer

const REASONS = [
  "parse_error",
  "invalid_form",
  "invalid_arity",
  "invalid_thread_form",
  "invalid_cond_form",
  "invalid_placeholder",
  "unbound_var",
  "unknown_tool",
  "invalid_tool_args",
  "type_error",
  "arity_mismatch",
  "arity_error",
  "arithmetic_error",
  "destructure_error",
  "unsupported_pattern",
  "unsupported_method",
  "not_callable",
  "invalid_keyword_call",
  "invalid_map_call",
  "loop_limit_exceeded",
  "tool_error",
  "tool_call_limit_exceeded",
  "pmap_error",
  "pcalls_error",
  "parallel_capacity_exceeded",
  "timeout",
  "aborted",
  "memory_exceeded",
  "recursion_limit_exceeded",
  "program_too_large",
  "symbol_limit_exceeded",
  "execution_error",
  "runtime_error",
  "invalid_options",
  "host_data_error",
  "paused",
  "replay_diverged",
  "fail",
] as const satisfies readonly ErrorReason[];
// Every documented reason is listed: a new one must be added here too.
const everyReason: Exclude<ErrorReason, (typeof REASONS)[number]> extends never ? true : false = true;
const documented = new Set<string>(REASONS);

/** Small limits: a generated program that loops or allocates stops quickly. */
const LIMITS: Partial<Limits> = { timeoutMs: 50, maxIterations: 5000, maxMemoryBytes: 2_000_000 };

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  }
  return value;
}

/** Host data every generated program may read, frozen: writing it would throw. */
const context = deepFreeze({
  orders: [
    { id: 1, amount: 120.5, status: "paid", tags: ["a", "b"], customer: { name: "Ann", tier: "gold" } },
    { id: 2, amount: 80, status: "open", tags: [], customer: { name: "Bo", tier: "free" } },
    { id: 3, amount: null, status: "paid", tags: ["c"], customer: null },
  ],
  user: { user_id: 7, name: "Ann", __proto__: { polluted: true }, nested: { deep: [1, [2, [3]]] } },
  text: "alpha, beta; gamma\nδέλτα 👍🏽 e\u0301",
  n: 42,
  xs: [3, 1, 2, 5, 4],
});
const contextCopy = structuredClone(context);
const toolResult = deepFreeze({ rows: [{ id: 1, name: "x" }], total: 1 });
const toolResultCopy = structuredClone(toolResult);

const tools = {
  echo: (args: Record<string, unknown>) => args,
  fetch: () => toolResult,
  fail: () => {
    throw new Error("tool failed");
  },
  slow: () => new Promise((resolve) => setTimeout(() => resolve(1), 1)),
};

/** Runs a program; checks the answer is well formed and the host data untouched. */
async function runChecked(source: string): Promise<RunResult> {
  let result: RunResult;
  try {
    result = await run(source, { context, tools, limits: LIMITS });
  } catch (error) {
    throw new Error(`run rejected: ${String(error)}\n  program: ${source}`);
  }
  if (!result.ok) {
    const { reason, message } = result.error;
    if (!documented.has(reason)) throw new Error(`undocumented reason ${reason}\n  program: ${source}`);
    // A message says what went wrong; only (fail "") may have an empty one.
    if (typeof message !== "string" || (message === "" && reason !== "fail"))
      throw new Error(`empty message for ${reason}\n  program: ${source}`);
    if (message.includes("unexpected internal error"))
      throw new Error(`an internal error escaped: ${message}\n  program: ${source}`);
  } else {
    // Whatever a program returns, the host can print and convert it.
    format(result.value, { maxChars: 100_000 });
    preview(result.value);
    try {
      toJson(result.value, { maxNodes: 1_000_000 });
    } catch (error) {
      if ((error as { reason?: unknown }).reason !== "memory_exceeded") throw error;
    }
  }
  expect(context).toEqual(contextCopy);
  expect(toolResult).toEqual(toolResultCopy);
  return result;
}

/** The answer as text: a value's printed form, or an error's reason and message. */
function outcome(result: RunResult): string {
  return result.ok ? `ok ${format(result.value)}` : `${result.error.reason}: ${result.error.message}`;
}

// ---------------------------------------------------------------- generators

/** Real programs: the conformance corpus when present, and every documented example. */
function realPrograms(): string[] {
  const programs = new Set<string>();
  for (const definition of ALL_BUILTINS)
    for (const [source] of definition.examples ?? []) programs.add(source);
  for (const form of SPECIAL_FORMS) programs.add(form.example[0]);
  const corpus = new URL("../../../../shared/conformance/lisp-cases.jsonl", import.meta.url);
  if (existsSync(corpus)) {
    for (const line of readFileSync(corpus, "utf8").split("\n")) {
      if (line.trim() === "") continue;
      const program = (JSON.parse(line) as { program?: unknown }).program;
      if (typeof program === "string" && program.length < 4000) programs.add(program);
    }
  }
  return [...programs].sort();
}

const programs = realPrograms();

/** Reads the clock or the calendar: the same program may answer differently twice. */
const NONDETERMINISTIC = /currentTimeMillis|java\.util\.Date|Instant\/now|LocalDate\/now|System\//;

const TOKEN =
  /"(?:[^"\\]|\\.)*"?|#"(?:[^"\\]|\\.)*"?|;[^\n]*|[()[\]{}]|#\{|#\(|#_|'|`|~@?|@|\^|[^\s()[\]{}"';`~@^,]+|\s+|,/gu;

function tokens(source: string): string[] {
  return source.match(TOKEN) ?? [source];
}

const vocabulary = [
  ...new Set([
    ...ALL_BUILTINS.map((definition) => definition.name),
    ...SPECIAL_FORMS.map((form) => form.name),
    "data/orders",
    "data/user",
    "data/text",
    "data/missing",
    "tool/echo",
    "tool/fetch",
    "tool/fail",
    "tool/slow",
    "tool/nope",
    "%",
    "%1",
    "&",
    "_",
    "nil",
    "true",
    ":a",
    ":user-id",
    '"a"',
    '""',
    "0",
    "-1",
    "1.5",
    "##Inf",
    "##NaN",
    "9007199254740993",
    "1e400",
    "\\a",
    "#'x",
    "x",
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    "#{",
    "#(",
    "#_",
    "'",
    "@",
    "^",
    "#",
  ]),
];

const anyToken = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...vocabulary) },
  { weight: 1, arbitrary: fc.string({ maxLength: 6 }) },
  { weight: 1, arbitrary: fc.integer().map(String) },
  { weight: 1, arbitrary: fc.double().map(String) },
);

const numberLike = fc.oneof(
  fc.constantFrom("0", "-0", "1", "-1", "2", "1000000", "1e9", "1e308", "-1e308", "0.5", "3.0", "##Inf"),
  fc.constantFrom("9007199254740992", "9007199254740993", "99999999999999999999", "-9223372036854775809"),
  fc.integer().map(String),
  fc.double({ noNaN: true }).map(String),
);

type Mutation =
  | { kind: "delete"; at: number }
  | { kind: "duplicate"; at: number }
  | { kind: "swap"; at: number; with: number }
  | { kind: "replace"; at: number; token: string }
  | { kind: "number"; at: number; number: string }
  | { kind: "insert"; at: number; token: string };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant("delete" as const), at: fc.nat() }),
  fc.record({ kind: fc.constant("duplicate" as const), at: fc.nat() }),
  fc.record({ kind: fc.constant("swap" as const), at: fc.nat(), with: fc.nat() }),
  fc.record({ kind: fc.constant("replace" as const), at: fc.nat(), token: anyToken }),
  fc.record({ kind: fc.constant("number" as const), at: fc.nat(), number: numberLike }),
  fc.record({ kind: fc.constant("insert" as const), at: fc.nat(), token: anyToken }),
);

function mutate(source: string, mutations: readonly Mutation[]): string {
  const parts = tokens(source);
  for (const change of mutations) {
    if (parts.length === 0) break;
    const at = change.at % parts.length;
    switch (change.kind) {
      case "delete":
        parts.splice(at, 1);
        break;
      case "duplicate":
        parts.splice(at, 0, parts[at] as string);
        break;
      case "swap": {
        const other = change.with % parts.length;
        [parts[at], parts[other]] = [parts[other] as string, parts[at] as string];
        break;
      }
      case "replace":
        parts[at] = change.token;
        break;
      case "number": {
        // The nearest number at or after `at` (wrapping), else nothing changes.
        for (let i = 0; i < parts.length; i++) {
          const index = (at + i) % parts.length;
          if (/^[-+]?\d/.test(parts[index] as string)) {
            parts[index] = change.number;
            break;
          }
        }
        break;
      }
      case "insert":
        parts.splice(at, 0, " ", change.token, " ");
        break;
    }
  }
  return parts.join("");
}

const realProgram = fc.constantFrom(...programs);
const mutatedProgram = fc
  .tuple(realProgram, fc.array(mutation, { minLength: 1, maxLength: 4 }))
  .map(([source, mutations]) => mutate(source, mutations));
const tokenSoup = fc.array(anyToken, { minLength: 1, maxLength: 30 }).map((parts) => parts.join(" "));
const lispCharacter = fc.constantFrom(..."()[]{}#'\"\\:;^@~`%&.,/-+*<>=!? \n\tax1é👍\u0301\u0000");
const randomText = fc.oneof(
  fc.string({ unit: lispCharacter, maxLength: 60 }),
  fc.string({ unit: "binary", maxLength: 40 }),
);
const anyProgram = fc.oneof(
  { weight: 5, arbitrary: mutatedProgram },
  { weight: 2, arbitrary: tokenSoup },
  { weight: 2, arbitrary: randomText },
  { weight: 1, arbitrary: realProgram },
);

/** Data values a program can write as literals (no NaN: it equals nothing, itself included). */
const dataValue: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  scalar: fc.oneof(
    fc.constant(null),
    fc.boolean(),
    fc.integer(),
    fc.maxSafeInteger(),
    fc.bigInt({ min: 2n ** 53n, max: 2n ** 90n }),
    fc.bigInt({ min: -(2n ** 90n), max: -(2n ** 53n) }),
    fc.double({ noNaN: true }).filter((x) => !Number.isInteger(x)),
    fc.constantFrom(Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY),
    fc.integer({ min: -1_000_000, max: 1_000_000 }).map((n) => new WholeFloat(n)),
    fc.string(),
    fc.string({ unit: "binary" }),
    fc.string({ unit: fc.constantFrom("a", "\\", '"', "\n", "\t", "\r", "\u0000", "\u001f", "é", "👍🏽") }),
    fc.stringMatching(/^[a-z*+!_?<>=-][a-z0-9*+!_?<>=-]{0,8}$/).map((name) => Keyword.of(name)),
  ),
  any: fc.oneof(
    { depthSize: "small" },
    tie("scalar"),
    fc.array(tie("any"), { maxLength: 5 }),
    fc.array(fc.tuple(tie("any"), tie("any")), { maxLength: 5 }).map((entries) => LispMap.from(entries)),
    fc.array(tie("any"), { maxLength: 5 }).map((items) => LispSet.from(items)),
  ),
})).any;

// ---------------------------------------------------------------- properties

describe("properties of the whole pipeline", () => {
  expect(everyReason).toBe(true);

  property("errors", "no raw exception escapes run, and every error has a documented reason", async (id) => {
    await fc.assert(
      fc.asyncProperty(anyProgram, async (source) => {
        await runChecked(source);
      }),
      settings(id, 300),
    );
  });

  property(
    "round-trip",
    "a data value prints as text that reads back equal, and prints the same",
    async (id) => {
      await fc.assert(
        fc.asyncProperty(dataValue, async (value) => {
          const text = format(value);
          expect(read(text, { maxNesting: 1000 })).toHaveLength(1);
          const result = await run(text, { limits: { maxNesting: 1000 } });
          if (!result.ok) throw new Error(`${text} failed: ${result.error.reason}: ${result.error.message}`);
          expect(equals(result.value, value), text).toBe(true);
          expect(format(result.value)).toBe(text);
          expect(JSON.stringify(toJson(value))).toBe(JSON.stringify(toJson(result.value)));
        }),
        settings(id, 300),
      );
    },
  );

  property("determinism", "the same program gives the same result twice", async (id) => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof({ weight: 3, arbitrary: mutatedProgram }, { weight: 1, arbitrary: realProgram }),
        async (source) => {
          if (NONDETERMINISTIC.test(source)) return;
          const first = await runChecked(source);
          const second = await runChecked(source);
          // A program near its time limit may stop on one run and not the other.
          if (!first.ok && first.error.reason === "timeout") return;
          if (!second.ok && second.error.reason === "timeout") return;
          expect(outcome(second), source).toBe(outcome(first));
        },
      ),
      settings(id, 150),
    );
  });

  property("graphemes", "strings count by grapheme as Intl.Segmenter does", async (id) => {
    const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });
    const piece = fc.constantFrom(
      "a",
      "é",
      "e\u0301",
      "👍",
      "🏽",
      "\u200d",
      "🇫",
      "🇷",
      "\r",
      "\n",
      "한",
      "\u1100",
      "\u1161",
      "ab",
    );
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.array(piece, { maxLength: 400 }).map((parts) => parts.join("")),
          fc.string({ unit: "grapheme" }),
        ),
        async (text) => {
          const expected = [...segmenter.segment(text)].length;
          const result = await run('[(count data/s) (count (split data/s ""))]', { context: { s: text } });
          expect(result.ok && format(result.value)).toBe(`[${expected} ${expected}]`);
        },
      ),
      settings(id, 200),
    );
  });
});
