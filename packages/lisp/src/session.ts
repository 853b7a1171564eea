/**
 * Sessions: state that lasts across programs, as in a multi-turn agent. A session keeps the user
 * namespace (def/defn/defonce), the last three results (*1 *2 *3) and the task journal. A program
 * that fails leaves all of it exactly as it was. A host can start a session from saved state
 * (`createSession(init)`), e.g. to resume an agent or to fork one.
 */

import { headOf } from "./cut-text.js";
import { isLispError, LispError } from "./errors.js";
import { print } from "./format/print.js";
import { read } from "./reader/reader.js";
import { errorText } from "./runtime/error-text.js";
import { Namespace } from "./runtime/namespace.js";
import { TaskJournal } from "./runtime/task-journal.js";
import { LispMap, type MapEntry } from "./values/lisp-map.js";
import { LispSet } from "./values/lisp-set.js";
import { pin } from "./values/pin.js";
import { isPlainObject } from "./values/plain-object.js";

/** Each remembered result keeps at most this many characters of text, as in the reference. */
const HISTORY_CHARS = 1024;
/** What a cut string ends with; it counts toward HISTORY_CHARS. */
const ELLIPSIS = "...";
/** *1, *2, *3. */
const HISTORY_SIZE = 3;

/** State to start a session with, e.g. what another session's accessors returned. */
export interface SessionInit {
  /**
   * Names bound as if each had been `def`ed, e.g. another session's `bindings()`. Functions from
   * another session stay callable, and names they refer to are looked up in this session.
   */
  readonly bindings?: Readonly<Record<string, unknown>>;
  /** *1 *2 *3, newest first (e.g. another session's `history()`); only the first three are kept. */
  readonly history?: readonly unknown[];
  /** The task journal: task id to the task's result (e.g. another session's `journalEntries()`). */
  readonly journal?: Readonly<Record<string, unknown>> | ReadonlyMap<string, unknown>;
}

export class Session {
  /** @internal */
  readonly namespace = new Namespace();
  /** @internal */
  readonly journal = new TaskJournal();
  private results: unknown[] = [];
  /** @internal */
  busy = false;

  /** Names bound by def/defn/defonce, sorted. */
  names(): string[] {
    return this.namespace.names();
  }

  /** The value bound to a name, or undefined. */
  get(name: string): unknown {
    return this.namespace.get(name);
  }

  /** All bindings, as a name-to-value record. */
  bindings(): Record<string, unknown> {
    const out: Record<string, unknown> = Object.create(null);
    for (const name of this.names()) out[name] = this.namespace.get(name);
    return out;
  }

  /** *1, *2, *3: the results of the last three successful programs, newest first. */
  history(): readonly unknown[] {
    return this.results;
  }

  /** The task journal: each `(task "id" ...)` that completed, id to result, in the order recorded. */
  journalEntries(): Record<string, unknown> {
    return Object.fromEntries(this.journal.list());
  }

  /** @internal Fills a new session with checked state (see createSession). */
  seed(init: {
    bindings: readonly [string, unknown][];
    history: readonly unknown[];
    journal: readonly [string, unknown][];
  }): void {
    for (const [name, value] of init.bindings)
      this.namespace.define(this.namespace.cell(name), pin(nilIfUndefined(value)));
    this.results = init.history.map((value) => pin(bounded(nilIfUndefined(value))));
    for (const [id, value] of init.journal) this.journal.set(id, nilIfUndefined(value));
  }

  /**
   * @internal What `*1` will hold after a program that returned `value`. It reads the value (to
   * cut it), which can throw on host data that cannot be read: run calls it before it commits
   * anything, so that a failure leaves the session as it was.
   */
  historyEntry(value: unknown): unknown {
    return pin(bounded(value));
  }

  /** @internal Called by run when a program succeeds, with its `historyEntry`. */
  remember(entry: unknown): void {
    this.results = [entry, ...this.results].slice(0, HISTORY_SIZE);
  }

  /** @internal Marks the session as running a program; two programs may not interleave on it. */
  acquire(): void {
    if (this.busy) {
      throw new LispError(
        "invalid_options",
        "this session is already running a program: await it before starting the next one",
      );
    }
    this.busy = true;
  }

  /** @internal */
  release(): void {
    this.busy = false;
  }
}

/**
 * Keeps a remembered value small: long strings are cut, large vectors, maps and sets are cut to
 * the first items (a map's entries in printed order) that fit in HISTORY_CHARS of text, as the
 * reference does. Without this, a program could keep three whole maps of any size alive across
 * programs through *1 *2 *3.
 */
function bounded(value: unknown): unknown {
  if (typeof value === "string")
    return value.length > HISTORY_CHARS
      ? `${headOf(value, HISTORY_CHARS - ELLIPSIS.length)}${ELLIPSIS}`
      : value;
  const isMap = value instanceof LispMap;
  if (!Array.isArray(value) && !isMap && !(value instanceof LispSet)) return value;
  if (print(value, { maxChars: HISTORY_CHARS + 1 }).length <= HISTORY_CHARS) return value;
  if (Array.isArray(value)) return itemsThatFit(value, "[]".length, textLength);
  if (isMap) return LispMap.from(itemsThatFit(value.entries(), "{}".length, entryLength));
  return LispSet.from(itemsThatFit((value as LispSet).members(), "#{}".length, textLength));
}

/** The first items whose text (each with one separator) fits with `opening` in HISTORY_CHARS. */
function itemsThatFit<T>(items: Iterable<T>, opening: number, length: (item: T) => number): T[] {
  const kept: T[] = [];
  let size = opening;
  for (const item of items) {
    size += length(item) + 1;
    if (size > HISTORY_CHARS) break;
    kept.push(item);
  }
  return kept;
}

const textLength = (item: unknown): number => print(item, { maxChars: HISTORY_CHARS }).length;
const entryLength = ([key, value]: MapEntry): number => textLength(key) + 1 + textLength(value);

/** A host value as a program value: `undefined` is nil, as for tool results. */
const nilIfUndefined = (value: unknown): unknown => (value === undefined ? null : value);

/** Whether `name` reads as one plain symbol that `def` could bind. */
function isBindableName(name: string): boolean {
  try {
    const forms = read(name);
    const form = forms[0];
    return (
      forms.length === 1 &&
      form?.type === "symbol" &&
      form.name === name &&
      (name === "/" || !name.includes("/"))
    );
  } catch {
    return false;
  }
}

function checkInit(init: unknown): {
  bindings: [string, unknown][];
  history: unknown[];
  journal: [string, unknown][];
} {
  if (init !== undefined && !isPlainObject(init)) {
    throw new LispError(
      "invalid_options",
      "createSession takes an optional plain object { bindings, history, journal }",
    );
  }
  const { bindings, history, journal } = (init ?? {}) as Record<string, unknown>;
  for (const key of Object.keys(init ?? {})) {
    if (key !== "bindings" && key !== "history" && key !== "journal") {
      throw new LispError(
        "invalid_options",
        `unknown createSession option "${key}"; the options are bindings, history and journal`,
      );
    }
  }
  if (bindings !== undefined && !isPlainObject(bindings)) {
    throw new LispError(
      "invalid_options",
      "bindings must be a plain object of name to value (e.g. another session's bindings())",
    );
  }
  const bindingEntries = Object.entries(bindings ?? {});
  for (const [name] of bindingEntries) {
    if (!isBindableName(name)) {
      throw new LispError(
        "invalid_options",
        `binding name ${JSON.stringify(name)} is not a plain symbol name that def could bind (no spaces, no namespace, not a literal such as nil)`,
      );
    }
  }
  if (history !== undefined && !Array.isArray(history)) {
    throw new LispError(
      "invalid_options",
      "history must be an array of results, newest first (e.g. another session's history())",
    );
  }
  let journalEntries: [string, unknown][];
  if (journal === undefined) journalEntries = [];
  else if (journal instanceof Map) {
    journalEntries = [...journal.entries()];
    const bad = journalEntries.find(([id]) => typeof id !== "string");
    if (bad !== undefined) {
      throw new LispError("invalid_options", `journal task ids must be strings, got ${typeof bad[0]}`);
    }
  } else if (isPlainObject(journal)) journalEntries = Object.entries(journal);
  else {
    throw new LispError(
      "invalid_options",
      "journal must be a plain object or a Map of task id to result (e.g. another session's journalEntries())",
    );
  }
  return {
    bindings: bindingEntries,
    history: (history ?? []).slice(0, HISTORY_SIZE),
    journal: journalEntries,
  };
}

/**
 * A new session, empty or seeded from `init` (checked first: bad input throws a LispError with
 * code PTC_LISP_INVALID_OPTIONS, state that cannot be read one with PTC_LISP_HOST_DATA_ERROR, and
 * no session is made).
 */
export function createSession(init?: SessionInit): Session {
  try {
    const checked = checkInit(init);
    const session = new Session();
    session.seed(checked);
    return session;
  } catch (error) {
    if (isLispError(error)) throw error;
    // A getter that throws, a revoked Proxy: the state handed in cannot be read.
    throw new LispError(
      "host_data_error",
      `createSession could not read the state it was given: reading it threw ${JSON.stringify(errorText(error))}. Pass plain data (objects, arrays, strings, numbers)`,
      undefined,
      { cause: error },
    );
  }
}
