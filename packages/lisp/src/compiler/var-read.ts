/**
 * Reading a var (a `def`/`defn` name) on the general evaluator: a pmap/pcalls branch's own defs
 * first, then the namespace's cell. One module-level function, so that the var node and a call
 * through a var (`(fib (- n 1))`, calls.ts) both read it without a closure call of their own.
 */
import { LispError } from "../errors.js";
import { active } from "../runtime/context.js";
import { cellOf, type VarSpec } from "../runtime/var-cell.js";

function unboundVar(name: string): LispError {
  return new LispError(
    "unbound_var",
    `Undefined variable: ${name}. It is not defined yet when this code runs: define it with (def ${name} ...) before using it`,
  );
}

/** The value of the var `spec` names; nil for an unbound soft var, else an error at its position. */
export function readVar(spec: VarSpec): unknown {
  const context = active;
  const branch = context.branchDefs;
  if (branch?.has(spec.name)) return branch.get(spec.name);
  const cell = cellOf(spec, context.namespace);
  if (!cell.bound) {
    if (spec.soft) return null;
    throw unboundVar(spec.name).at(spec.position);
  }
  return cell.value;
}
