/**
 * The slice of the analyzer that the special-form modules call back into. The forms live in their
 * own files (binding-forms.ts, control-forms.ts, ...) and take this interface as their first
 * argument, so they never import the Analyzer class and the modules stay free of import cycles.
 */
import type { Form, Position } from "../reader/form.js";
import type { Node } from "./ast.js";
import type { Place, Scope } from "./scope.js";

export interface FormAnalyzer {
  /** A form in `place`; keeps tail position (and so `recur`) if `place` has it. */
  analyze(form: Form, place: Place): Node;
  /** A form that is not in tail position. */
  value(form: Form, place: Place): Node;
  /** A form that is not in tail position, analyzed in `scope`. */
  valueIn(form: Form, scope: Scope, place: Place): Node;
  /** A body of forms: the last one inherits tail position. */
  body(forms: readonly Form[], position: Position, place: Place): Node;
  /** Whether a bare symbol reads as nil while unbound, as a direct operand of `or`. */
  isSoftSymbol(form: Form, place: Place): boolean;
  /**
   * The name of the tool `name` refers to (as written, or across `-`/`_` when only one tool
   * matches); rejects a tool the program may not call, and records the ones it does.
   */
  resolveTool(name: string, position: Position): string;
  /** The parameter names of tool `name` (as resolved), when the host's tool shows them. */
  toolParameters(name: string): readonly string[] | undefined;
}
