/**
 * Keywords (`:name`). Instances are interned so that identity equals equality: a keyword can be a
 * JS `Map` key as is, which keeps keyword-keyed maps as fast as string-keyed ones.
 *
 * The intern table holds keywords weakly, so a host that runs many programs creating keywords from
 * data (`(keyword s)`) does not leak: an unused keyword is collected and recreated on demand. A
 * keyword that some live map still uses as a key is strongly reachable, so it is never replaced
 * by a second instance of the same name.
 */
import type { FieldReader } from "./field-reader.js";
import { INSPECT } from "./host-view.js";

/** Names that plain objects inherit: reading one needs an own-property check. */
const INHERITED = new Set(Object.getOwnPropertyNames(Object.prototype));

export class Keyword {
  readonly name: string;
  /**
   * True when `object[name]` on a plain object can only find an own property (the name is not
   * one Object.prototype has), so field reads can skip the own-property check.
   */
  readonly direct: boolean;
  /**
   * @internal Whether the name has a hyphen (such a key may be stored under its underscore twin,
   * map-access.ts). Kept here so that builtins checking their key lists per call (select-keys) do
   * not search the name each time.
   */
  readonly hyphenated: boolean;
  /** @internal Field reads so far, and the dedicated reader once hot (see field-reader.ts). */
  reads = 0;
  /** @internal */
  reader: FieldReader | undefined | null = undefined;
  /** @internal The reader from the fixed pool where code is not generated (null: none left). */
  pooled: FieldReader | undefined | null = undefined;
  /**
   * @internal The keyword as a one-argument lookup function, made once: builtins such as map and
   * sum-by then call the same function in every program, and V8 keeps their optimized code
   * instead of discarding it whenever it meets a new closure.
   */
  lookup: ((item: unknown) => unknown) | undefined = undefined;

  private constructor(name: string) {
    this.name = name;
    this.direct = !INHERITED.has(name) && name !== "__proto__";
    this.hyphenated = name.includes("-");
  }

  private static readonly table = new Map<string, WeakRef<Keyword>>();
  private static readonly registry = new FinalizationRegistry<string>((name) => {
    const ref = Keyword.table.get(name);
    if (ref !== undefined && ref.deref() === undefined) Keyword.table.delete(name);
  });

  /** The one keyword with this name. */
  static of(name: string): Keyword {
    const existing = Keyword.table.get(name)?.deref();
    if (existing !== undefined) return existing;
    const created = new Keyword(name);
    Keyword.table.set(name, new WeakRef(created));
    Keyword.registry.register(created, name);
    return created;
  }

  /**
   * The keyword with this name if one is alive, else undefined. Lookups use it: when no keyword of
   * that name exists, no map can hold it as a key, so there is nothing to find.
   */
  static existing(name: string): Keyword | undefined {
    return Keyword.table.get(name)?.deref();
  }

  toString(): string {
    return `:${this.name}`;
  }

  /** For `JSON.stringify`: the name, as `toJson` gives it. */
  toJSON(): string {
    return this.name;
  }

  /** For `console.log` and `util.inspect`: `:name`. */
  [INSPECT](): string {
    return `:${this.name}`;
  }
}

export function isKeyword(value: unknown): value is Keyword {
  return value instanceof Keyword;
}
