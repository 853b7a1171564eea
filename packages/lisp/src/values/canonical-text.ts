/**
 * Canonical text of a value: equal values (by `=`) give equal text, different values different
 * text. Used as the hash of composite map keys and set members; never shown to anyone.
 */
import { CustomValue } from "./custom-value.js";
import { Keyword } from "./keyword.js";
import { WholeFloat } from "./numbers.js";
import { isPlainObject } from "./plain-object.js";
import { isLispMap, isLispSet } from "./table-kind.js";
import { chargeWalk } from "./walk-meter.js";

let nextIdentity = 0;
const identities = new WeakMap<WeakKey, number>();

/**
 * A value compared by identity (a host object, a host function, a symbol). A symbol made with
 * `Symbol.for` cannot be a WeakMap key; it is the same symbol wherever its key is the same, so
 * its key names it.
 */
function identityText(value: WeakKey | symbol): string {
  if (typeof value === "symbol") {
    const key = Symbol.keyFor(value);
    if (key !== undefined) return `#symbol ${stringText(key)}`;
  }
  let id = identities.get(value as WeakKey);
  if (id === undefined) {
    id = ++nextIdentity;
    identities.set(value as WeakKey, id);
  }
  return `#identity ${id}`;
}

function numberText(value: number): string {
  if (Number.isInteger(value))
    return Number.isSafeInteger(value) ? String(value === 0 ? 0 : value) : integerText(BigInt(value));
  return String(value);
}

/**
 * An integer past 2^53, in hexadecimal: linear in its size, where V8's decimal text is not (a
 * set of large integers would otherwise spend most of its time here). No number's text has an x.
 */
function integerText(value: bigint): string {
  return `#x${value.toString(16)}`;
}

/**
 * JSON.stringify of a string, without the call for the common string that needs no escape
 * (no quote, backslash, control character or surrogate): the same text, made faster. Hashing
 * vector keys (group-by, frequencies, distinct over [region product]) spends its time here.
 */
function stringText(text: string): string {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x22 || code === 0x5c || (code >= 0xd800 && code <= 0xdfff))
      return JSON.stringify(text);
  }
  return `"${text}"`;
}

export function canonicalText(value: unknown): string {
  switch (typeof value) {
    case "string":
      return stringText(value);
    case "number":
      return numberText(value);
    case "bigint":
      return integerText(value);
    case "boolean":
      return value ? "true" : "false";
    case "undefined":
      return "nil";
    case "function":
      return identityText(value);
    case "object": {
      if (value === null) return "nil";
      if (value instanceof Keyword) return `:${stringText(value.name)}`;
      if (value instanceof WholeFloat) return numberText(value.value);
      if (Array.isArray(value)) {
        chargeWalk(value.length + 1);
        if (value.length <= 1024) {
          let text = "[";
          for (let i = 0; i < value.length; i++)
            text += i === 0 ? canonicalText(value[i]) : ` ${canonicalText(value[i])}`;
          return `${text}]`;
        }
        // A long vector of scalars is one charge above: charge again every 1024 items, so the
        // run's clock is read while ten million of them are turned into text.
        const parts = new Array<string>(value.length);
        for (let i = 0; i < value.length; i++) {
          parts[i] = canonicalText(value[i]);
          if ((i & 1023) === 1023) chargeWalk(1024);
        }
        return `[${parts.join(" ")}]`;
      }
      if (isLispMap(value)) {
        chargeWalk(value.size + 1);
        const parts = value.entries().map(([k, v]) => `${canonicalText(k)} ${canonicalText(v)}`);
        return `{${parts.sort().join(",")}}`;
      }
      if (isLispSet(value)) {
        chargeWalk(value.size + 1);
        return `#{${value.members().map(canonicalText).sort().join(" ")}}`;
      }
      if (value instanceof CustomValue) return value.canonical();
      if (isPlainObject(value)) {
        const keys = Object.keys(value);
        chargeWalk(keys.length + 1);
        const parts = keys.map(
          (k) => `${JSON.stringify(k)} ${canonicalText((value as Record<string, unknown>)[k])}`,
        );
        return `{${parts.sort().join(",")}}`;
      }
      return identityText(value);
    }
    default:
      return identityText(value as symbol);
  }
}
