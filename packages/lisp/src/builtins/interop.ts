/** Builtins: interop (being written). */
import type { BuiltinDefinition } from "./definition.js";

export const interopBuiltins: BuiltinDefinition[] = [];
