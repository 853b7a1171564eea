/** Builtins: math (being written). */
import type { BuiltinDefinition } from "./definition.js";

export const mathBuiltins: BuiltinDefinition[] = [];
