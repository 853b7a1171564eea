/**
 * `for` in generated code: one JS `for` loop per binding clause, nested, with `:let` as a block,
 * `:when` as an `if` around the rest and `:while` as a `break` out of its binding's loop; the
 * body's values are pushed onto one array (the comprehension's vector), or dropped for `doseq`
 * shapes that collect nothing. Each element visited costs a step of fuel (see comprehension.ts).
 */

import type { ForClause, Node, Pattern } from "../analyzer/ast.js";
import { VECTOR_SLOT_BYTES } from "../runtime/allocation.js";
import { bindAll, bindPattern, type PatternEmitter } from "./codegen-patterns.js";

/** What a comprehension needs of the generator (codegen.ts, Generator). */
export interface ForEmitter extends PatternEmitter {
  /** The run context's variable in the function being generated. */
  readonly contextName: string;
  truthy(expression: string): string;
}

export function forComprehension(gen: ForEmitter, node: Extract<Node, { kind: "for" }>): string {
  const out = gen.temp("out");
  gen.emit(`const ${out} = [];`);
  // The vector cap (values/vector-limit.ts), read once per evaluation: the per-item check is then
  // one comparison written in place (a call of $.chargeSlots cost the product loops about 8%).
  const cap = node.collect ? gen.temp("cap") : "";
  if (node.collect) gen.emit(`const ${cap} = $.vectorPolicy.maxLength;`);
  const run = (index: number, breakLabel: string | undefined): void => {
    if (index === node.clauses.length) {
      const value = gen.value(node.body);
      // Each value is charged as it is pushed, the header at the end ($.grownVec): the total of
      // one charge at the end, but a product of large collections stops at the memory budget
      // instead of growing past it (and past V8's largest array, which aborts the process), and
      // stops at the vector cap (values/vector-limit.ts) whatever the budget.
      if (node.collect) {
        gen.emit(`${gen.contextName}.allocate(${VECTOR_SLOT_BYTES});`);
        gen.emit(`if (${out}.length >= ${cap}) throw $.vectorTooLong(${out}.length + 1);`);
        gen.emit(`${out}.push(${value});`);
      }
      return;
    }
    const clause = node.clauses[index] as ForClause;
    switch (clause.kind) {
      case "bind": {
        const pattern = clause.pattern as Pattern;
        const collection = gen.value(clause.init as Node);
        const items = gen.bind(
          `$.items(${collection}, ${gen.constant(clause.position)}, ${gen.constant(pattern.kind === "bind" ? pattern.name : "pattern")})`,
        );
        const i = gen.temp("i");
        const label = gen.temp("L");
        const body = gen.block(() => {
          // A step of work per element visited, filtered out or not (see comprehension.ts).
          gen.emit(`if (--${gen.contextName}.fuel <= 0) ${gen.contextName}.refuel();`);
          bindPattern(gen, pattern, gen.bind(`${items}[${i}]`));
          run(index + 1, label);
        });
        gen.emit(`${label}: for (let ${i} = 0; ${i} < ${items}.length; ${i}++) {`);
        gen.emitAll(body);
        gen.emit("}");
        return;
      }
      case "let": {
        const body = gen.block(() => {
          bindAll(gen, clause.bindings ?? []);
          run(index + 1, breakLabel);
        });
        gen.emit("{");
        gen.emitAll(body);
        gen.emit("}");
        return;
      }
      case "when":
      case "while": {
        const test = gen.value(clause.test as Node);
        const body = gen.block(() => run(index + 1, breakLabel));
        gen.emit(`if (${gen.truthy(test)}) {`);
        gen.emitAll(body);
        gen.emit("}");
        if (clause.kind === "while" && breakLabel !== undefined) gen.emit(`else break ${breakLabel};`);
        return;
      }
    }
  };
  const body = gen.block(() => run(0, undefined));
  gen.emit("{");
  gen.emitAll(body);
  gen.emit("}");
  return node.collect ? gen.bind(`$.grownVec(${out})`) : "null";
}
