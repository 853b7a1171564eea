/**
 * Sets. Members are unique by `=`; iteration and printing follow term order, as maps do.
 */
import { hashKey } from "./hash-key.js";
import { INSPECT, type Inspect, type InspectOptions, inspectCollection, jsonValue } from "./host-view.js";
import { sortInPlace } from "./small-sort.js";
import { TABLE_KIND } from "./table-kind.js";
import { compareTerms } from "./term-order.js";
import { TableVersion } from "./versioned-table.js";
import { chargeWalk } from "./walk-meter.js";

/** A set's slot is its member. */
const memberOf = (_hash: unknown, member: unknown): unknown => member;

export class LispSet extends TableVersion<unknown> {
  private sorted: readonly unknown[] | undefined;

  private constructor(size: number, members: Map<unknown, unknown> | null) {
    super(size, members);
  }

  protected derive(size: number): this {
    return new LispSet(size, null) as this;
  }

  static empty(): LispSet {
    return new LispSet(0, new Map());
  }

  static from(members: Iterable<unknown>): LispSet {
    const slots = new Map<unknown, unknown>();
    let count = 0;
    for (const member of members) {
      const value = member === undefined ? null : member;
      const hash = hashKey(value);
      if (!slots.has(hash)) slots.set(hash, value);
      // Hashing millions of members takes a while: charged per chunk, so the run's clock is read.
      if ((++count & 1023) === 0) chargeWalk(1024);
    }
    return new LispSet(slots.size, slots);
  }

  has(member: unknown): boolean {
    return this.tableHas(hashKey(member));
  }

  /** The stored member equal to `member` (it may differ in representation, e.g. 1 for 1.0). */
  find(member: unknown): unknown {
    return this.tableGet(hashKey(member));
  }

  conj(member: unknown): LispSet {
    const value = member === undefined ? null : member;
    const hash = hashKey(value);
    return this.tableHas(hash) ? this : this.tableSet(hash, value);
  }

  disj(member: unknown): LispSet {
    return this.tableDelete(hashKey(member));
  }

  /** An equal set in a store of its own. */
  detached(): LispSet {
    return this.tableDetached();
  }

  /** An equal set that is never derived in place (for values that outlive a run). */
  pinned(): LispSet {
    return this.tablePinned();
  }

  /** Members in term order. The array is shared: never mutate it. */
  members(): readonly unknown[] {
    if (this.sorted === undefined) {
      const members = this.tableEntries(memberOf);
      if (members.length > 1) sortInPlace(members, compareTerms);
      this.sorted = members;
    }
    return this.sorted;
  }

  get [TABLE_KIND](): "set" {
    return "set";
  }

  /** For `JSON.stringify`: the members, in order. */
  toJSON(): unknown[] {
    return this.members().map(jsonValue);
  }

  /** For `console.log` and `util.inspect`: `LispSet(2) { 1, :a }`. */
  [INSPECT](depth: number, options: InspectOptions, inspect?: Inspect): string {
    return inspectCollection(
      "LispSet",
      this.size,
      this.members().map((member) => [member] as const),
      depth,
      options,
      inspect,
    );
  }
}
