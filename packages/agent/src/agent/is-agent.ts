/**
 * Whether a value is an agent `createAgent` made: the entry points check this first, so a host
 * that passes something else reads what it should have passed, not a TypeError from inside.
 */
import type { Agent } from "./agent-types.js";
import { isPlainObject } from "./describe.js";

export function isAgent(value: unknown): value is Agent {
  return (
    isPlainObject(value) && Object.isFrozen(value) && typeof value.prompt === "string" && "maxTurns" in value
  );
}
