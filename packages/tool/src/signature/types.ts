/**
 * The shape of a parsed PTC signature. Kept as plain, JSON-safe data so it can be logged,
 * compared with `toEqual` and built by hand in tests.
 */

/** `:boolean` parses to `"bool"`; the rest name themselves. */
export type PrimitiveType = "string" | "int" | "float" | "bool" | "keyword" | "any" | "map" | "datetime";

export interface OptionalType {
  readonly kind: "optional";
  readonly type: SignatureType;
}

export interface ListType {
  readonly kind: "list";
  readonly type: SignatureType;
}

/**
 * `{field :type, ...}`. Signatures written by hand are always open (extra keys allowed);
 * only `fromJsonSchema` with `additionalProperties: false` produces a closed map.
 */
export interface MapType {
  readonly kind: "map";
  readonly fields: readonly SignatureField[];
  readonly closed: boolean;
}

export type SignatureType = PrimitiveType | OptionalType | ListType | MapType;

export interface SignatureField {
  readonly name: string;
  readonly type: SignatureType;
}

export interface Signature {
  readonly params: readonly SignatureField[];
  readonly returns: SignatureType;
}

export const PRIMITIVE_TYPES: readonly PrimitiveType[] = [
  "string",
  "int",
  "float",
  "bool",
  "keyword",
  "any",
  "map",
  "datetime",
];
