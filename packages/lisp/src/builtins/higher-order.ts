/** Builtins: higher-order (being written). */
import type { BuiltinDefinition } from "./definition.js";

export const higherOrderBuiltins: BuiltinDefinition[] = [];
