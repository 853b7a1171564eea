/** Builtins: sequences (being written). */
import type { BuiltinDefinition } from "./definition.js";

export const sequencesBuiltins: BuiltinDefinition[] = [];
