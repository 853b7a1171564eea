/** Builtins: sets (being written). */
import type { BuiltinDefinition } from "./definition.js";

export const setsBuiltins: BuiltinDefinition[] = [];
