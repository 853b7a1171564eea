/**
 * Host maps: JSON-shaped objects handed in by the host (context, tool results). They are read in
 * place, never copied and never written. A plain object is one whose prototype is
 * Object.prototype or null: an object made with `Object.create(proto)` or a class instance is an
 * opaque host object, since reading it would read its prototype's properties. Only own properties
 * count, so keys such as "__proto__" or "constructor" read as data and can never reach a
 * prototype.
 */
export type PlainObject = Record<string, unknown>;

const getPrototypeOf = Object.getPrototypeOf;
const ObjectPrototype = Object.prototype;

export function isPlainObject(value: unknown): value is PlainObject {
  if (typeof value !== "object" || value === null) return false;
  // Fast path: a `constructor` read that finds Object, then the prototype. Read in this order, V8
  // knows the object's shape at the second check and folds it to a constant where the site sees
  // few shapes; getPrototypeOf alone is a call (about 10 times the cost on one shape). An own
  // "constructor" key (it is data here) just sends the object down the exact path.
  if (
    (value as { constructor?: unknown }).constructor === Object &&
    getPrototypeOf(value) === ObjectPrototype
  )
    return true;
  if (Array.isArray(value)) return false;
  const proto = getPrototypeOf(value);
  return proto === ObjectPrototype || proto === null;
}

/**
 * The fast path of isPlainObject as JavaScript source over the expression `x` (a name), for
 * generated code (compiler/codegen.ts, values/field-reader.ts): true only for objects whose
 * prototype is Object.prototype, on which a name Object.prototype lacks can only be an own
 * property. False for the rest, which then take the exact path.
 */
export function plainObjectTest(x: string): string {
  return `typeof ${x} === "object" && ${x} !== null && ${x}.constructor === Object && Object.getPrototypeOf(${x}) === Object.prototype`;
}

const hasOwn = Object.prototype.hasOwnProperty;

/**
 * The most fields a row may have for an update to copy it whole (builtins/maps.ts, copiedRow):
 * each copy is charged as a vector copy is (time and the copy allowance), and stays as short as
 * a few map entries. Wider rows are read through by a program map, as before.
 */
export const ROW_COPY_FIELDS = 64;

/**
 * How many fields `map` has, when it is a row an update may copy with the field `key` changed;
 * 0 when it is not: prototype Object.prototype (and no own "constructor", the fast test above),
 * `key` one of its own enumerable fields (so the copy has it in the same place), at most
 * ROW_COPY_FIELDS fields, and a key that a plain object and a program map store alike: not
 * "__proto__" (assignment would change the copy's prototype) and not NUL-led (a program map
 * hashes those apart from keywords).
 */
export function rowFieldsWith(map: unknown, key: unknown): number {
  if (typeof key !== "string" || key === "__proto__" || key.charCodeAt(0) === 0) return 0;
  if (typeof map !== "object" || map === null) return 0;
  if ((map as { constructor?: unknown }).constructor !== Object || getPrototypeOf(map) !== ObjectPrototype)
    return 0;
  if (!hasOwn.call(map, key)) return 0;
  // for-in lists own enumerable fields first and never a prototype's field an own one shadows,
  // so meeting `key` here means the own field is enumerable. Counting stops at the limit.
  let fields = 0;
  let listed = false;
  for (const name in map) {
    if (++fields > ROW_COPY_FIELDS) return 0;
    if (name === key) listed = true;
  }
  return listed ? fields : 0;
}

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
