/** Builtins: regex (being written). */
import type { BuiltinDefinition } from "./definition.js";

export const regexBuiltins: BuiltinDefinition[] = [];
