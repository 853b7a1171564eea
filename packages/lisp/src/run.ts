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
import { codeGenerationAllowed } from "./code-generation.js";
import { Compiler, type Tier } from "./compiler/compile.js";
import {
  type CompiledProgram,
  cacheable,
  cachedProgram,
  keepAlive,
  rememberProgram,
  SEEN_ONCE,
} from "./compiler/program-cache.js";
import { forgetPurity } from "./compiler/purity.js";
import { environmentVariable } from "./environment.js";
import { type ErrorReason, isLispError, LispError } from "./errors.js";
import { format } from "./format/format.js";
import { quotedName } from "./quoted-text.js";
import type { Form } from "./reader/form.js";
import { readProgram, type StrayCloser } from "./reader/reader.js";
import { successResult, withJson } from "./result-json.js";
import { settle } from "./runtime/async.js";
import { locate } from "./runtime/call-site.js";
import { enter, type HostTool, RunContext, type ToolCallRecord, type ToolObject } from "./runtime/context.js";
import { errorText } from "./runtime/error-text.js";
import {
  checkLedger,
  type LedgerCall,
  type LedgerEntry,
  ledgerBytes,
  ledgerTooLarge,
  type PauseBefore,
  Replay,
  unconsumedError,
} from "./runtime/ledger.js";
import { type Limits, resolveLimits } from "./runtime/limits.js";
import { Namespace } from "./runtime/namespace.js";
import { refuseUnknownRunOptions } from "./runtime/option-keys.js";
import { checkSignal } from "./runtime/signal-option.js";
import { FailSignal, RECUR, ReturnSignal } from "./runtime/signals.js";
import { isTooLargeError } from "./runtime/too-large-errors.js";
import { normalizeTools } from "./runtime/tool-options.js";
import { parameterNames } from "./runtime/tool-parameters.js";
import { Session } from "./session.js";
import { hostDataMayHaveChanged } from "./values/host-epoch.js";
import { lookup } from "./values/map-access.js";
import { isPlainObject, type PlainObject } from "./values/plain-object.js";
import { Regex } from "./values/regex.js";
import { loadRegexEngine, mayUseRegex, regexEngineLoaded } from "./values/regex-engine.js";
import { findUnreadable, type HostRoot } from "./values/unreadable-host-data.js";

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
   * closure evaluator only; the run generates no JavaScript at all and never checks whether it
   * could (the per-run switch for a page or runtime that forbids `new Function`). Where code
   * generation is switched off (`setCodeGeneration("off")`) or found to be forbidden (a strict
   * Content-Security-Policy, an edge runtime), "general" is used whatever this says.
   */
  readonly engine?: "adaptive" | "fast" | "general";
  /**
   * Cancels the run. When it fires (or has fired already), the program stops at its next
   * evaluation step, or at once while it waits on a tool, and the run resolves with reason
   * "aborted", a failure like any other (a session's defs and *1 *2 *3 stay as they were). A tool
   * that is still working is not told: give your tools the same signal to stop their work too.
   */
  readonly signal?: AbortSignal;
  /**
   * Resumes a program: the tool calls of its earlier run (a paused run's `toolCalls`, plus an
   * entry for each call it held: `{ ...call, approved: true }` to let it run, `{ ...call, error }`
   * to refuse it). Each call the program makes at a recorded position is answered from its entry
   * instead of calling the tool; a call that differs from the entry at its position ends the run
   * with "replay_diverged", as does a run that ends without making every recorded call. The
   * ledger is charged to the program's memory budget, since the run holds it throughout.
   */
  readonly ledger?: readonly LedgerEntry[];
  /**
   * Asked before each new call runs, with the arguments the tool would receive: true holds the
   * call back. The program goes on with everything that does not wait on a held call; once
   * nothing else can move, the run ends with reason "paused" and the held calls in `paused`.
   * Run the same program again with a ledger to resume it.
   */
  readonly pauseBefore?: PauseBefore;
}

export interface RunError {
  readonly reason: ErrorReason;
  readonly message: string;
  readonly line?: number;
  readonly column?: number;
  /** For reason "fail": the value the program passed to `(fail v)`. */
  readonly value?: unknown;
}

/** What a run used of the limits metered while it runs (see `Limits`). */
export interface RunUsage {
  /** `recur` jumps of loops and functions, against `maxIterations`. */
  readonly iterations: number;
  /** Bytes charged to the memory budget, against `maxMemoryBytes`. */
  readonly memoryBytes: number;
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
  /**
   * What the run used of its iteration and memory limits (its time is `durationMs`, its output
   * `prints`, its tool calls `toolCalls`). Absent only from results made where no program ran: an
   * isolated run whose worker was stopped or died.
   */
  readonly usage?: RunUsage;
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
  /**
   * Tasks the program completed before it failed, task id to result, in the order recorded; only
   * when there were some. The session does not keep them (a failed program changes nothing in
   * it), but their work did happen: a host that tries again (an agent's next turn) can seed its
   * next session with them, so that `(task "id" ...)` does not repeat a side effect.
   */
  readonly completedTasks?: Record<string, unknown>;
  /**
   * For reason "paused": the calls held back by `pauseBefore`, in the order they were reached,
   * with the arguments as the program sent them (ready to become ledger entries).
   */
  readonly paused?: readonly LedgerCall[];
}

export type RunResult = RunSuccess | RunFailure;

/**
 * Whether `engine` names an engine. Three comparisons rather than `ENGINES.has`: a host's engine
 * is a string literal, which V8 interns, so each comparison is one pointer test, where a Set
 * lookup is a call that hashes (a visible part of a short run's option check).
 */
const isEngine = (engine: unknown): boolean =>
  engine === "adaptive" || engine === "general" || engine === "fast";

/** The engine of runs that name none: "adaptive", or what PTC_LISP_ENGINE says (for work on the tiers). */
const defaultEngine: Tier = (() => {
  const chosen = environmentVariable("PTC_LISP_ENGINE");
  return isEngine(chosen) ? (chosen as Tier) : "adaptive";
})();

/**
 * The tier pure code of a run starts on. "general" is decided before the realm's setting is
 * consulted, so such a run never probes whether code generation is allowed.
 */
function tierFor(engine: RunOptions["engine"]): Tier {
  const tier = engine ?? defaultEngine;
  return tier !== "general" && codeGenerationAllowed() ? tier : "general";
}

/** Builtins a program may name (not the internal ones the analyzer inserts), for suggestions. */
let visibleBuiltins: readonly string[] | undefined;
const builtinNames = (): readonly string[] =>
  (visibleBuiltins ??= registry.names().filter((name) => registry.definition(name)?.category !== "Internal"));

// What analysis and compilation ask of the registry, made once rather than per program.
const isBuiltin = (name: string): boolean => registry.has(name);
const builtinNamed = (name: string) => registry.get(name);
const discover = (operation: string, args: readonly unknown[]) => runDiscovery(registry, operation, args);
const checkRegex = (pattern: string): string | undefined => Regex.problem(pattern);
const compileRegex = (pattern: string): unknown => Regex.compile(pattern);

const compiler = (tier: Tier) => new Compiler({ builtin: builtinNamed, tier, discovery: discover });

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

/**
 * Whether a program has more than `limit` distinct symbol and keyword names that are not builtins
 * (a symbol and a keyword of one name are two). Keywords have a set of their own, so that counting
 * one does not make a string with a ":" prefix per keyword. Asked only of programs with more than
 * `limit` name forms (the reader counts them): distinct names are at most the occurrences.
 */
function tooManySymbols(forms: readonly Form[], limit: number): boolean {
  const names = new Set<string>();
  const keywords = new Set<string>();
  const walk = (form: Form): void => {
    if (names.size + keywords.size > limit) return;
    switch (form.type) {
      case "symbol":
      case "var":
      case "quote":
        if (!registry.has(form.name)) names.add(form.name);
        break;
      case "keyword":
        if (!registry.has(form.name)) keywords.add(form.name);
        break;
      case "list":
      case "vector":
      case "map":
      case "set":
      case "fn-literal":
        for (const item of form.items) walk(item);
        break;
      default:
        break;
    }
  };
  for (const form of forms) walk(form);
  return names.size + keywords.size > limit;
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

/** The tool names of a run without tools (never changed: prepare only reads them). */
const NO_TOOLS: ReadonlySet<string> = new Set();
/** The session names of a run without a session, or whose session defined nothing yet. */
const NO_NAMES: ReadonlySet<string> = new Set();
/** The same as a list (never changed: prepare only reads it). */
const NO_NAME_LIST: readonly string[] = Object.freeze([]);

/** Stops leftovers of a finished run; made once, since an error captures a stack when made. */
const FINISHED = new LispError("timeout", "the program already finished");

/** Characters of a `(fail v)` value's text kept as the message (the value itself is kept whole). */
const FAIL_MESSAGE_CHARS = 10_000;

/** What `(fail v)`'s message says of `v`: its text, cut, and never a throw. */
function failText(value: unknown): string {
  if (typeof value === "string") return value;
  try {
    return format(value, { maxChars: FAIL_MESSAGE_CHARS });
  } catch {
    return "(a value that could not be read)";
  }
}

/**
 * `value instanceof type`, and false for a value that cannot even be asked: host code (a getter)
 * may throw anything, a revoked Proxy included, on which `instanceof` throws.
 */
function isInstance<T>(value: unknown, type: abstract new (...args: never[]) => T): value is T {
  try {
    return value instanceof type;
  } catch {
    return false;
  }
}

/**
 * Turns anything thrown while running into a RunError. `unreadable` is asked only for what is
 * none of ours: such a throw comes from host data that cannot be read, or from a bug here.
 */
function toRunError(thrown: unknown, unreadable: () => RunError | undefined): RunError {
  locate(thrown);
  if (isLispError(thrown)) {
    const data = thrown.toData();
    return thrown.reason === "fail" ? { ...data, value: thrown.value } : data;
  }
  if (isInstance(thrown, FailSignal))
    return { reason: "fail", message: failText(thrown.value), value: thrown.value };
  const host = unreadable();
  if (host !== undefined) return host;
  if (isInstance(thrown, RangeError) && /call stack/i.test(thrown.message)) {
    return {
      reason: "recursion_limit_exceeded",
      message:
        "recursion too deep for the host stack: a function that recurses too deep, or a value nested too deep to walk (host data that contains itself). Use loop/recur or reduce instead of deep recursion",
    };
  }
  // The net under the builders' own caps (runtime/too-large-errors.ts says which refusals).
  if (isTooLargeError(thrown)) {
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

/** The error of a run that cannot read `what` (the context, the program's value). */
function hostDataError(what: string, thrown: unknown): RunError {
  return {
    reason: "host_data_error",
    message: `${what} could not be read: reading it threw ${JSON.stringify(errorText(thrown))}. The host must hand in plain data (objects, arrays, strings, numbers; no getters that throw, no revoked proxies)`,
  };
}

/**
 * The host values a run's program could reach, for `findUnreadable`: the `data/` keys it names,
 * the results its tools returned, what `(budget/remaining)` returns, and what a session holds.
 */
function hostRoots(
  context: RunContext,
  dataKeys: readonly string[],
  session: Session | undefined,
): HostRoot[] {
  const roots: HostRoot[] = dataKeys.map((key) => ({
    label: `data/${key}`,
    read: () => lookup(context.data, key),
  }));
  context.toolCalls.forEach((call, index) => {
    if ("result" in call)
      roots.push({
        label: `the result of tool/${call.name} (call ${index + 1} of the run)`,
        read: () => call.result,
      });
  });
  roots.push({ label: "(budget/remaining)", read: () => context.budget });
  if (session !== undefined) {
    for (const name of session.names())
      roots.push({ label: `the session's ${name}`, read: () => session.get(name) });
    session.history().forEach((value, index) => {
      roots.push({ label: `*${index + 1}`, read: () => value });
    });
    for (const [id, value] of session.journal.list())
      roots.push({ label: `the journal's task ${JSON.stringify(id)}`, read: () => value });
  }
  return roots;
}

/** A host_data_error naming the first host value the program could reach that cannot be read. */
function unreadableHostData(roots: readonly HostRoot[]): RunError | undefined {
  const found = findUnreadable(roots);
  if (found === undefined) return undefined;
  return {
    reason: "host_data_error",
    message: `${found.path} ${found.problem}. The host's value cannot be used: leave it out of the program, or have the host hand in plain data (objects, arrays, strings, numbers)`,
  };
}

/** The options of the last run without session names, and their key text. */
let lastOptions: { tier: Tier; nesting: number; symbols: number; tools: string; text: string } | undefined;

/**
 * What, besides the text, changes what analysis makes of a program: the engine, the reader
 * limits, the tool names and the names a session defined. The common case (no session names, the
 * same limits and tool names as last time) reuses the last key text, whose hash V8 already knows.
 */
function optionsKey(tier: Tier, limits: Limits, toolsText: string, userNames: readonly string[]): string {
  const reusable = userNames.length === 0;
  const last = lastOptions;
  if (
    reusable &&
    last !== undefined &&
    last.tier === tier &&
    last.nesting === limits.maxNesting &&
    last.symbols === limits.maxSymbols &&
    last.tools === toolsText
  )
    return last.text;
  // The names as JSON, not joined: a host may name a tool "a,b" (or put the separator in it),
  // and joined names of two different sets must never read alike.
  const text = `${tier}\u0001${limits.maxNesting}\u0001${limits.maxSymbols}\u0001${toolsText}\u0001${userNames.length === 0 ? "" : JSON.stringify(userNames)}`;
  if (reusable)
    lastOptions = { tier, nesting: limits.maxNesting, symbols: limits.maxSymbols, tools: toolsText, text };
  return text;
}

/** The last tools map a run had, and its names as key text. */
let lastTools: ReadonlyMap<string, ToolObject> | undefined;
let lastToolsText = "";

/**
 * A run's tool names, sorted, as JSON text for its program's key: each name quoted, so that no
 * name holding a comma reads as two (`{"a,b" ...}` against `{a ... b ...}`). A tools object given
 * again unchanged gives the same map (tool-options.ts, normalizeTools), and no map is ever
 * changed, so the text made for the last map holds while the map is the same: an agent's runs,
 * which all have tools, then make no set, sort or string for them.
 */
function toolsKeyText(tools: ReadonlyMap<string, ToolObject>): string {
  if (tools.size === 0) return "";
  if (tools !== lastTools) {
    lastToolsText = JSON.stringify([...tools.keys()].sort().map(String));
    lastTools = tools;
  }
  return lastToolsText;
}

/** Reads, checks and compiles a program (or finds it compiled); throws LispError on any static problem. */
function prepare(
  source: string,
  limits: Limits,
  namespace: Namespace,
  tools: ReadonlyMap<string, ToolObject>,
  tier: Tier,
): CompiledProgram {
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
  // Names a session defined earlier change what symbols mean, so they are part of the key.
  const userNames = namespace.isEmpty() ? NO_NAME_LIST : namespace.names();
  const key = cacheable(source) ? optionsKey(tier, limits, toolsKeyText(tools), userNames) : undefined;
  const cached = key === undefined ? undefined : cachedProgram(source, key);
  if (cached !== undefined && cached !== SEEN_ONCE) return cached;
  // A text run before on the adaptive tier: this time every pure part runs as generated code.
  const buildTier = cached === SEEN_ONCE && tier === "adaptive" ? "fast" : tier;
  const toolNames = tools.size === 0 ? NO_TOOLS : new Set(tools.keys());
  const { forms, strayClosers, nameForms } = readProgram(source, { maxNesting: limits.maxNesting });
  if (nameForms > limits.maxSymbols && tooManySymbols(forms, limits.maxSymbols)) {
    throw new LispError(
      "symbol_limit_exceeded",
      `program contains more than ${limits.maxSymbols} unique symbols/keywords, exceeds limit of ${limits.maxSymbols}`,
    );
  }
  const analyzed = analyzeProgram(forms, {
    isBuiltin,
    builtinNames,
    userNames: userNames.length === 0 ? NO_NAMES : new Set(userNames),
    toolNames,
    // Only errors depend on it, and errors are never cached: not part of the program's key.
    toolParameters: (name) => parameterNames(tools.get(name)?.signature),
    checkRegex,
    compileRegex,
  });
  const compiled: CompiledProgram = {
    code: compileBody(buildTier, analyzed.body),
    frameSize: analyzed.frameSize,
    dataKeys: [...analyzed.dataKeys].sort(),
    warnings: strayCloserWarnings(strayClosers),
  };
  // A text's first run keeps only a mark (see SEEN_ONCE), but on the fast tier, whose
  // compilation is the costly part that a host choosing it wants to pay once.
  if (key !== undefined)
    rememberProgram(source, key, cached === undefined && tier !== "fast" ? SEEN_ONCE : compiled);
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

/** Whether `data` has `key`; a key whose reading throws counts as present (the run says why). */
function hasDataKey(data: PlainObject, key: string): boolean {
  try {
    return lookup(data, key) !== undefined;
  } catch {
    return true;
  }
}

/** A warning for each `data/` key the program reads and the context lacks. */
function dataKeyWarnings(keys: readonly string[], data: PlainObject): string[] {
  const warnings: string[] = [];
  let available: string[] | undefined;
  for (const key of keys) {
    if (hasDataKey(data, key)) continue;
    available ??= Object.keys(data).sort();
    // An empty context has no name to suggest.
    const nearest = available.length === 0 ? undefined : nearestName(key, available);
    const hint =
      nearest !== undefined
        ? `did you mean data/${nearest}?`
        : available.length === 0
          ? "the context is empty"
          : `the context has ${available
              .slice(0, MAX_KEYS_LISTED)
              .map((name) => `data/${name}`)
              .join(", ")}${available.length > MAX_KEYS_LISTED ? ", ..." : ""}`;
    warnings.push(`data/${quotedName(key)} is not in the context, so it reads as nil; ${hint}`);
  }
  return warnings;
}

/** The warnings of a run; a context whose keys cannot be listed adds none of its own. */
function runWarnings(compiled: CompiledProgram | undefined, data: PlainObject): string[] {
  if (compiled === undefined) return [];
  const fixed = compiled.warnings;
  // Most programs have nothing to say: one new array, no spreads.
  if (compiled.dataKeys.length === 0) return fixed.length === 0 ? [] : [...fixed];
  try {
    const missing = dataKeyWarnings(compiled.dataKeys, data);
    return fixed.length === 0 ? missing : [...fixed, ...missing];
  } catch {
    return [...fixed];
  }
}

/** The options a run reads, checked; bad ones throw LispError invalid_options. */
interface CheckedOptions {
  readonly limits: Limits;
  readonly tools: ReadonlyMap<string, ToolObject>;
  readonly data: PlainObject;
  /** Set when the context cannot be read: the run then fails with it. */
  readonly dataError: RunError | undefined;
  readonly signal: AbortSignal | undefined;
  readonly session: Session | undefined;
  readonly engine: RunOptions["engine"];
  readonly budget: unknown;
  readonly ledger: ReturnType<typeof checkLedger> | undefined;
  readonly pauseBefore: PauseBefore | undefined;
}

function checkOptions(source: unknown, options: RunOptions): CheckedOptions {
  if (typeof source !== "string")
    throw new LispError("invalid_options", `source must be a string, got ${typeof source}`);
  refuseUnknownRunOptions(options);
  const engine = options.engine;
  if (engine !== undefined && !isEngine(engine)) {
    throw new LispError(
      "invalid_options",
      `engine must be "adaptive", "fast" or "general", got ${String(engine)}`,
    );
  }
  const limits = resolveLimits(options.limits);
  const tools = normalizeTools(options.tools);
  const session: unknown = options.session;
  if (session !== undefined && !(session instanceof Session))
    throw new LispError("invalid_options", "session must be a Session made with createSession()");
  const context: unknown = options.context;
  let data: PlainObject = {};
  let dataError: RunError | undefined;
  try {
    data = checkContext(context);
  } catch (thrown) {
    if (isLispError(thrown)) throw thrown;
    // A revoked Proxy, a Proxy whose traps throw: the run fails, the host gets no throw.
    dataError = hostDataError("the context (the data/ namespace)", thrown);
  }
  const ledger = options.ledger === undefined ? undefined : checkLedger(options.ledger);
  const pauseBefore: unknown = options.pauseBefore;
  if (pauseBefore !== undefined && typeof pauseBefore !== "function") {
    throw new LispError(
      "invalid_options",
      `pauseBefore must be a function (call) => boolean, got ${typeof pauseBefore}`,
    );
  }
  return {
    limits,
    tools,
    data,
    dataError,
    signal: checkSignal(options.signal),
    session,
    engine,
    budget: options.budget,
    ledger,
    pauseBefore: pauseBefore as PauseBefore | undefined,
  };
}

/** What a run used of its metered limits, for hosts that show it (the playground's limit bars). */
function usageOf(context: RunContext): RunUsage {
  return { iterations: context.iterations, memoryBytes: context.memory };
}

/** A run without a session: no *1 *2 *3 (never changed: the run only reads it). */
const NO_HISTORY: readonly unknown[] = Object.freeze([]);

/**
 * What a run's `unreadable` asks for a throw that is none of ours (see toRunError). Made only on
 * the error paths: a run that ends well creates no function for it.
 */
function unreadableIn(
  context: RunContext,
  compiled: CompiledProgram | undefined,
  session: Session | undefined,
): () => RunError | undefined {
  return () => unreadableHostData(hostRoots(context, compiled?.dataKeys ?? [], session));
}

/** Ends a run that failed: its namespace and journal go back to where they were. */
function failedRun(context: RunContext, compiled: CompiledProgram | undefined, error: RunError): RunResult {
  context.dispose();
  context.namespace.rollback();
  const journal = context.journal;
  const replay = context.replay;
  const completed = journal?.recordedSinceBegin() ?? [];
  journal?.rollback();
  const durationMs = context.elapsedMs();
  if (compiled !== undefined) keepAlive(compiled.code, durationMs);
  return withJson({
    ok: false,
    error,
    ...(completed.length === 0 ? {} : { completedTasks: Object.fromEntries(completed) }),
    ...(error.reason === "paused" && replay !== undefined ? { paused: [...replay.held] } : {}),
    prints: context.prints,
    toolCalls: context.toolCalls,
    durationMs,
    warnings: runWarnings(compiled, context.data),
    usage: usageOf(context),
  });
}

/**
 * Ends a run whose program stopped with `error`. A replay that paused without making every
 * recorded call took another path, and says so instead.
 */
function endWithError(
  context: RunContext,
  compiled: CompiledProgram | undefined,
  session: Session | undefined,
  error: RunError,
): RunResult {
  context.dispose();
  const replay = context.replay;
  replay?.dispose();
  if (replay !== undefined && error.reason === "paused") {
    const missing = replay.unconsumed();
    if (missing.length > 0)
      error = toRunError(unconsumedError(missing), unreadableIn(context, compiled, session));
  }
  return failedRun(context, compiled, error);
}

/**
 * Ends a run whose program gave a value. Module functions rather than closures inside `run`, so
 * that a run allocates no functions (nor the context object V8 makes for the variables closures
 * share) unless it fails.
 */
function endWithValue(
  context: RunContext,
  compiled: CompiledProgram | undefined,
  session: Session | undefined,
  value: unknown,
  returned: boolean,
): RunResult {
  context.dispose();
  const replay = context.replay;
  replay?.dispose();
  // A replay that ended without making every recorded call took another path.
  if (replay !== undefined) {
    const missing = replay.unconsumed();
    if (missing.length > 0)
      return failedRun(
        context,
        compiled,
        toRunError(unconsumedError(missing), unreadableIn(context, compiled, session)),
      );
  }
  // Cancelled after its last step (say, by the last tool it called): the run still counts as
  // cancelled, so the host never has to wonder whether it was.
  if (context.abortReason?.reason === "aborted")
    return failedRun(
      context,
      compiled,
      toRunError(context.abortReason, unreadableIn(context, compiled, session)),
    );
  // Everything that reads the value comes before anything is kept: a value that cannot be
  // read fails the run and leaves the session as it was.
  let entry: unknown;
  try {
    entry = session?.historyEntry(value);
  } catch (thrown) {
    return failedRun(
      context,
      compiled,
      isLispError(thrown) ? thrown.toData() : hostDataError("the program's value", thrown),
    );
  }
  const durationMs = context.elapsedMs();
  if (compiled !== undefined) keepAlive(compiled.code, durationMs);
  const warnings = runWarnings(compiled, context.data);
  const usage = usageOf(context);
  const defined = context.namespace.commit();
  context.journal?.commit();
  session?.remember(entry);
  const steps = context.stepSummaries;
  const summaries = steps === undefined || steps.size === 0 ? {} : Object.fromEntries(steps);
  return successResult(
    value,
    returned,
    defined,
    summaries,
    context.prints,
    context.toolCalls,
    durationMs,
    warnings,
    usage,
  );
}

/**
 * What a held call of a resumable run stops: the run's context, once it exists (a call held
 * before that stops nothing). An object of its own rather than a closure over `run`'s variables:
 * V8 gives a function whose variables any closure captures a context object on every call, used
 * or not, and most runs have no replay.
 */
class PauseTarget {
  context: RunContext | undefined;
  readonly stop = (error: LispError): void => {
    this.context?.stop(error);
  };
}

/** Runs a PTC-Lisp program. Never rejects for a program's own failure; see RunResult. */
export async function run(source: string, options: RunOptions = {}): Promise<RunResult> {
  let checked: CheckedOptions;
  try {
    checked = checkOptions(source, options);
  } catch (thrown) {
    if (isLispError(thrown)) throw thrown;
    throw new LispError("invalid_options", `the options could not be read: ${errorText(thrown)}`, undefined, {
      cause: thrown,
    });
  }
  const { limits, tools, data, signal, session, ledger, pauseBefore } = checked;
  // Before the run starts its clock: loading RE2 is the host's one-time cost, not the program's.
  // A failed load leaves native patterns working; a pattern that needs RE2 then fails the run.
  if (!regexEngineLoaded() && mayUseRegex(source)) await loadRegexEngine().catch(() => undefined);
  const namespace = session?.namespace ?? new Namespace();
  const journal = session?.journal;
  const tier = tierFor(checked.engine);

  let compiled: CompiledProgram | undefined;
  session?.acquire();
  const pauses = ledger === undefined && pauseBefore === undefined ? undefined : new PauseTarget();
  const replay = pauses === undefined ? undefined : new Replay(ledger ?? new Map(), pauseBefore, pauses.stop);
  const context = new RunContext({
    limits,
    data,
    tools,
    namespace,
    history: session?.history() ?? NO_HISTORY,
    budget: checked.budget,
    journal,
    signal,
    replay,
    generatesCode: tier !== "general",
  });
  if (pauses !== undefined) pauses.context = context;

  try {
    namespace.begin();
    journal?.begin();
    // The host may have changed its objects since the last run: nothing read then still holds.
    hostDataMayHaveChanged();
    enter(context);
    let value: unknown;
    try {
      if (context.abortReason !== undefined) throw context.abortReason;
      if (checked.dataError !== undefined) return endWithError(context, compiled, session, checked.dataError);
      if (replay !== undefined && replay.size > 0) {
        const bytes = ledgerBytes(replay.values(), limits.maxMemoryBytes);
        if (bytes > limits.maxMemoryBytes) throw ledgerTooLarge(replay.size, limits.maxMemoryBytes);
        context.allocate(bytes);
      }
      compiled = prepare(source, limits, namespace, tools, tier);
      value = compiled.code(new Array(compiled.frameSize));
      // Raced against the deadline: a promise that never settles (one handed in as host data,
      // say) must not keep the run from ending.
      if (value instanceof Promise) value = await settle(Promise.race([value, context.interrupted()]));
    } catch (thrown) {
      if (isInstance(thrown, ReturnSignal))
        return endWithValue(context, compiled, session, thrown.value, true);
      return endWithError(
        context,
        compiled,
        session,
        toRunError(thrown, unreadableIn(context, compiled, session)),
      );
    } finally {
      // Anything this run left running (a pmap branch still waiting on a tool) stops at its next step.
      context.abortReason ??= FINISHED;
    }
    if (value === RECUR)
      return endWithError(context, compiled, session, {
        reason: "invalid_form",
        message: "recur must be in tail position",
      });
    return endWithValue(context, compiled, session, value === undefined ? null : value, false);
  } catch (thrown) {
    // Nothing above should throw; if something does, the host still gets a result, not a rejection.
    return failedRun(
      context,
      compiled,
      isLispError(thrown) ? thrown.toData() : toRunError(thrown, unreadableIn(context, compiled, session)),
    );
  } finally {
    session?.release();
  }
}
