/**
 * A compiled reference to a user var. Compiled code may be reused by later runs (see
 * compiler/program-cache.ts), each with its own namespace, so the cell is looked up in the running
 * program's namespace and remembered until a run with another namespace reads it.
 */
import type { Position } from "../reader/form.js";
import type { Cell, Namespace } from "./namespace.js";

export interface VarSpec {
  readonly name: string;
  readonly position: Position;
  /** Reads as nil while unbound (an `or` operand; see the analyzer). */
  readonly soft: boolean;
  /** The namespace `cell` belongs to; a different one means look the cell up again. */
  namespace: Namespace | undefined;
  cell: Cell | undefined;
}

export function varSpec(name: string, position: Position, soft: boolean): VarSpec {
  return { name, position, soft, namespace: undefined, cell: undefined };
}

/** The var's cell in `namespace`. */
export function cellOf(spec: VarSpec, namespace: Namespace): Cell {
  if (spec.namespace !== namespace || spec.cell === undefined) {
    spec.namespace = namespace;
    spec.cell = namespace.cell(spec.name);
  }
  return spec.cell;
}
