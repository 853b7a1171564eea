/** Builtins: predicates (being written). */
import type { BuiltinDefinition } from "./definition.js";

export const predicatesBuiltins: BuiltinDefinition[] = [];
