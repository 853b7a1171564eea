/** Builtins: json (being written). */
import type { BuiltinDefinition } from "./definition.js";

export const jsonBuiltins: BuiltinDefinition[] = [];
