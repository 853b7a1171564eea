/**
 * Where the values of a combined-mode run came from, so that the model never reads a value of a
 * tool whose preview policy shows none (hidden-tools.ts) unless a program returns or prints it.
 *
 * The unit is the binding. A top-level form is _hidden_ when it mentions a hidden tool, a hidden
 * binding, `*1`-`*3` holding a hidden program's value, `data/fail` after a hidden program failed,
 * or `task` once the journal holds hidden values; every name it defines is then hidden. A binding
 * also remembers the names its form read, because a function reads its globals when it is called:
 * `(defn f [] rows)` is hidden as soon as `rows` is. So `(def n (count rows))` and
 * `(def big (filter ... rows))` are hidden like `rows`: the agent tracks where a value was computed
 * from, not what the computation kept. A hidden binding's memory preview shows its shape only,
 * and a hidden program's error message has its values taken out (redact-values.ts).
 *
 * It decides from the program's text (program-reads.ts) and, as a backstop, from the tool calls
 * the program actually made: a program that called a hidden tool without naming it hides all it
 * defined.
 */
import { normalizeKey } from "@ptc/tool";
import type { ToolCallRecord } from "../step/step-types.js";
import { programReads } from "./program-reads.js";

interface BindingOrigin {
  /** Defined by a hidden form. */
  readonly hidden: boolean;
  /** The names its form mentioned, read again whenever it is asked about (functions read late). */
  readonly reads: ReadonlySet<string>;
}

/** What one program did with hidden data. */
export interface ProgramOrigins {
  /** It read hidden data: its error message must not quote values. */
  readonly hidden: boolean;
  /** Where each name it may define comes from. */
  readonly definitions: ReadonlyMap<string, BindingOrigin>;
  /** A hidden form of it ran `task`: the journal now holds hidden values. */
  readonly journalsHidden: boolean;
  /** Results of the hidden tools it called: what its error message must not quote. */
  readonly hiddenResults: readonly unknown[];
}

const HISTORY = ["*1", "*2", "*3"];

/** What a DataProvenance knows, as JSON data (a paused run's state carries it). */
export interface ProvenanceSnapshot {
  readonly bindings: Readonly<
    Record<string, { readonly hidden: boolean; readonly reads: readonly string[] }>
  >;
  readonly history: readonly boolean[];
  readonly journalHidden: boolean;
  readonly failHidden: boolean;
}

export class DataProvenance {
  private readonly bindings = new Map<string, BindingOrigin>();
  /** Whether `*1`, `*2`, `*3` hold a hidden program's value. */
  private history: boolean[] = [];
  private journalHidden = false;
  private failHidden = false;

  constructor(private readonly hiddenTools: ReadonlySet<string>) {}

  snapshot(): ProvenanceSnapshot {
    const bindings: Record<string, { hidden: boolean; reads: string[] }> = {};
    for (const [name, origin] of this.bindings) {
      Object.defineProperty(bindings, name, {
        value: { hidden: origin.hidden, reads: [...origin.reads] },
        enumerable: true,
      });
    }
    return {
      bindings,
      history: [...this.history],
      journalHidden: this.journalHidden,
      failHidden: this.failHidden,
    };
  }

  /**
   * A provenance that knows what a snapshot says. A snapshot that is not one restores nothing of
   * it: every binding it would have named is then shown as data, so it is read field by field.
   */
  static restore(hiddenTools: ReadonlySet<string>, snapshot: ProvenanceSnapshot | undefined): DataProvenance {
    const provenance = new DataProvenance(hiddenTools);
    if (snapshot === undefined || typeof snapshot !== "object" || snapshot === null) return provenance;
    const bindings =
      typeof snapshot.bindings === "object" && snapshot.bindings !== null ? snapshot.bindings : {};
    for (const [name, origin] of Object.entries(bindings)) {
      const reads = Array.isArray(origin?.reads)
        ? origin.reads.filter((read) => typeof read === "string")
        : [];
      // Unreadable means hidden: keeping data from the model is the safe side.
      provenance.bindings.set(name, { hidden: origin?.hidden !== false, reads: new Set(reads) });
    }
    if (Array.isArray(snapshot.history))
      provenance.history = snapshot.history.map((hidden) => hidden !== false);
    provenance.journalHidden = snapshot.journalHidden !== false;
    provenance.failHidden = snapshot.failHidden !== false;
    return provenance;
  }

  /** Reads a program after it ran (whatever its outcome), before anything of it is shown. */
  assess(source: string, toolCalls: readonly ToolCallRecord[]): ProgramOrigins {
    const hiddenCalls = toolCalls.filter((call) => this.hiddenTools.has(normalizeKey(call.name)));
    const hiddenResults = hiddenCalls.flatMap((call) => (Object.hasOwn(call, "result") ? [call.result] : []));
    const forms = programReads(source);
    const definitions = new Map<string, BindingOrigin>();
    // A program that does not read never ran: it has nothing to hide.
    if (forms === undefined) {
      return { hidden: hiddenCalls.length > 0, definitions, journalsHidden: false, hiddenResults };
    }
    const known = new Map(this.bindings);
    let anyHidden = false;
    let journalsHidden = false;
    for (const form of forms) {
      const hidden = [...form.mentions].some((name) => this.mentionsHidden(name, known));
      anyHidden ||= hidden;
      if (hidden && form.mentions.has("task")) journalsHidden = true;
      for (const name of form.defines) {
        const before = known.get(name);
        // `defonce` may keep the value the name had: it stays as hidden as it was.
        const origin =
          before !== undefined && form.definesOnce.has(name)
            ? {
                hidden: hidden || this.isHidden(name, known, new Set()),
                reads: new Set([...before.reads, ...form.mentions]),
              }
            : { hidden, reads: form.mentions };
        known.set(name, origin);
        definitions.set(name, origin);
      }
    }
    if (hiddenCalls.length > 0 && !anyHidden) {
      // The text did not show how it reached the hidden tool; everything it defined is suspect.
      for (const [name, origin] of definitions) definitions.set(name, { ...origin, hidden: true });
      journalsHidden = forms.some((form) => form.mentions.has("task"));
      anyHidden = true;
    }
    return { hidden: anyHidden, definitions, journalsHidden, hiddenResults };
  }

  /** Keeps the origins of a program whose memory the run keeps. */
  commitSuccess(origins: ProgramOrigins, defined: readonly string[], historyAdvanced: boolean): void {
    for (const name of defined) {
      this.bindings.set(
        name,
        origins.definitions.get(name) ?? { hidden: origins.hidden, reads: new Set<string>() },
      );
    }
    if (historyAdvanced) this.history = [origins.hidden, ...this.history].slice(0, HISTORY.length);
    this.failHidden = false;
  }

  /** A program that failed: its error is what the next program reads as `data/fail`. */
  commitFailure(origins: ProgramOrigins): void {
    this.failHidden = origins.hidden;
  }

  /** The run keeps a program's journal whatever its outcome, so it learns what the journal holds at once. */
  keepJournal(origins: ProgramOrigins): void {
    this.journalHidden ||= origins.journalsHidden;
  }

  /** The bindings whose memory previews must show shape only. */
  shapeOnly(names: Iterable<string>): ReadonlySet<string> {
    const hidden = new Set<string>();
    for (const name of names) if (this.isHidden(name, this.bindings, new Set())) hidden.add(name);
    return hidden;
  }

  /** The values of hidden bindings, which an error message must not quote either. */
  hiddenValues(memory: Readonly<Record<string, unknown>>): unknown[] {
    return Object.keys(memory)
      .filter((name) => this.isHidden(name, this.bindings, new Set()))
      .map((name) => memory[name]);
  }

  private mentionsHidden(name: string, known: ReadonlyMap<string, BindingOrigin>): boolean {
    if (name.startsWith("tool/")) return this.hiddenTools.has(normalizeKey(name.slice("tool/".length)));
    const slot = HISTORY.indexOf(name);
    if (slot >= 0) return this.history[slot] === true;
    if (name === "data/fail") return this.failHidden;
    if (name === "task") return this.journalHidden;
    return this.isHidden(name, known, new Set());
  }

  private isHidden(name: string, known: ReadonlyMap<string, BindingOrigin>, visiting: Set<string>): boolean {
    const origin = known.get(name);
    if (origin === undefined || visiting.has(name)) return false;
    if (origin.hidden) return true;
    visiting.add(name);
    for (const read of origin.reads) {
      if (read !== name && this.mentionsHiddenRead(read, known, visiting)) return true;
    }
    return false;
  }

  /** A name a binding's form read, asked about again now: bindings recursively, the rest as mentions. */
  private mentionsHiddenRead(
    name: string,
    known: ReadonlyMap<string, BindingOrigin>,
    visiting: Set<string>,
  ): boolean {
    return known.has(name) ? this.isHidden(name, known, visiting) : this.mentionsHidden(name, known);
  }
}
