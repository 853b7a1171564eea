/** Builtins: walk (being written). */
import type { BuiltinDefinition } from "./definition.js";

export const walkBuiltins: BuiltinDefinition[] = [];
