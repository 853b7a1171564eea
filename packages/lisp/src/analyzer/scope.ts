/**
 * Lexical scopes and frame slots. Every function gets one flat frame (a JS array); each local of
 * the function, at any nesting depth, owns a slot in it. A function that uses a local of an
 * enclosing function captures it: the value is copied into the closure when the closure is created,
 * which is sound because locals never change, and keeps every variable access a single array read.
 */
import type { Capture, RecurTarget } from "./ast.js";

export interface LocalBinding {
  readonly name: string;
  readonly slot: number;
  readonly owner: FunctionScope;
}

export class FunctionScope {
  frameSize = 0;
  readonly captures: Capture[] = [];
  /** Made at the first capture: most functions capture nothing. */
  private captured: Map<LocalBinding, number> | undefined;

  constructor(readonly parent: FunctionScope | null) {}

  allocate(): number {
    return this.frameSize++;
  }

  /** The slot of `binding` in this function's frame, capturing it through every enclosing function. */
  slotOf(binding: LocalBinding): number {
    if (binding.owner === this) return binding.slot;
    const known = this.captured?.get(binding);
    if (known !== undefined) return known;
    if (this.parent === null) throw new Error(`internal: local ${binding.name} is not reachable`);
    const outer = this.parent.slotOf(binding);
    const inner = this.allocate();
    this.captures.push({ outer, inner });
    this.captured ??= new Map();
    this.captured.set(binding, inner);
    return inner;
  }
}

/** Locals a scope keeps in a list before it makes a Map of them (most scopes bind a few). */
const LISTED_LOCALS = 8;

export class Scope {
  /**
   * Made at the first declaration: a scope often declares nothing, or is never declared into. A
   * list while short (searched from the end, so that a later binding of a name shadows an earlier
   * one), a Map by name past LISTED_LOCALS.
   */
  private locals: LocalBinding[] | Map<string, LocalBinding> | undefined;

  constructor(
    readonly parent: Scope | null,
    readonly fn: FunctionScope,
  ) {}

  /** A child scope in the same function (let, loop, for). */
  child(): Scope {
    return new Scope(this, this.fn);
  }

  /** The scope of a new function nested in this one. */
  function(): Scope {
    return new Scope(this, new FunctionScope(this.fn));
  }

  declare(name: string): LocalBinding {
    const binding: LocalBinding = { name, slot: this.fn.allocate(), owner: this.fn };
    const locals = this.locals;
    if (locals === undefined) this.locals = [binding];
    else if (locals instanceof Map) locals.set(name, binding);
    else if (locals.length < LISTED_LOCALS) locals.push(binding);
    else {
      const byName = new Map<string, LocalBinding>();
      for (const listed of locals) byName.set(listed.name, listed);
      byName.set(name, binding);
      this.locals = byName;
    }
    return binding;
  }

  /** Every local name visible here (for "did you mean" suggestions). */
  visibleNames(): string[] {
    const names: string[] = [];
    for (let scope: Scope | null = this; scope !== null; scope = scope.parent) {
      const locals = scope.locals;
      if (locals instanceof Map) names.push(...locals.keys());
      else if (locals !== undefined) for (const binding of locals) names.push(binding.name);
    }
    return names;
  }

  lookup(name: string): LocalBinding | undefined {
    for (let scope: Scope | null = this; scope !== null; scope = scope.parent) {
      const locals = scope.locals;
      if (locals === undefined) continue;
      if (locals instanceof Map) {
        const found = locals.get(name);
        if (found !== undefined) return found;
        continue;
      }
      for (let i = locals.length - 1; i >= 0; i--) {
        const binding = locals[i] as LocalBinding;
        if (binding.name === name) return binding;
      }
    }
    return undefined;
  }
}

/** The state that follows the analyzer down a form: scope, and whether `recur` may appear. */
export interface Place {
  readonly scope: Scope;
  /** The innermost loop or function `recur` would jump to, when the form is in tail position. */
  readonly recur: RecurTarget | undefined;
  /** Name of the enclosing construct when `recur` is forbidden for a specific reason. */
  readonly inShortFn: boolean;
}
