/** Builtins: combinators (being written). */
import type { BuiltinDefinition } from "./definition.js";

export const combinatorsBuiltins: BuiltinDefinition[] = [];
