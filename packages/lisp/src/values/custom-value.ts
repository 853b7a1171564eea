/**
 * Base class for the language's opaque values: regexes, var references, quoted symbols, dates and
 * durations. Each one says how it prints, how it compares and what `type` calls it, so that the
 * printer, equality and hashing need no list of every such class.
 */
import { INSPECT } from "./host-view.js";

export abstract class CustomValue {
  /** Readable Clojure text, as `format` prints it. */
  abstract print(): string;
  /** Text as `str` produces it; the readable form unless the value says otherwise. */
  text(): string {
    return this.print();
  }
  /** Text that is equal for equal values and different otherwise (see hash-key.ts). */
  abstract canonical(): string;
  /** The keyword name `type` returns for this value. */
  abstract get typeName(): string;
  /** Structural equality with another value of any kind. */
  equals(other: unknown): boolean {
    return (
      other instanceof CustomValue &&
      other.constructor === this.constructor &&
      other.canonical() === this.canonical()
    );
  }
  /** Plain JSON form for the host (`toJson`, `JSON.stringify`). */
  abstract toJSON(): unknown;
  /** For `console.log` and `util.inspect`: the readable text. */
  [INSPECT](): string {
    return this.print();
  }
}
