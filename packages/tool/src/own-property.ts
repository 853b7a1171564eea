/**
 * Writes a key as an own data property. Plain assignment would treat `"__proto__"` from untrusted
 * JSON as the prototype setter and silently drop the entry.
 */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
