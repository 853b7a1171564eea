/**
 * `run`: a program's whole life. Check the options, read, count symbols, analyze, compile, then
 * execute inside a fresh run context, turning every way a program can end into a RunResult:
 * a value, `(return v)`, `(fail v)`, or an error with a reason, a message for the model and a
 * position. The host process never sees a raw JS error from a program.
 */
import { analyzeProgram } from "./analyzer/analyze.js";
import { nearestName } from "./analyzer/nearest-name.js";
import { runDiscovery } from "./builtins/discovery.js";
import { registry } from "./builtins/index.js";
import { codegenAvailable } from "./compiler/codegen-units.js";
import { Compiler, type Tier } from "./compiler/compile.js";
import {
  type CompiledProgram,
  cachedProgram,
  programKey,
  rememberProgram,
} from "./compiler/program-cache.js";
import { forgetPurity } from "./compiler/purity.js";
import { type ErrorReason, LispError } from "./errors.js";
import { print } from "./format/print.js";
import type { Form } from "./reader/form.js";
import { readProgram, type StrayCloser } from "./reader/reader.js";
import { successResult, withJson } from "./result-json.js";
import { settle } from "./runtime/async.js";
import { locate } from "./runtime/call-site.js";
import { enter, type HostTool, RunContext, type ToolCallRecord, type ToolObject } from "./runtime/context.js";
import { type Limits, resolveLimits } from "./runtime/limits.js";
import { Namespace } from "./runtime/namespace.js";
import { checkSignal } from "./runtime/signal-option.js";
import { FailSignal, RECUR, ReturnSignal } from "./runtime/signals.js";
import { normalizeTools } from "./runtime/tool-options.js";
import { parameterNames } from "./runtime/tool-parameters.js";
import type { Session } from "./session.js";
import { lookup } from "./values/map-access.js";
import { isPlainObject, type PlainObject } from "./values/plain-object.js";
import { Regex } from "./values/regex.js";
import { loadRegexEngine, mayUseRegex, regexEngineLoaded } from "./values/regex-engine.js";

export interface RunOptions {
  /** The `data/` namespace: a plain object, read in place and never modified. */
  readonly context?: Readonly<Record<string, unknown>>;
  /**
   * Tools callable as `(tool/name {...})`: functions of one argument object returning a value or
   * a promise, or objects with such an `execute` (and optionally `validate`, which checks a
   * program's arguments first), such as @ptc/tool's `createTools(...)`. A program may write
   * `-` for `_` in a name (`tool/list-orders` for `list_orders`) when only one tool matches.
   */
  readonly tools?: Readonly<Record<string, HostTool>> | ReadonlyMap<string, HostTool>;
  /** Per-run limits; each defaults to the reference's value (see `DEFAULT_LIMITS`). */
  readonly limits?: Partial<Limits>;
  /** Keeps defs and *1 *2 *3 across programs; a failed program leaves it unchanged. */
  readonly session?: Session;
  /** What `(budget/remaining)` returns (an agent fills it in); `{}` when absent. */
  readonly budget?: unknown;
  /**
   * Which evaluator runs pure code; results are the same either way. "adaptive" (the default): a
   * new program starts on the general evaluator, which costs nothing to prepare, and what runs hot
   * (a function called or looping over many rows, a program text run again) moves to JavaScript
   * generated for it. "fast": all pure code compiled to JavaScript with `new Function` before the
   * program starts (the fastest for a text run many times; the slowest start). "general": the
   * closure evaluator only. Where the platform forbids `new Function` (a strict
   * Content-Security-Policy), "general" is used automatically.
   */
  readonly engine?: "adaptive" | "fast" | "general";
  /**
   * Cancels the run. When it fires (or has fired already), the program stops at its next
   * evaluation step, or at once while it waits on a tool, and the run resolves with reason
   * "aborted", a failure like any other (a session's defs and *1 *2 *3 stay as they were). A tool
   * that is still working is not told: give your tools the same signal to stop their work too.
   */
  readonly signal?: AbortSignal;
}

export interface RunError {
  readonly reason: ErrorReason;
  readonly message: string;
  readonly line?: number;
  readonly column?: number;
  /** For reason "fail": the value the program passed to `(fail v)`. */
  readonly value?: unknown;
}

interface RunOutput {
  /** Lines printed with println, in order. */
  readonly prints: string[];
  /** Every tool call, in order: name, arguments as sent, result or error, duration. */
  readonly toolCalls: ToolCallRecord[];
  /** Wall-clock time of the whole run. */
  readonly durationMs: number;
  /**
   * What the run let pass but a program's author (often a model) should know: a `data/` key the
   * context does not have (it reads as nil, as in the reference), an extra closing bracket that
   * was ignored. Empty when there is nothing to say.
   */
  readonly warnings: string[];
}

export interface RunSuccess extends RunOutput {
  readonly ok: true;
  /** The program's value: its last form's value, or the value given to `(return v)`. */
  readonly value: unknown;
  /** True when the program ended with `(return v)`. */
  readonly returned: boolean;
  /** Names the program bound with def/defn/defonce, sorted. */
  readonly defined: string[];
  /**
   * What `(step-done "id" "summary")` recorded: step id to summary, in the order the steps were
   * first marked done (as with any object, integer-like ids come first).
   */
  readonly summaries: Record<string, string>;
}

export interface RunFailure extends RunOutput {
  readonly ok: false;
  readonly error: RunError;
}

export type RunResult = RunSuccess | RunFailure;

const ENGINES: ReadonlySet<unknown> = new Set(["adaptive", "fast", "general"]);

/** The engine of runs that name none: "adaptive", or what PTC_LISP_ENGINE says (for work on the tiers). */
const defaultEngine: Tier = (() => {
  const chosen = typeof process !== "undefined" ? process.env?.PTC_LISP_ENGINE : undefined;
  return ENGINES.has(chosen) ? (chosen as Tier) : "adaptive";
})();

/** The tier pure code of a run starts on. */
const tierFor = (engine: RunOptions["engine"]): Tier =>
  codegenAvailable ? (engine ?? defaultEngine) : "general";

/** Builtins a program may name (not the internal ones the analyzer inserts), for suggestions. */
let visibleBuiltins: readonly string[] | undefined;
const builtinNames = (): readonly string[] =>
  (visibleBuiltins ??= registry.names().filter((name) => registry.definition(name)?.category !== "Internal"));

const compiler = (tier: Tier) =>
  new Compiler({
    builtin: (name) => registry.get(name),
    tier,
    discovery: (operation, args) => runDiscovery(registry, operation, args),
  });

/** A program's code on `tier`; what purity analysis learned of its nodes is dropped after. */
function compileBody(tier: Tier, body: Parameters<Compiler["compile"]>[0]): CompiledProgram["code"] {
  try {
    return compiler(tier).compile(body);
  } finally {
    forgetPurity();
  }
}

function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    bytes += code < 0x80 ? 1 : code < 0x800 ? 2 : code >= 0xd800 && code <= 0xdbff ? 2 : 3;
  }
  return bytes;
}

function countSymbols(forms: readonly Form[], limit: number): number {
  const names = new Set<string>();
  const walk = (form: Form): void => {
    if (names.size > limit) return;
    if (form.type === "symbol" || form.type === "keyword" || form.type === "var" || form.type === "quote") {
      if (!registry.has(form.name)) names.add(`${form.type === "keyword" ? ":" : ""}${form.name}`);
    } else if ("items" in form) for (const item of form.items) walk(item);
  };
  for (const form of forms) walk(form);
  return names.size;
}

function checkContext(context: unknown): PlainObject {
  if (context === undefined || context === null) return {};
  if (!isPlainObject(context)) {
    throw new LispError(
      "invalid_options",
      "context must be a plain object whose keys are the data/ names (e.g. { orders: [...] })",
    );
  }
  return context;
}

/** Stops leftovers of a finished run; made once, since an error captures a stack when made. */
/** The tool names of a run without tools (never changed: prepare only reads them). */
const NO_TOOLS: ReadonlySet<string> = new Set();

const FINISHED = new LispError("timeout", "the program already finished");

/** Turns anything thrown while running into a RunError. */
function toRunError(thrown: unknown): RunError {
  locate(thrown);
  if (thrown instanceof LispError) {
    const data = thrown.toData();
    return thrown.reason === "fail" ? { ...data, value: thrown.value } : data;
  }
  if (thrown instanceof FailSignal) {
    const text = typeof thrown.value === "string" ? thrown.value : print(thrown.value);
    return { reason: "fail", message: text, value: thrown.value };
  }
  if (thrown instanceof RangeError && /call stack/i.test(thrown.message)) {
    return {
      reason: "recursion_limit_exceeded",
      message: "recursion too deep for the host stack. Use loop/recur or reduce instead of deep recursion",
    };
  }
  // Every builder of text, vectors and integers refuses sizes past its limit before V8 does
  // (values/text-limit.ts, runtime/big-integers.ts); this is the net under them.
  if (thrown instanceof RangeError && /string length|array length|BigInt/i.test(thrown.message)) {
    return {
      reason: "memory_exceeded",
      message: "the program built a value too large to represent. Build less data",
    };
  }
  return {
    reason: "runtime_error",
    message:
      "unexpected internal error while running the program (a bug in @ptc/lisp, please report it); try rewriting the failing expression",
  };
}

/** The options of the last run without tools or session names, and their key text. */
let plainOptions: { tier: Tier; nesting: number; symbols: number; text: string } | undefined;

/**
 * What, besides the text, changes what analysis makes of a program: the engine, the reader
 * limits, the tool names and the names a session defined. The common case (no tools, no session
 * names, the same limits as last time) reuses the last key text, whose hash V8 already knows.
 */
function optionsKey(
  tier: Tier,
  limits: Limits,
  toolNames: ReadonlySet<string>,
  userNames: readonly string[],
): string {
  const plain = toolNames.size === 0 && userNames.length === 0;
  const last = plainOptions;
  if (
    plain &&
    last !== undefined &&
    last.tier === tier &&
    last.nesting === limits.maxNesting &&
    last.symbols === limits.maxSymbols
  )
    return last.text;
  const text = `${tier}\u0001${limits.maxNesting}\u0001${limits.maxSymbols}\u0001${[...toolNames].sort().join(",")}\u0001${userNames.join(",")}`;
  if (plain) plainOptions = { tier, nesting: limits.maxNesting, symbols: limits.maxSymbols, text };
  return text;
}

/** Reads, checks and compiles a program (or finds it compiled); throws LispError on any static problem. */
function prepare(
  source: string,
  limits: Limits,
  namespace: Namespace,
  tools: ReadonlyMap<string, ToolObject>,
  engine: RunOptions["engine"],
): CompiledProgram {
  const toolNames = tools.size === 0 ? NO_TOOLS : new Set(tools.keys());
  // A UTF-8 byte count needs a pass over the text; only long texts can be too large.
  if (source.length * 3 > limits.maxProgramBytes) {
    const size = utf8Length(source);
    if (size > limits.maxProgramBytes) {
      throw new LispError(
        "program_too_large",
        `program size ${size} bytes exceeds limit of ${limits.maxProgramBytes}; move data into the context instead of the source`,
      );
    }
  }
  const tier = tierFor(engine);
  // Names a session defined earlier change what symbols mean, so they are part of the key.
  const userNames = namespace.names();
  const key = programKey(source, optionsKey(tier, limits, toolNames, userNames));
  const cached = key === undefined ? undefined : cachedProgram(key);
  if (cached !== undefined) {
    // A text run before (adaptive tier): this time every pure part runs as generated code.
    if (cached.upgrade !== undefined) {
      cached.code = cached.upgrade();
      cached.upgrade = undefined;
    }
    return cached;
  }
  const { forms, strayClosers } = readProgram(source, { maxNesting: limits.maxNesting });
  const symbols = countSymbols(forms, limits.maxSymbols);
  if (symbols > limits.maxSymbols) {
    throw new LispError(
      "symbol_limit_exceeded",
      `program contains more than ${limits.maxSymbols} unique symbols/keywords, exceeds limit of ${limits.maxSymbols}`,
    );
  }
  const analyzed = analyzeProgram(forms, {
    isBuiltin: (name) => registry.has(name),
    builtinNames,
    userNames: new Set(userNames),
    toolNames,
    // Only errors depend on it, and errors are never cached: not part of the program's key.
    toolParameters: (name) => parameterNames(tools.get(name)?.signature),
    checkRegex: (pattern) => Regex.problem(pattern),
    compileRegex: (pattern) => Regex.compile(pattern),
  });
  const compiled: CompiledProgram = {
    code: compileBody(tier, analyzed.body),
    frameSize: analyzed.frameSize,
    dataKeys: [...analyzed.dataKeys].sort(),
    warnings: strayCloserWarnings(strayClosers),
    upgrade: tier === "adaptive" && key !== undefined ? () => compileBody("fast", analyzed.body) : undefined,
  };
  if (key !== undefined) rememberProgram(key, compiled);
  return compiled;
}

const MAX_STRAY_CLOSERS_SHOWN = 3;

function strayCloserWarnings(closers: readonly StrayCloser[]): string[] {
  if (closers.length === 0) return [];
  const shown = closers
    .slice(0, MAX_STRAY_CLOSERS_SHOWN)
    .map((closer) => `'${closer.char}' at line ${closer.line}, column ${closer.column}`);
  const more =
    closers.length > MAX_STRAY_CLOSERS_SHOWN ? ` and ${closers.length - MAX_STRAY_CLOSERS_SHOWN} more` : "";
  return [
    `ignored ${closers.length === 1 ? "an extra closing bracket" : "extra closing brackets"} with nothing open: ${shown.join(", ")}${more}. Check that the forms before close where you meant`,
  ];
}

const MAX_KEYS_LISTED = 10;

/** A warning for each `data/` key the program reads and the context lacks. */
function dataKeyWarnings(keys: readonly string[], data: PlainObject): string[] {
  const warnings: string[] = [];
  let available: string[] | undefined;
  for (const key of keys) {
    if (lookup(data, key) !== undefined) continue;
    available ??= Object.keys(data).sort();
    const nearest = nearestName(key, available);
    const hint =
      nearest !== undefined
        ? `did you mean data/${nearest}?`
        : available.length === 0
          ? "the context is empty"
          : `the context has ${available
              .slice(0, MAX_KEYS_LISTED)
              .map((name) => `data/${name}`)
              .join(", ")}${available.length > MAX_KEYS_LISTED ? ", ..." : ""}`;
    warnings.push(`data/${key} is not in the context, so it reads as nil; ${hint}`);
  }
  return warnings;
}

/** Runs a PTC-Lisp program. Never rejects for a program's own failure; see RunResult. */
export async function run(source: string, options: RunOptions = {}): Promise<RunResult> {
  if (typeof source !== "string")
    throw new LispError("invalid_options", `source must be a string, got ${typeof source}`);
  if (options.engine !== undefined && !ENGINES.has(options.engine)) {
    throw new LispError(
      "invalid_options",
      `engine must be "adaptive", "fast" or "general", got ${String(options.engine)}`,
    );
  }
  // Before the run starts its clock: loading RE2 is the host's one-time cost, not the program's.
  // A failed load leaves native patterns working; a pattern that needs RE2 then fails the run.
  if (!regexEngineLoaded() && mayUseRegex(source)) await loadRegexEngine().catch(() => undefined);
  const limits = resolveLimits(options.limits);
  const tools = normalizeTools(options.tools);
  const data = checkContext(options.context);
  const signal = checkSignal(options.signal);
  const session = options.session;
  const namespace = session?.namespace ?? new Namespace();

  let compiled: CompiledProgram | undefined;
  session?.acquire();
  const context = new RunContext({
    limits,
    data,
    tools,
    namespace,
    history: session?.history() ?? [],
    budget: options.budget,
    journal: session?.journal,
    signal,
  });
  const finish = (outcome: { value: unknown; returned: boolean } | { error: RunError }): RunResult => {
    context.dispose();
    // Cancelled after its last step (say, by the last tool it called): the run still counts as
    // cancelled, so the host never has to wonder whether it was.
    if (!("error" in outcome) && context.abortReason?.reason === "aborted")
      outcome = { error: toRunError(context.abortReason) };
    const output: RunOutput = {
      prints: context.prints,
      toolCalls: context.toolCalls,
      durationMs: context.elapsedMs(),
      warnings:
        compiled === undefined ? [] : [...compiled.warnings, ...dataKeyWarnings(compiled.dataKeys, data)],
    };
    if ("error" in outcome) {
      namespace.rollback();
      return withJson({ ok: false, error: outcome.error, ...output });
    }
    const defined = namespace.commit();
    session?.remember(outcome.value);
    const summaries = context.stepSummaries.size === 0 ? {} : Object.fromEntries(context.stepSummaries);
    return successResult(outcome.value, outcome.returned, defined, summaries, output);
  };

  try {
    namespace.begin();
    enter(context);
    let value: unknown;
    try {
      if (context.abortReason !== undefined) throw context.abortReason;
      compiled = prepare(source, limits, namespace, tools, options.engine);
      value = compiled.code(new Array(compiled.frameSize));
      if (value instanceof Promise) value = await settle(value);
    } catch (thrown) {
      if (thrown instanceof ReturnSignal) return finish({ value: thrown.value, returned: true });
      return finish({ error: toRunError(thrown) });
    } finally {
      // Anything this run left running (a pmap branch still waiting on a tool) stops at its next step.
      context.abortReason ??= FINISHED;
    }
    if (value === RECUR)
      return finish({ error: { reason: "invalid_form", message: "recur must be in tail position" } });
    return finish({ value: value === undefined ? null : value, returned: false });
  } finally {
    session?.release();
  }
}
