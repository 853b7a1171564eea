/** Builtins: maps (being written). */
import type { BuiltinDefinition } from "./definition.js";

export const mapsBuiltins: BuiltinDefinition[] = [];
