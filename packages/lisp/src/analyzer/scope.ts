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

export class Scope {
  /** Made at the first declaration: a scope often declares nothing, or is never declared into. */
  private locals: Map<string, LocalBinding> | undefined;

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
    this.locals ??= new Map();
    this.locals.set(name, binding);
    return binding;
  }

  /** Every local name visible here (for "did you mean" suggestions). */
  visibleNames(): string[] {
    const names: string[] = [];
    for (let scope: Scope | null = this; scope !== null; scope = scope.parent)
      if (scope.locals !== undefined) names.push(...scope.locals.keys());
    return names;
  }

  lookup(name: string): LocalBinding | undefined {
    for (let scope: Scope | null = this; scope !== null; scope = scope.parent) {
      const found = scope.locals?.get(name);
      if (found !== undefined) return found;
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
