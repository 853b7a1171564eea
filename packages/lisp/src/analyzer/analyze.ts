/**
 * The analyzer: forms to core nodes (ast.ts). It expands macros, resolves every name, lays out
 * frame slots and captures, and runs the static checks of spec §12 before anything executes:
 * unknown names (all of them, reported together), unknown tools, malformed special forms, recur
 * outside tail position, nested #(). It never evaluates user code.
 */

import { resolveNamespaced } from "../builtins/namespaces.js";
import { type ErrorReason, LispError } from "../errors.js";
import { type CollectionForm, describeForm, type Form, isSymbol, type Position } from "../reader/form.js";
import { hashKey } from "../values/hash-key.js";
import { Keyword } from "../values/keyword.js";
import { LispMap } from "../values/lisp-map.js";
import { LispSet } from "../values/lisp-set.js";
import { QuotedSymbol } from "../values/quoted-symbol.js";
import type { Binding, Node, Pattern, RecurTarget } from "./ast.js";
import { analyzeIteration } from "./iteration.js";
import { CORE_PREFIX, MACROS } from "./macros.js";
import { analyzePattern, patternText } from "./patterns.js";
import { FunctionScope, type Place, Scope } from "./scope.js";
import { expandShortFn } from "./short-fn.js";

export interface AnalyzerEnvironment {
  /** Whether a builtin of this name exists. */
  readonly isBuiltin: (name: string) => boolean;
  /** Names already defined in the session (earlier programs). */
  readonly userNames: ReadonlySet<string>;
  /** Tools the program may call; calling any other is a static error. */
  readonly toolNames: ReadonlySet<string>;
  /** Regex compilation check for literals; returns an error message or undefined. */
  readonly checkRegex?: (source: string) => string | undefined;
}

export interface AnalyzedProgram {
  readonly body: Node;
  readonly frameSize: number;
  /** `data/` keys the program reads (hosts may load only these). */
  readonly dataKeys: ReadonlySet<string>;
  /** Tools the program can call. */
  readonly toolsUsed: ReadonlySet<string>;
}

const SPECIAL_FORMS = new Set([
  "let",
  "fn",
  "loop",
  "recur",
  "def",
  "defn",
  "defonce",
  "if",
  "do",
  "and",
  "or",
  "quote",
  "comment",
  "case",
  "for",
  "doseq",
  "return",
  "fail",
  "task",
  "step-done",
  "task-reset",
  "pmap",
  "pcalls",
  ".",
  "doc",
  "dir",
  "apropos",
  "meta",
  "ns-publics",
  "fn*",
  "letfn",
]);

const DEF_FORMS = new Set(["def", "defn", "defonce"]);

/** Named constants, written with or without their Java class (as in the reference). */
const CONSTANTS: ReadonlyMap<string, number> = new Map([
  ["Double/POSITIVE_INFINITY", Number.POSITIVE_INFINITY],
  ["Double/NEGATIVE_INFINITY", Number.NEGATIVE_INFINITY],
  ["Double/NaN", Number.NaN],
  ["POSITIVE_INFINITY", Number.POSITIVE_INFINITY],
  ["NEGATIVE_INFINITY", Number.NEGATIVE_INFINITY],
  ["NaN", Number.NaN],
]);

/**
 * True special forms keep their meaning even where a local of the same name exists
 * (`(let [if inc] (if true 1 2))` is 1), as in Clojure and the reference; macro-like forms
 * (when, let, fn, ->...) are shadowed by locals.
 */
const UNSHADOWABLE = new Set([
  "if",
  "def",
  "defonce",
  "recur",
  "do",
  "return",
  "fail",
  "task",
  "step-done",
  "task-reset",
  "pmap",
  "pcalls",
  ".",
  "fn*",
  "letfn",
  "ns-publics",
]);

function isPlaceholder(name: string): boolean {
  return name === "%" || name === "%&" || /^%[0-9]+$/.test(name);
}

function splitNamespace(name: string): [string, string] | undefined {
  const slash = name.indexOf("/");
  if (slash <= 0 || slash === name.length - 1) return undefined;
  return [name.slice(0, slash), name.slice(slash + 1)];
}

/** Every name the program defines with def/defn/defonce, wherever it appears. */
function collectDefinedNames(forms: readonly Form[], into: Set<string>): void {
  for (const form of forms) {
    if (
      form.type === "list" ||
      form.type === "vector" ||
      form.type === "map" ||
      form.type === "set" ||
      form.type === "fn-literal"
    ) {
      const head = form.items[0];
      const name = form.items[1];
      if (
        form.type === "list" &&
        head?.type === "symbol" &&
        DEF_FORMS.has(head.name) &&
        name?.type === "symbol"
      )
        into.add(name.name);
      collectDefinedNames(form.items, into);
    }
  }
}

function formError(reason: ErrorReason, message: string, position: Position): LispError {
  return new LispError(reason, message, position);
}

class Analyzer {
  private readonly unbound = new Map<string, Position>();
  private readonly userNames: Set<string>;
  readonly dataKeys = new Set<string>();
  readonly toolsUsed = new Set<string>();

  constructor(
    private readonly environment: AnalyzerEnvironment,
    definedHere: ReadonlySet<string>,
  ) {
    this.userNames = new Set([...environment.userNames, ...definedHere]);
  }

  finish(): void {
    if (this.unbound.size === 0) return;
    const names = [...this.unbound.keys()].sort();
    const first = this.unbound.get(names[0] as string) as Position;
    const message =
      names.length === 1 ? `Undefined variable: ${names[0]}` : `Undefined variables: ${names.join(", ")}`;
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
  private value(form: Form, place: Place): Node {
    return this.analyze(form, place.recur === undefined ? place : { ...place, recur: undefined });
  }

  valueIn(form: Form, scope: Scope, place: Place): Node {
    return this.analyze(form, { ...place, scope, recur: undefined });
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
      throw formError("invalid_form", `invalid regex literal #"${source}": ${problem}`, position);
    }
    return {
      kind: "call",
      callee: { kind: "builtin", name: "re-pattern", position },
      args: [{ kind: "const", value: source, position }],
      position,
    };
  }

  private analyzeVarRef(name: string, position: Position): Node {
    if (this.userNames.has(name)) return { kind: "var", name, position };
    if (this.environment.isBuiltin(name)) return { kind: "builtin", name, position };
    this.unbound.set(name, position);
    return { kind: "const", value: null, position };
  }

  // ------------------------------------------------------------------ symbols

  private analyzeSymbol(name: string, position: Position, place: Place): Node {
    if (name.startsWith(CORE_PREFIX)) return { kind: "builtin", name: name.slice(1), position };
    const local = place.scope.lookup(name);
    if (local !== undefined) return { kind: "local", slot: place.scope.fn.slotOf(local), name, position };
    if (isPlaceholder(name)) {
      throw formError(
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
    if (this.userNames.has(name)) return { kind: "var", name, position };
    if (this.environment.isBuiltin(name)) return { kind: "builtin", name, position };
    const constant = CONSTANTS.get(name);
    if (constant !== undefined) return { kind: "const", value: constant, position };
    if (SPECIAL_FORMS.has(name) || MACROS.has(name)) {
      throw formError(
        "invalid_form",
        `${name} is a special form and cannot be used as a value; call it as (${name} ...)`,
        position,
      );
    }
    this.unbound.set(name, position);
    return { kind: "const", value: null, position };
  }

  private analyzeNamespaced(ns: string, member: string, position: Position): Node {
    switch (ns) {
      case "data":
        this.dataKeys.add(member);
        return { kind: "data", key: member, position };
      case "tool":
        this.checkTool(member, position);
        return {
          kind: "call",
          callee: { kind: "builtin", name: "tool-callable", position },
          args: [{ kind: "const", value: member, position }],
          position,
        };
      case "budget":
        if (member === "remaining") {
          throw formError(
            "invalid_form",
            "budget/remaining is a function: call it as (budget/remaining)",
            position,
          );
        }
        throw formError(
          "invalid_form",
          `Unknown budget function: budget/${member}. Available: budget/remaining`,
          position,
        );
      default: {
        const constant = CONSTANTS.get(`${ns}/${member}`);
        if (constant !== undefined) return { kind: "const", value: constant, position };
        const resolved = resolveNamespaced(ns, member, this.environment.isBuiltin);
        if (resolved.kind === "error") throw formError("invalid_form", resolved.message, position);
        return { kind: "builtin", name: resolved.name, position };
      }
    }
  }

  private checkTool(name: string, position: Position): void {
    if (!this.environment.toolNames.has(name)) {
      const available = [...this.environment.toolNames].sort().join(", ");
      throw formError(
        "unknown_tool",
        `Unknown tool: ${name}. Available tools: ${available === "" ? "(none)" : available}`,
        position,
      );
    }
    this.toolsUsed.add(name);
  }

  /**
   * A bare symbol that names nothing, or a user var. As a direct operand of `or` it reads as nil
   * while unbound instead of failing, as in the reference, so `(or saved-state {})` works on a
   * session's first program, before `(def saved-state ...)` has run.
   */
  private isSoftSymbol(form: Form, place: Place): boolean {
    if (form.type !== "symbol") return false;
    const name = form.name;
    if (place.scope.lookup(name) !== undefined) return false;
    if (this.userNames.has(name)) return true;
    return (
      !isPlaceholder(name) &&
      splitNamespace(name) === undefined &&
      !this.environment.isBuiltin(name) &&
      !CONSTANTS.has(name) &&
      !SPECIAL_FORMS.has(name) &&
      !MACROS.has(name) &&
      name !== "*1" &&
      name !== "*2" &&
      name !== "*3"
    );
  }

  // ------------------------------------------------------------------ lists

  private analyzeList(form: CollectionForm, place: Place): Node {
    const [head, ...args] = form.items;
    if (head === undefined) {
      throw formError(
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
        if (SPECIAL_FORMS.has(name)) return this.analyzeSpecial(name, args, form, place);
        const macro = MACROS.get(name);
        if (macro !== undefined) return this.analyze(macro(args, form), place);
        const namespaced = splitNamespace(name);
        if (namespaced !== undefined) {
          const special = this.analyzeNamespacedCall(namespaced[0], namespaced[1], args, form, place);
          if (special !== undefined) return special;
        }
        if (name.length > 1 && name.startsWith(".")) return this.analyzeMethodCall(name, args, form, place);
        if (name.length > 1 && name.endsWith(".") && !name.startsWith("."))
          return this.analyzeConstructor(name, args, form, place);
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
      throw formError(
        "not_callable",
        `not callable: ${describeForm(head)} is not a function; to build a list write [${describeForm(head)} ...]`,
        head,
      );
    }
    return { kind: "call", callee, args: args.map((arg) => this.value(arg, place)), position: form };
  }

  private analyzeNamespacedCall(
    ns: string,
    member: string,
    args: readonly Form[],
    form: CollectionForm,
    place: Place,
  ): Node | undefined {
    switch (ns) {
      case "tool":
        return this.analyzeToolCall(member, args, form, place);
      case "data":
        throw formError(
          "invalid_form",
          `unknown namespace data/ call: data/${member} is a value, not a function; write data/${member} without parentheses`,
          form,
        );
      case "budget":
        if (member !== "remaining") {
          throw formError(
            "invalid_form",
            `Unknown budget function: budget/${member}. Available: budget/remaining`,
            form,
          );
        }
        if (args.length !== 0)
          throw formError("invalid_arity", "(budget/remaining) takes no arguments", form);
        return { kind: "budget", position: form };
      default:
        return undefined;
    }
  }

  private analyzeToolCall(name: string, args: readonly Form[], form: CollectionForm, place: Place): Node {
    this.checkTool(name, form);
    if (args.length === 0) return { kind: "tool", name, args: undefined, position: form };
    if (args.length === 1) {
      const only = args[0] as Form;
      if (
        only.type === "string" ||
        only.type === "number" ||
        only.type === "vector" ||
        only.type === "boolean" ||
        only.type === "set"
      ) {
        throw this.positionalToolArgs(name, only, form);
      }
      return { kind: "tool", name, args: this.value(only, place), position: form };
    }
    // Keyword style: (tool/x :k v :k2 v2)
    if (args.length % 2 === 0 && args.every((arg, index) => index % 2 === 1 || arg.type === "keyword")) {
      const entries: Array<readonly [Node, Node]> = [];
      for (let i = 0; i < args.length; i += 2) {
        entries.push([this.value(args[i] as Form, place), this.value(args[i + 1] as Form, place)]);
      }
      return { kind: "tool", name, args: { kind: "map", entries, position: form }, position: form };
    }
    throw this.positionalToolArgs(name, args[0] as Form, form);
  }

  private positionalToolArgs(name: string, sample: Form, position: Position): LispError {
    const kind = sample.type === "number" ? "number" : sample.type;
    return formError(
      "invalid_tool_args",
      `Tool calls require named arguments. Use (tool/${name} {:key value}), not positional args. Got ${kind} ${describeForm(sample)} — try (tool/${name} {:url ${describeForm(sample)}}) with the parameter's real name`,
      position,
    );
  }

  private analyzeMethodCall(name: string, args: readonly Form[], form: CollectionForm, place: Place): Node {
    return {
      kind: "call",
      callee: { kind: "builtin", name: "invoke-method", position: form },
      args: [{ kind: "const", value: name, position: form }, ...args.map((arg) => this.value(arg, place))],
      position: form,
    };
  }

  private analyzeConstructor(name: string, args: readonly Form[], form: CollectionForm, place: Place): Node {
    return {
      kind: "call",
      callee: { kind: "builtin", name: "invoke-constructor", position: form },
      args: [
        { kind: "const", value: name.slice(0, -1), position: form },
        ...args.map((arg) => this.value(arg, place)),
      ],
      position: form,
    };
  }

  // ------------------------------------------------------------------ special forms

  private analyzeSpecial(name: string, args: readonly Form[], form: CollectionForm, place: Place): Node {
    switch (name) {
      case "let":
        return this.analyzeLet(args, form, place);
      case "fn":
        return this.analyzeFn(args, form, place, undefined);
      case "loop":
        return this.analyzeLoop(args, form, place);
      case "recur":
        return this.analyzeRecur(args, form, place);
      case "def":
      case "defonce":
        return this.analyzeDef(name, args, form, place);
      case "defn":
        return this.analyzeDefn(args, form, place);
      case "if":
        if (args.length < 2 || args.length > 3)
          throw formError("invalid_arity", "expected (if cond then else?)", form);
        return {
          kind: "if",
          test: this.value(args[0] as Form, place),
          consequent: this.analyze(args[1] as Form, place),
          alternative:
            args[2] === undefined
              ? { kind: "const", value: null, position: form }
              : this.analyze(args[2], place),
          position: form,
        };
      case "do":
        return this.body(args, form, place);
      case "and":
      case "or":
        if (args.length === 0) return { kind: "const", value: name === "and" ? true : null, position: form };
        if (args.length === 1) return this.analyze(args[0] as Form, place);
        return {
          kind: name,
          items: args.map((arg, index) =>
            name === "or" && this.isSoftSymbol(arg, place)
              ? { kind: "var", name: (arg as { name: string }).name, position: arg, soft: true }
              : index === args.length - 1
                ? this.analyze(arg, place)
                : this.value(arg, place),
          ),
          position: form,
        };
      case "quote": {
        const quoted = args[0];
        if (args.length !== 1)
          throw formError(
            "invalid_arity",
            `(quote symbol) requires exactly 1 symbol, got ${args.length}`,
            form,
          );
        if (quoted?.type !== "symbol") {
          throw formError(
            "invalid_form",
            `quote only supports symbols, got ${describeForm(quoted as Form)}; write a vector [...] for data`,
            form,
          );
        }
        return { kind: "const", value: new QuotedSymbol(quoted.name), position: form };
      }
      case "comment":
        return { kind: "const", value: null, position: form };
      case "case":
        return this.analyzeCase(args, form, place);
      case "for":
      case "doseq":
        return this.analyzeFor(name, args, form, place);
      case "return":
      case "fail":
        if (args.length !== 1) {
          throw formError(
            "invalid_arity",
            name === "return" ? "expected (return value)" : "expected (fail error)",
            form,
          );
        }
        return { kind: name, value: this.value(args[0] as Form, place), position: form };
      case "task":
        if (args.length !== 2) throw formError("invalid_arity", 'expected (task "id" expr)', form);
        return {
          kind: "task",
          id: this.value(args[0] as Form, place),
          body: this.value(args[1] as Form, place),
          position: form,
        };
      case "step-done":
        if (args.length !== 2) throw formError("invalid_arity", "expected (step-done id summary)", form);
        return {
          kind: "step-done",
          id: this.value(args[0] as Form, place),
          summary: this.value(args[1] as Form, place),
          position: form,
        };
      case "task-reset":
        if (args.length !== 1) throw formError("invalid_arity", "expected (task-reset id)", form);
        return { kind: "task-reset", id: this.value(args[0] as Form, place), position: form };
      case "pmap":
        if (args.length !== 2) throw formError("invalid_arity", "expected (pmap f coll)", form);
        return {
          kind: "parallel-map",
          fn: this.value(args[0] as Form, place),
          coll: this.value(args[1] as Form, place),
          position: form,
        };
      case "pcalls":
        return { kind: "parallel-calls", thunks: args.map((arg) => this.value(arg, place)), position: form };
      case ".":
        throw formError(
          "invalid_form",
          "(. obj method) syntax is not supported. Use (.method obj) instead.",
          form,
        );
      case "fn*":
      case "letfn":
        throw formError(
          "invalid_form",
          `${name} is not supported; use (let [f (fn [x] ...)] ...) or defn`,
          form,
        );
      default:
        return {
          kind: "discovery",
          operation: name,
          args: args.map((arg) =>
            arg.type === "symbol"
              ? ({ kind: "const", value: new QuotedSymbol(arg.name), position: arg } as Node)
              : this.value(arg, place),
          ),
          position: form,
        };
    }
  }

  /** A body of forms: the last one inherits tail position. */
  private body(forms: readonly Form[], position: Position, place: Place): Node {
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

  /** Analyzes binding pairs in `scope` (which receives the names, in order). */
  analyzeBindings(vector: CollectionForm, scope: Scope, place: Place, what = "let"): Binding[] {
    if (vector.items.length % 2 !== 0) {
      throw formError(
        "invalid_form",
        `${what} bindings require even number of forms (name value pairs)`,
        vector,
      );
    }
    const bindings: Binding[] = [];
    for (let i = 0; i < vector.items.length; i += 2) {
      const init = this.valueIn(vector.items[i + 1] as Form, scope, place);
      const pattern = this.pattern(vector.items[i] as Form, scope, place);
      bindings.push({ pattern, init });
    }
    return bindings;
  }

  private pattern(form: Form, scope: Scope, place: Place): Pattern {
    return analyzePattern(form, scope, {
      analyzeDefault: (defaultForm, at) => this.valueIn(defaultForm, at, place),
    });
  }

  private analyzeLet(args: readonly Form[], form: CollectionForm, place: Place): Node {
    const vector = args[0];
    if (vector !== undefined && vector.type !== "vector")
      throw formError("invalid_form", "let bindings must be a vector", vector);
    if (vector === undefined || args.length < 2)
      throw formError("invalid_arity", "expected (let [bindings] body ...)", form);
    const scope = place.scope.child();
    const bindings = this.analyzeBindings(vector, scope, place);
    const inner: Place = { ...place, scope };
    return { kind: "let", bindings, body: this.body(args.slice(1), form, inner), position: form };
  }

  private analyzeLoop(args: readonly Form[], form: CollectionForm, place: Place): Node {
    const vector = args[0];
    if (vector === undefined || vector.type !== "vector" || args.length < 2) {
      throw formError("invalid_arity", "expected (loop [bindings] body ...)", form);
    }
    const scope = place.scope.child();
    const bindings = this.analyzeBindings(vector, scope, place, "loop");
    const rawSlots = bindings.map((binding) =>
      binding.pattern.kind === "bind" ? binding.pattern.slot : scope.fn.allocate(),
    );
    const target: RecurTarget = { rawSlots, label: "loop" };
    const body = this.body(args.slice(1), form, { ...place, scope, recur: target });
    return { kind: "loop", bindings, target, body, position: form };
  }

  private analyzeRecur(args: readonly Form[], form: CollectionForm, place: Place): Node {
    const target = place.recur;
    if (target === undefined) {
      throw formError(
        "invalid_form",
        "recur must be in tail position (the last expression of a loop or fn body)",
        form,
      );
    }
    return { kind: "recur", target, args: args.map((arg) => this.value(arg, place)), position: form };
  }

  analyzeFn(args: readonly Form[], form: CollectionForm, place: Place, defName: string | undefined): Node {
    let rest = args;
    let name = defName;
    if (isSymbol(rest[0])) {
      name = (rest[0] as { name: string }).name;
      rest = rest.slice(1);
    }
    const params = rest[0];
    if (params === undefined || (params.type !== "vector" && rest.length < 2)) {
      throw formError(
        "invalid_arity",
        "expected (fn [params] body ...) or (fn name [params] body ...)",
        form,
      );
    }
    if (params.type === "list") {
      throw formError(
        "invalid_form",
        "multi-arity fn is not supported; define one function per arity",
        params,
      );
    }
    if (params.type !== "vector") throw formError("invalid_form", "fn parameters must be a vector", params);

    const scope = place.scope.function();
    const selfSlot = name === undefined || args[0]?.type !== "symbol" ? undefined : scope.declare(name).slot;
    const fixed: Pattern[] = [];
    let restPattern: Pattern | undefined;
    let restAsMap = false;
    const items = params.items;
    const rawSlots: number[] = [];
    // Raw slots receive the arguments; patterns that are not plain names destructure from them.
    const deferred: Array<{ raw: number; form: Form; index: number }> = [];
    for (let i = 0; i < items.length; i++) {
      const item = items[i] as Form;
      if (item.type === "symbol" && item.name === "&") {
        const restForm = items[i + 1];
        if (restForm === undefined || i + 2 !== items.length) {
          throw formError(
            "unsupported_pattern",
            "'&' must be followed by exactly one rest parameter, e.g. [x & more]",
            item,
          );
        }
        restAsMap = restForm.type === "map";
        const raw = scope.fn.allocate();
        rawSlots.push(raw);
        deferred.push({ raw, form: restForm, index: -1 });
        break;
      }
      if (item.type === "symbol") {
        const pattern = this.pattern(item, scope, place);
        fixed.push(pattern);
        rawSlots.push((pattern as { slot: number }).slot);
      } else {
        const raw = scope.fn.allocate();
        rawSlots.push(raw);
        fixed.push({ kind: "ignore" });
        deferred.push({ raw, form: item, index: fixed.length - 1 });
      }
    }
    // Destructuring params become a let around the body, reading the raw slots.
    const destructure: Binding[] = [];
    for (const { raw, form: patternForm, index } of deferred) {
      const pattern = this.pattern(patternForm, scope, place);
      if (index === -1) restPattern = pattern;
      else fixed[index] = pattern;
      destructure.push({ pattern, init: { kind: "local", slot: raw, name: "", position: patternForm } });
    }
    const target: RecurTarget = { rawSlots, label: "fn" };
    const inner: Place = { scope, recur: target, inShortFn: false };
    const bodyForms = rest.slice(1);
    let body = this.body(bodyForms, form, inner);
    if (destructure.length > 0) body = { kind: "let", bindings: destructure, body, position: form };
    return {
      kind: "fn",
      name,
      selfSlot,
      params: fixed,
      rest: restPattern,
      restAsMap,
      target,
      body,
      frameSize: scope.fn.frameSize,
      captures: scope.fn.captures,
      signature: patternText(items),
      position: form,
    };
  }

  private defName(tag: string, form: Form | undefined, position: Position): string {
    if (form === undefined) throw formError("invalid_arity", `expected (${tag} name value)`, position);
    if (form.type !== "symbol") {
      throw formError("invalid_form", `${tag} name must be a symbol, got: ${describeForm(form)}`, form);
    }
    if (form.name.includes("/") && form.name !== "/") {
      throw formError(
        "invalid_form",
        `${tag} name must not have a namespace: ${form.name}; write a plain name`,
        form,
      );
    }
    return form.name;
  }

  private analyzeDef(
    tag: "def" | "defonce",
    args: readonly Form[],
    form: CollectionForm,
    place: Place,
  ): Node {
    const name = this.defName(tag, args[0], form);
    if (args.length === 1)
      throw formError("invalid_arity", `expected (${tag} name value), got (${tag} name) without value`, form);
    if (args.length === 3 && args[1]?.type !== "string") {
      throw formError("invalid_arity", `expected (${tag} name value) or (${tag} name docstring value)`, form);
    }
    if (args.length > 3)
      throw formError("invalid_arity", `expected (${tag} name value) or (${tag} name docstring value)`, form);
    const valueForm = args[args.length - 1] as Form;
    return {
      kind: "def",
      name,
      value: this.value(valueForm, place),
      once: tag === "defonce",
      position: form,
    };
  }

  private analyzeDefn(args: readonly Form[], form: CollectionForm, place: Place): Node {
    const name = this.defName("defn", args[0], form);
    let rest = args.slice(1);
    if (rest[0]?.type === "string" && rest.length > 1) rest = rest.slice(1);
    const params = rest[0];
    if (params === undefined) throw formError("invalid_arity", "expected (defn name [params] body)", form);
    if (params.type === "list") {
      throw formError(
        "invalid_form",
        "multi-arity defn not supported, use separate defn forms for each arity",
        params,
      );
    }
    if (params.type !== "vector")
      throw formError("invalid_arity", "expected (defn name [params] body)", form);
    const fn = this.analyzeFn(rest, form, { ...place, recur: undefined }, name);
    return { kind: "def", name, value: fn, once: false, position: form };
  }

  private analyzeCase(args: readonly Form[], form: CollectionForm, place: Place): Node {
    if (args.length === 0)
      throw formError("invalid_form", "case requires at least an expression to test", form);
    const value = this.value(args[0] as Form, place);
    const pairs = args.slice(1);
    const table = new Map<unknown, number>();
    const clauses: Node[] = [];
    const count = pairs.length - (pairs.length % 2);
    for (let i = 0; i < count; i += 2) {
      const test = pairs[i] as Form;
      const index = clauses.length;
      clauses.push(this.analyze(pairs[i + 1] as Form, place));
      const constants = test.type === "list" ? test.items : [test];
      if (test.type === "list" && test.items.length === 0) {
        throw formError("invalid_form", "case grouped match must contain at least one value", test);
      }
      for (const constant of constants) {
        const key = hashKey(this.caseConstant(constant));
        if (!table.has(key)) table.set(key, index);
      }
    }
    const fallback =
      pairs.length % 2 === 1 ? this.analyze(pairs[pairs.length - 1] as Form, place) : undefined;
    return { kind: "case", value, table, clauses, fallback, position: form };
  }

  private caseConstant(form: Form): unknown {
    switch (form.type) {
      case "nil":
        return null;
      case "boolean":
      case "number":
      case "string":
        return form.value;
      case "keyword":
        return Keyword.of(form.name);
      case "symbol":
        return new QuotedSymbol(form.name);
      case "vector":
        return form.items.map((item) => this.caseConstant(item));
      default:
        throw formError(
          "invalid_form",
          `case test constants must be literals, got ${describeForm(form)}`,
          form,
        );
    }
  }

  private analyzeFor(name: "for" | "doseq", args: readonly Form[], form: CollectionForm, place: Place): Node {
    const { clauses, bodyScope, bodyForms } = analyzeIteration(name, args, form, place.scope, {
      analyzeValue: (valueForm, scope) => this.valueIn(valueForm, scope, place),
      analyzeBindings: (vector, scope) => this.analyzeBindings(vector, scope, place),
      analyzePatternIn: (patternForm, scope) => this.pattern(patternForm, scope, place),
    });
    const body = this.body(bodyForms, form, { ...place, scope: bodyScope, recur: undefined });
    return { kind: "for", clauses, body, collect: name === "for", position: form };
  }
}

/**
 * Analyzes a whole program (its top-level forms, in order) for a fresh top-level frame.
 * Throws LispError on the first static problem.
 */
export function analyzeProgram(forms: readonly Form[], environment: AnalyzerEnvironment): AnalyzedProgram {
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
