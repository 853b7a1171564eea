/**
 * The two object helpers the JSON conversions share: which objects count as maps, and writing a
 * key that came from data without tripping over `__proto__`.
 */

/**
 * Only plain objects are maps here, as at a JSON boundary: a Date, a Map or a class instance is a
 * value with a meaning of its own, not a bag of properties to describe.
 */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== "object") return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/** `target[key] = value`, except that a data key named `__proto__` stays an ordinary property. */
export function defineOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
}
