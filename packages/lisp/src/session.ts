/**
 * Sessions: state that lasts across programs, as in a multi-turn agent. A session keeps the user
 * namespace (def/defn/defonce), the last three results (*1 *2 *3) and the task journal. A program
 * that fails leaves all of it exactly as it was.
 */
import { LispError } from "./errors.js";
import { print } from "./format/print.js";
import { Namespace } from "./runtime/namespace.js";
import { pin } from "./values/pin.js";

/** Each remembered result keeps about this many characters of text, as in the reference. */
const HISTORY_CHARS = 1024;

export class Session {
  /** @internal */
  readonly namespace = new Namespace();
  /** @internal */
  readonly journal = new Map<string, unknown>();
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

  /** @internal Called by run when a program succeeds. */
  remember(value: unknown): void {
    this.results = [pin(bounded(value)), ...this.results].slice(0, 3);
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

/** Keeps a remembered value small: long strings are cut, large collections are cut to a prefix. */
function bounded(value: unknown): unknown {
  if (typeof value === "string")
    return value.length > HISTORY_CHARS ? `${value.slice(0, HISTORY_CHARS)}...` : value;
  if (Array.isArray(value) && print(value, { maxChars: HISTORY_CHARS + 1 }).length > HISTORY_CHARS) {
    const kept: unknown[] = [];
    let size = 2;
    for (const item of value) {
      size += print(item, { maxChars: HISTORY_CHARS }).length + 1;
      if (size > HISTORY_CHARS) break;
      kept.push(item);
    }
    return kept;
  }
  return value;
}

export function createSession(): Session {
  return new Session();
}
