/**
 * Key normalization at the boundary between PTC-Lisp and the host: programs write `:was-improved`,
 * hosts and JSON expect `was_improved`. Applied to final answers and inside cache keys.
 */
import { isPlainObject } from "./describe-value.js";
import { setOwn } from "./own-property.js";

/** Every hyphen becomes an underscore. */
export function normalizeKey(key: string): string {
  return key.replaceAll("-", "_");
}

/**
 * Recursively renames the keys of plain objects (arrays are walked, everything else is returned
 * as is). When two keys collide after renaming, the later one in iteration order wins.
 */
export function normalizeKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(normalizeKeys);
  if (!isPlainObject(value)) return value;
  const result: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    setOwn(result, normalizeKey(key), normalizeKeys(child));
  }
  return result;
}
