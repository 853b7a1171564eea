/** Builtins: aggregation (being written). */
import type { BuiltinDefinition } from "./definition.js";

export const aggregationBuiltins: BuiltinDefinition[] = [];
