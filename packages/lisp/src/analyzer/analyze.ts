/**
 * The analyzer: forms to core nodes (ast.ts). It expands macros, resolves every name, lays out
 * frame slots and captures, and runs the static checks before anything executes:
 * unknown names (all of them, reported together), unknown tools, malformed special forms, recur
 * outside tail position, nested #(). It never evaluates user code.
 *
 * This file holds the core: literals, symbol resolution and the dispatch of lists. The special
 * forms are analyzed in their own modules (special-forms.ts routes to them), which call back
 * through the FormAnalyzer interface.
 */

import { resolveNamespaced } from "../builtins/namespaces.js";
import { LispError } from "../errors.js";
import { quotedName } from "../quoted-text.js";
import { type CollectionForm, describeForm, type Form, type Position } from "../reader/form.js";
import { hashKey } from "../values/hash-key.js";
import { Keyword } from "../values/keyword.js";
import { LispMap } from "../values/lisp-map.js";
import { LispSet } from "../values/lisp-set.js";
import { QuotedSymbol } from "../values/quoted-symbol.js";
import type { Node } from "./ast.js";
import { analyzeConstructor, analyzeMethodCall, analyzeNamespacedCall } from "./calls.js";
import { simplifyComparator } from "./comparators.js";
import { collectDefinedNames } from "./def-forms.js";
import type { FormAnalyzer } from "./form-analyzer.js";
import { fuseGroupTotals, GROUP_TOTALS } from "./group-totals.js";
import { CORE_PREFIX, MACROS, restartGensyms } from "./macros.js";
import { nearestName } from "./nearest-name.js";
import { fusePipeline, LAZY_PIPELINE } from "./pipelines.js";
import { FunctionScope, type Place, Scope } from "./scope.js";
import { expandShortFn } from "./short-fn.js";
import { fuseSortedTake, TAKE_SORTED } from "./sorted-take.js";
import { analyzeSpecialForm, SPECIAL_FORM_NAMES, UNSHADOWABLE } from "./special-forms.js";

export interface AnalyzerEnvironment {
  /** Whether a builtin of this name exists. */
  readonly isBuiltin: (name: string) => boolean;
  /** Every builtin's name, for "did you mean" suggestions; none are suggested without it. */
  readonly builtinNames?: () => Iterable<string>;
  /** Names already defined in the session (earlier programs). */
  readonly userNames: ReadonlySet<string>;
  /**
   * Tools the program may call; calling any other is a static error. A name written with `-`
   * where the tool has `_` (or the other way round) resolves to it when only one tool matches.
   */
  readonly toolNames: ReadonlySet<string>;
  /** A tool's parameter names, when known: advice about a call names them. */
  readonly toolParameters?: (tool: string) => readonly string[] | undefined;
  /** Regex compilation check for literals; returns an error message or undefined. */
  readonly checkRegex?: (source: string) => string | undefined;
  /**
   * The value of a regex literal that passed `checkRegex`. When given, a literal is compiled once,
   * here, and is a constant of the program; otherwise it is a call of re-pattern.
   */
  readonly compileRegex?: (source: string) => unknown;
}

export interface AnalyzedProgram {
  readonly body: Node;
  readonly frameSize: number;
  /** `data/` keys the program reads (hosts may load only these). */
  readonly dataKeys: ReadonlySet<string>;
  /** Tools the program can call, by their names in `toolNames`. */
  readonly toolsUsed: ReadonlySet<string>;
}

/** Named constants, written with or without their Java class (as in the reference). */
const CONSTANTS: ReadonlyMap<string, number> = new Map([
  ["Double/POSITIVE_INFINITY", Number.POSITIVE_INFINITY],
  ["Double/NEGATIVE_INFINITY", Number.NEGATIVE_INFINITY],
  ["Double/NaN", Number.NaN],
  ["POSITIVE_INFINITY", Number.POSITIVE_INFINITY],
  ["NEGATIVE_INFINITY", Number.NEGATIVE_INFINITY],
  ["NaN", Number.NaN],
]);

function isPlaceholder(name: string): boolean {
  // Most names are not: the first character settles it before any pattern runs.
  if (name.charCodeAt(0) !== 37 /* % */) return false;
  return name === "%" || name === "%&" || /^%[0-9]+$/.test(name);
}

function splitNamespace(name: string): [string, string] | undefined {
  const slash = name.indexOf("/");
  if (slash <= 0 || slash === name.length - 1) return undefined;
  return [name.slice(0, slash), name.slice(slash + 1)];
}

/** How a tool name is compared when it is not found as written: `-` and `_` alike. */
function toolKey(name: string): string {
  return name.replaceAll("-", "_");
}

interface Unbound {
  readonly position: Position;
  /** The nearest name in scope where the symbol was used, if one is close. */
  readonly suggestion: string | undefined;
}

class Analyzer implements FormAnalyzer {
  private readonly unbound = new Map<string, Unbound>();
  /** Names defined by earlier programs of the session, and by this one's def forms. */
  private readonly sessionNames: ReadonlySet<string>;
  private readonly definedHere: ReadonlySet<string>;
  readonly dataKeys = new Set<string>();
  readonly toolsUsed = new Set<string>();
  /** Whether calls may become lazy pipelines (the internal builtin exists); asked once, not per call. */
  private readonly pipelines: boolean;
  /** Whether group-by's groups may be summed in one pass (analyzer/group-totals.ts). */
  private readonly groupTotals: boolean;
  /** Whether `(take n (sort-by ...))` may sort only its first n items (analyzer/sorted-take.ts). */
  private readonly sortedTakes: boolean;

  constructor(
    private readonly environment: AnalyzerEnvironment,
    definedHere: ReadonlySet<string>,
  ) {
    this.sessionNames = environment.userNames;
    this.definedHere = definedHere;
    this.pipelines = environment.isBuiltin(LAZY_PIPELINE);
    this.groupTotals = environment.isBuiltin(GROUP_TOTALS);
    this.sortedTakes = environment.isBuiltin(TAKE_SORTED);
  }

  /** A var of the session, or one this program defines. */
  private isUserName(name: string): boolean {
    return this.definedHere.has(name) || this.sessionNames.has(name);
  }

  finish(): void {
    if (this.unbound.size === 0) return;
    const names = [...this.unbound.keys()].sort();
    const first = (this.unbound.get(names[0] as string) as Unbound).position;
    const described = names.map((name) => {
      const suggestion = this.unbound.get(name)?.suggestion;
      const shown = quotedName(name);
      return suggestion === undefined ? shown : `${shown} (did you mean ${quotedName(suggestion)}?)`;
    });
    const message =
      names.length === 1
        ? `Undefined variable: ${described[0]}`
        : `Undefined variables: ${described.join(", ")}`;
    throw new LispError(
      "unbound_var",
      `${message}. Define it with (def name value) or bind it with let; data is read as data/key and tools are called as (tool/name {...})`,
      first,
    );
  }

  // ------------------------------------------------------------------ entry points

  analyze(form: Form, place: Place): Node {
    switch (form.type) {
      case "nil":
        return { kind: "const", value: null, position: form };
      case "boolean":
      case "number":
      case "string":
        return { kind: "const", value: form.value, position: form };
      case "keyword":
        return { kind: "const", value: Keyword.of(form.name), position: form };
      case "regex":
        return this.analyzeRegex(form.source, form);
      case "quote":
        return { kind: "const", value: new QuotedSymbol(form.name), position: form };
      case "var":
        return this.analyzeVarRef(form.name, form);
      case "symbol":
        return this.analyzeSymbol(form.name, form, place);
      case "vector":
        return { kind: "vector", items: form.items.map((item) => this.value(item, place)), position: form };
      case "set":
        return { kind: "set", items: form.items.map((item) => this.value(item, place)), position: form };
      case "map": {
        const entries: Array<readonly [Node, Node]> = [];
        for (let i = 0; i < form.items.length; i += 2) {
          entries.push([
            this.value(form.items[i] as Form, place),
            this.value(form.items[i + 1] as Form, place),
          ]);
        }
        return this.constantMap(entries, form) ?? { kind: "map", entries, position: form };
      }
      case "fn-literal":
        return this.analyze(expandShortFn(form), place);
      case "list":
        return this.analyzeList(form, place);
    }
  }

  /** A form that is not in tail position. */
  value(form: Form, place: Place): Node {
    return this.analyze(form, place.recur === undefined ? place : { ...place, recur: undefined });
  }

  valueIn(form: Form, scope: Scope, place: Place): Node {
    return this.analyze(form, { ...place, scope, recur: undefined });
  }

  /** A body of forms: the last one inherits tail position. */
  body(forms: readonly Form[], position: Position, place: Place): Node {
    if (forms.length === 0) return { kind: "const", value: null, position };
    if (forms.length === 1) return this.analyze(forms[0] as Form, place);
    return {
      kind: "do",
      body: forms.map((item, index) =>
        index === forms.length - 1 ? this.analyze(item, place) : this.value(item, place),
      ),
      position,
    };
  }

  /** Literal maps with only constant keys are still built at run time (see compile), but a map
   * with duplicate constant keys collapses silently, as in the reference: keep the last value. */
  private constantMap(entries: Array<readonly [Node, Node]>, position: Position): Node | undefined {
    const seen = new Map<unknown, number>();
    let duplicates = false;
    entries.forEach(([key], index) => {
      if (key.kind !== "const") return;
      const hash = hashKey(key.value);
      if (seen.has(hash)) duplicates = true;
      seen.set(hash, index);
    });
    if (!duplicates) return undefined;
    // `{:a 1 :a 2}` is {:a 1} in the reference: the first occurrence wins.
    const kept: Array<readonly [Node, Node]> = [];
    const used = new Set<unknown>();
    for (const entry of entries) {
      if (entry[0].kind === "const") {
        const hash = hashKey(entry[0].value);
        if (used.has(hash)) continue;
        used.add(hash);
      }
      kept.push(entry);
    }
    return { kind: "map", entries: kept, position };
  }

  private analyzeRegex(source: string, position: Position): Node {
    const problem = this.environment.checkRegex?.(source);
    if (problem !== undefined) {
      throw new LispError(
        "invalid_form",
        `invalid regex literal #"${quotedName(source)}": ${problem}`,
        position,
      );
    }
    const compile = this.environment.compileRegex;
    if (compile !== undefined) return { kind: "const", value: compile(source), position };
    return {
      kind: "call",
      callee: { kind: "builtin", name: "re-pattern", position },
      args: [{ kind: "const", value: source, position }],
      position,
    };
  }

  private analyzeVarRef(name: string, position: Position): Node {
    if (this.isUserName(name)) return { kind: "var", name, position };
    if (this.environment.isBuiltin(name)) return { kind: "builtin", name, position };
    this.recordUnbound(name, position, undefined);
    return { kind: "const", value: null, position };
  }

  /** Remembers an unknown name (reported by `finish`, all at once) with the nearest known one. */
  private recordUnbound(name: string, position: Position, scope: Scope | undefined): void {
    if (this.unbound.has(name)) return;
    const candidates = [
      ...(scope?.visibleNames() ?? []),
      ...this.sessionNames,
      ...this.definedHere,
      ...(this.environment.builtinNames?.() ?? []),
    ];
    this.unbound.set(name, { position, suggestion: nearestName(name, candidates) });
  }

  // ------------------------------------------------------------------ symbols

  private analyzeSymbol(name: string, position: Position, place: Place): Node {
    if (name.startsWith(CORE_PREFIX)) return { kind: "builtin", name: name.slice(1), position };
    const local = place.scope.lookup(name);
    if (local !== undefined) return { kind: "local", slot: place.scope.fn.slotOf(local), name, position };
    if (isPlaceholder(name)) {
      throw new LispError(
        "invalid_placeholder",
        `${name} can only be used inside #(...); write (fn [x] ...) to name the parameter`,
        position,
      );
    }
    if (name === "*1" || name === "*2" || name === "*3") {
      return { kind: "history", index: Number(name.slice(1)) as 1 | 2 | 3, position };
    }
    const namespaced = splitNamespace(name);
    if (namespaced !== undefined) return this.analyzeNamespaced(namespaced[0], namespaced[1], position);
    if (this.isUserName(name)) return { kind: "var", name, position };
    if (this.environment.isBuiltin(name)) return { kind: "builtin", name, position };
    const constant = CONSTANTS.get(name);
    if (constant !== undefined) return { kind: "const", value: constant, position };
    if (SPECIAL_FORM_NAMES.has(name) || MACROS.has(name)) {
      throw new LispError(
        "invalid_form",
        `${name} is a special form and cannot be used as a value; call it as (${name} ...)`,
        position,
      );
    }
    this.recordUnbound(name, position, place.scope);
    return { kind: "const", value: null, position };
  }

  private analyzeNamespaced(ns: string, member: string, position: Position): Node {
    switch (ns) {
      case "data":
        this.dataKeys.add(member);
        return { kind: "data", key: member, position };
      case "tool":
        return {
          kind: "call",
          callee: { kind: "builtin", name: "tool-callable", position },
          args: [{ kind: "const", value: this.resolveTool(member, position), position }],
          position,
        };
      case "budget":
        if (member === "remaining") {
          throw new LispError(
            "invalid_form",
            "budget/remaining is a function: call it as (budget/remaining)",
            position,
          );
        }
        throw new LispError(
          "invalid_form",
          `Unknown budget function: budget/${member}. Available: budget/remaining`,
          position,
        );
      default: {
        const constant = CONSTANTS.get(`${ns}/${member}`);
        if (constant !== undefined) return { kind: "const", value: constant, position };
        const resolved = resolveNamespaced(ns, member, this.environment.isBuiltin);
        if (resolved.kind === "error") throw new LispError("invalid_form", resolved.message, position);
        return { kind: "builtin", name: resolved.name, position };
      }
    }
  }

  toolParameters(name: string): readonly string[] | undefined {
    return this.environment.toolParameters?.(name);
  }

  resolveTool(name: string, position: Position): string {
    const tools = this.environment.toolNames;
    if (tools.has(name)) {
      this.toolsUsed.add(name);
      return name;
    }
    // A model writes (tool/list-orders ...) for list_orders: one tool with that spelling is it.
    const key = toolKey(name);
    const matches = [...tools].filter((tool) => toolKey(tool) === key).sort();
    if (matches.length === 1) {
      const resolved = matches[0] as string;
      this.toolsUsed.add(resolved);
      return resolved;
    }
    if (matches.length > 1) {
      throw new LispError(
        "unknown_tool",
        `Unknown tool: ${quotedName(name)}. Several tools differ from it only in - and _: ${matches.map((tool) => `tool/${tool}`).join(", ")}; write the exact name`,
        position,
      );
    }
    const available = [...tools].sort().join(", ");
    const nearest = nearestName(name, [...tools].sort());
    throw new LispError(
      "unknown_tool",
      `Unknown tool: ${quotedName(name)}.${nearest === undefined ? "" : ` Did you mean tool/${nearest}?`} Available tools: ${available === "" ? "(none)" : available}`,
      position,
    );
  }

  /**
   * A bare symbol that names nothing, or a user var. As a direct operand of `or` it reads as nil
   * while unbound instead of failing, as in the reference, so `(or saved-state {})` works on a
   * session's first program, before `(def saved-state ...)` has run.
   */
  isSoftSymbol(form: Form, place: Place): boolean {
    if (form.type !== "symbol") return false;
    const name = form.name;
    if (place.scope.lookup(name) !== undefined) return false;
    if (this.isUserName(name)) return true;
    return (
      !isPlaceholder(name) &&
      splitNamespace(name) === undefined &&
      !this.environment.isBuiltin(name) &&
      !CONSTANTS.has(name) &&
      !SPECIAL_FORM_NAMES.has(name) &&
      !MACROS.has(name) &&
      name !== "*1" &&
      name !== "*2" &&
      name !== "*3"
    );
  }

  // ------------------------------------------------------------------ lists

  private analyzeList(form: CollectionForm, place: Place): Node {
    const items = form.items;
    const head = items[0];
    if (head === undefined) {
      throw new LispError(
        "invalid_form",
        "Empty list is not a valid expression; write [] for an empty vector",
        form,
      );
    }
    if (head.type === "symbol") {
      const raw = head.name;
      const isCore = raw.startsWith(CORE_PREFIX);
      const name = isCore ? raw.slice(1) : raw;
      const shadowed = !isCore && !UNSHADOWABLE.has(name) && place.scope.lookup(name) !== undefined;
      if (!shadowed) {
        if (SPECIAL_FORM_NAMES.has(name)) return analyzeSpecialForm(this, name, items.slice(1), form, place);
        const macro = MACROS.get(name);
        if (macro !== undefined) return this.analyze(macro(items.slice(1), form), place);
        const namespaced = splitNamespace(name);
        if (namespaced !== undefined) {
          const special = analyzeNamespacedCall(
            this,
            namespaced[0],
            namespaced[1],
            items.slice(1),
            form,
            place,
          );
          if (special !== undefined) return special;
        }
        if (name.length > 1 && name.startsWith("."))
          return analyzeMethodCall(this, name, items.slice(1), form, place);
        if (name.length > 1 && name.endsWith(".") && !name.startsWith("."))
          return analyzeConstructor(this, name, items.slice(1), form, place);
      }
    }
    const callee = this.value(head, place);
    if (
      callee.kind === "const" &&
      !(callee.value instanceof Keyword) &&
      !(callee.value instanceof LispSet) &&
      !(callee.value instanceof LispMap) &&
      callee.value !== null
    ) {
      throw new LispError(
        "not_callable",
        `not callable: ${describeForm(head)} is not a function; to build a list write [${describeForm(head)} ...]`,
        head,
      );
    }
    // A plain call's arguments are analyzed straight from the list (no copy of its tail).
    const args = new Array<Node>(items.length - 1);
    for (let i = 1; i < items.length; i++) args[i - 1] = this.value(items[i] as Form, place);
    let call = simplifyComparator({ kind: "call", callee, args, position: form });
    if (this.groupTotals) call = fuseGroupTotals(call) ?? call;
    if (this.sortedTakes) call = fuseSortedTake(call) ?? call;
    if (!this.pipelines) return call;
    return fusePipeline(call) ?? call;
  }
}

/**
 * Analyzes a whole program (its top-level forms, in order) for a fresh top-level frame.
 * Throws LispError on the first static problem.
 */
export function analyzeProgram(forms: readonly Form[], environment: AnalyzerEnvironment): AnalyzedProgram {
  restartGensyms();
  const defined = new Set<string>();
  collectDefinedNames(forms, defined);
  const analyzer = new Analyzer(environment, defined);
  const top = new FunctionScope(null);
  const scope = new Scope(null, top);
  const place: Place = { scope, recur: undefined, inShortFn: false };
  const position = forms[0] ?? { line: 1, column: 1 };
  const body: Node =
    forms.length === 0
      ? { kind: "const", value: null, position }
      : forms.length === 1
        ? analyzer.analyze(forms[0] as Form, place)
        : { kind: "do", body: forms.map((form) => analyzer.analyze(form, place)), position };
  analyzer.finish();
  return { body, frameSize: top.frameSize, dataKeys: analyzer.dataKeys, toolsUsed: analyzer.toolsUsed };
}
