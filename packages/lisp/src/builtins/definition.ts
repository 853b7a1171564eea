/**
 * How a builtin is declared. The registry, the analyzer's name resolution, arity checks, the
 * discovery forms (`doc`, `dir`) and the generated function reference all read these records, so
 * the documentation cannot drift from the implementation.
 */
export interface BuiltinDefinition {
  readonly name: string;
  /** Inclusive bounds on the number of arguments; `Infinity` for variadic. */
  readonly arity: readonly [min: number, max: number];
  /** Argument lists as documented, e.g. ["[coll]", "[n coll]"]. */
  readonly signatures: readonly string[];
  /** One line: what it does. */
  readonly doc: string;
  /** Programs and the printed value each one returns; the test suite runs them. */
  readonly examples?: ReadonlyArray<readonly [source: string, result: string]>;
  /** Registry section for docs (e.g. "Sequences", "Strings"). */
  readonly category: string;
  // biome-ignore lint/suspicious/noExplicitAny: builtins take Lisp values of any type
  readonly fn: (...args: any[]) => unknown;
}

export function builtin(
  name: string,
  arity: readonly [number, number],
  signatures: readonly string[],
  doc: string,
  category: string,
  // biome-ignore lint/suspicious/noExplicitAny: builtins take Lisp values of any type
  fn: (...args: any[]) => unknown,
  examples?: ReadonlyArray<readonly [string, string]>,
): BuiltinDefinition {
  return examples === undefined
    ? { name, arity, signatures, doc, category, fn }
    : { name, arity, signatures, doc, category, fn, examples };
}
