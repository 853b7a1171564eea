/**
 * Host maps: JSON-shaped objects handed in by the host (context, tool results). They are read in
 * place, never copied and never written. Only own properties count, so keys such as "__proto__"
 * or "constructor" read as data and can never reach a prototype.
 */
export type PlainObject = Record<string, unknown>;

export function isPlainObject(value: unknown): value is PlainObject {
  if (typeof value !== "object" || value === null) return false;
  // Fast path: reading `constructor` is much cheaper than getPrototypeOf. An own "constructor"
  // key (it is data here) just sends the object down the exact path.
  if ((value as { constructor?: unknown }).constructor === Object) return true;
  if (Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

const hasOwn = Object.prototype.hasOwnProperty;

/** The own property `key` of a host map, or undefined. */
export function ownGet(object: PlainObject, key: string): unknown {
  return hasOwn.call(object, key) ? object[key] : undefined;
}

export function ownHas(object: PlainObject, key: string): boolean {
  return hasOwn.call(object, key);
}

/**
 * Defines an own, enumerable, writable property, even for "__proto__" (plain assignment would
 * change the prototype instead). Only used on objects this package creates for the host.
 */
export function defineOwn(object: PlainObject, key: string, value: unknown): void {
  if (key === "__proto__")
    Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
  else object[key] = value;
}
