/** Builtins: strings (being written). */
import type { BuiltinDefinition } from "./definition.js";

export const stringsBuiltins: BuiltinDefinition[] = [];
