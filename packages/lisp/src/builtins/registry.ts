/**
 * The builtin registry: every function a program can call by name, built from the definition
 * records of each family file. The analyzer asks it which names exist, the compiler takes the
 * function values from it, and the docs are generated from the same records.
 */
import { brandFunction, type LispFunction } from "../values/lisp-function.js";
import type { BuiltinDefinition } from "./definition.js";

export class Registry {
  private readonly functions = new Map<string, LispFunction>();
  private readonly records = new Map<string, BuiltinDefinition>();
  private readonly branded = new Set<unknown>();

  constructor(definitions: Iterable<BuiltinDefinition>) {
    for (const definition of definitions) this.add(definition);
  }

  private add(definition: BuiltinDefinition): void {
    if (this.records.has(definition.name))
      throw new Error(`internal: builtin ${definition.name} is defined twice`);
    const [minArity, maxArity] = definition.arity;
    // The implementation itself carries the brand, so calls pay for no wrapper; an implementation
    // shared by several names (aliases) gets a wrapper per extra name, each with its own info.
    const impl = definition.fn;
    const target = this.branded.has(impl) ? (...args: unknown[]) => impl(...args) : impl;
    this.branded.add(impl);
    const fn = brandFunction(target, {
      name: definition.name,
      signature: undefined,
      builtin: true,
      minArity,
      maxArity,
    });
    this.functions.set(definition.name, fn);
    this.records.set(definition.name, definition);
  }

  get(name: string): LispFunction | undefined {
    return this.functions.get(name);
  }

  has(name: string): boolean {
    return this.functions.has(name);
  }

  definition(name: string): BuiltinDefinition | undefined {
    return this.records.get(name);
  }

  definitions(): BuiltinDefinition[] {
    return [...this.records.values()];
  }

  names(): string[] {
    return [...this.records.keys()].sort();
  }
}
