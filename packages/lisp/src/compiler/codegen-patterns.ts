/**
 * Destructuring in generated code: a `let` binding's, a loop's or a parameter's pattern bound to a
 * value already named (codegen.ts). A plain name is a const; `[a b & more]` reads a vector's
 * items in place (anything else through `$.seqItems`); `{:keys [...]}` tests once whether the
 * value is a plain object and then reads each field from it directly, with `:or` defaults
 * computed only for fields that are missing.
 */

import type { Binding, Pattern } from "../analyzer/ast.js";
import { Keyword } from "../values/keyword.js";
import { plainObjectTest } from "../values/plain-object.js";
import type { LoopEmitter } from "./codegen-loops.js";

/** What binding patterns needs of the generator (codegen.ts, Generator): a part of a loop's needs, and `declare`. */
export interface PatternEmitter
  extends Pick<
    LoopEmitter,
    | "value"
    | "bind"
    | "emit"
    | "emitAll"
    | "block"
    | "temp"
    | "named"
    | "normalized"
    | "isDefined"
    | "markDefined"
    | "constant"
  > {
  /** A new JS name for a local of the current scope, bound to its slot. */
  declare(slot: number): string;
}

export function bindAll(gen: PatternEmitter, bindings: readonly Binding[]): void {
  for (const binding of bindings) {
    const value = gen.value(binding.init);
    bindPattern(gen, binding.pattern, value);
  }
}

/** Binds `pattern` to the value named by `value` (declaring consts in the current block). */
export function bindPattern(gen: PatternEmitter, pattern: Pattern, value: string): void {
  switch (pattern.kind) {
    case "bind": {
      const name = gen.declare(pattern.slot);
      gen.emit(`const ${name} = ${gen.normalized(value)};`);
      if (gen.isDefined(value)) gen.markDefined(name);
      return;
    }
    case "ignore":
      return;
    case "seq": {
      // A vector (the usual case: a chunk, a map entry) is its own items, without a call.
      const named = gen.named(value);
      const items = gen.bind(
        `Array.isArray(${named}) ? ${named} : $.seqItems(${named}, ${gen.constant(pattern.position)})`,
      );
      pattern.items.forEach((item, index) => {
        if (item.kind === "ignore") return;
        bindPattern(gen, item, gen.bind(`${items}.length > ${index} ? ${items}[${index}] : null`));
      });
      if (pattern.rest !== undefined)
        bindPattern(gen, pattern.rest, gen.bind(`$.rest(${items}, ${pattern.items.length})`));
      return;
    }
    case "map": {
      value = gen.named(value);
      // Whether the value is a plain object, tested once: it passes the map check without a
      // call, and each field below is read from it in place.
      const plain = gen.bind(plainObjectTest(value));
      gen.emit(`if (!${plain}) $.mapCheck(${value}, ${gen.constant(pattern.position)});`);
      for (const entry of pattern.entries) {
        const found = gen.temp();
        if (entry.key instanceof Keyword && entry.key.direct && !entry.key.name.includes("-")) {
          // The same fast read as (:k value); a missing key stays undefined for :or, and on a
          // plain object there is no other spelling to try.
          const name = gen.constant(entry.key.name);
          gen.emit(`let ${found};`);
          gen.emit(`if (${plain}) ${found} = ${value}[${name}];`);
          gen.emit(`else ${found} = $.lookup(${value}, ${gen.constant(entry.key)});`);
        } else if (entry.key instanceof Keyword && entry.key.direct) {
          // The same fast read as (:k value); a missing key stays undefined for :or.
          const name = gen.constant(entry.key.name);
          gen.emit(`let ${found} = ${plain} ? ${value}[${name}] : undefined;`);
          gen.emit(`if (${found} === undefined) ${found} = $.lookup(${value}, ${gen.constant(entry.key)});`);
        } else {
          gen.emit(`let ${found} = $.lookup(${value}, ${gen.constant(entry.key)});`);
        }
        if (entry.fallback !== undefined) {
          const fallback = entry.fallback;
          const inner = gen.block(() => {
            const computed = gen.value(fallback);
            gen.emit(`${found} = ${computed};`);
          });
          gen.emit(`if (${found} === undefined) {`);
          gen.emitAll(inner);
          gen.emit("}");
        }
        bindPattern(gen, entry.pattern, found);
      }
      if (pattern.whole !== undefined) bindPattern(gen, pattern.whole, value);
      return;
    }
  }
}
