/**
 * Signatures to JSON Schema (for provider tool parameters and structured output) and back.
 *
 * The generated schemas stay inside the subset strict provider modes accept: no `format`
 * (datetime is a plain string, checked locally after parsing) and `:any` as `{"type": "object"}`
 * because some providers require a `type` on every schema.
 */
import { describeValue, isPlainObject } from "../describe-value.js";
import { setOwn } from "../own-property.js";
import type { Signature, SignatureField, SignatureType } from "./types.js";

export type JsonSchema = { readonly [key: string]: unknown };

export function typeToJsonSchema(type: SignatureType): JsonSchema {
  if (typeof type === "string") {
    switch (type) {
      case "string":
      case "keyword":
      case "datetime":
        return { type: "string" };
      case "int":
        return { type: "integer" };
      case "float":
        return { type: "number" };
      case "bool":
        return { type: "boolean" };
      case "any":
      case "map":
        return { type: "object" };
    }
  }
  switch (type.kind) {
    case "optional":
      // Optionality lives in the parent's `required` list, not in the value's schema.
      return typeToJsonSchema(type.type);
    case "list":
      return { type: "array", items: typeToJsonSchema(type.type) };
    case "map":
      return { ...fieldsSchema(type.fields), additionalProperties: false };
  }
}

/**
 * The schema of a signature's return value. A list is wrapped as `{"items": [...]}` because most
 * providers want an object at the root of structured output.
 */
export function signatureToJsonSchema(signature: Signature): JsonSchema {
  const returns = signature.returns;
  if (typeof returns !== "string" && returns.kind === "list") {
    return {
      type: "object",
      properties: { items: typeToJsonSchema(returns) },
      required: ["items"],
      additionalProperties: false,
    };
  }
  return typeToJsonSchema(returns);
}

/**
 * The `parameters` object of a provider tool: one property per parameter, non-optional ones
 * required in declaration order. Without parameters it is an empty object schema with no
 * `required` key, as the reference sends it.
 */
export function parametersJsonSchema(signature: Signature | undefined): JsonSchema {
  if (signature === undefined || signature.params.length === 0) return { type: "object", properties: {} };
  return fieldsSchema(signature.params);
}

export function returnsList(signature: Signature | undefined): boolean {
  return (
    signature !== undefined && typeof signature.returns !== "string" && signature.returns.kind === "list"
  );
}

function fieldsSchema(fields: readonly SignatureField[]): {
  type: "object";
  properties: JsonSchema;
  required: string[];
} {
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const field of fields) {
    setOwn(properties, field.name, typeToJsonSchema(field.type));
    if (typeof field.type === "string" || field.type.kind !== "optional") required.push(field.name);
  }
  return { type: "object", properties, required };
}

export type FromJsonSchemaResult =
  | { readonly ok: true; readonly type: SignatureType }
  | { readonly ok: false; readonly error: string };

export interface FromJsonSchemaOptions {
  /**
   * Ignore keywords outside the supported subset (`minimum`, `format`, `$schema`...) instead of
   * rejecting the schema. Used to derive a prompt signature from a library's schema, where a
   * bound on a number must not make the whole signature disappear.
   */
  readonly lenient?: boolean;
}

const SCALAR_KEYS = ["type", "description"];
const ARRAY_KEYS = ["type", "description", "items"];
const OBJECT_KEYS = ["type", "description", "properties", "required", "additionalProperties"];

/**
 * The inverse of `typeToJsonSchema` over a small subset: scalar types, arrays with `items`, and
 * objects with `properties`/`required`/`additionalProperties`. Properties not listed in
 * `required` become optional; `additionalProperties: false` makes a closed map.
 */
export function fromJsonSchema(schema: unknown, options: FromJsonSchemaOptions = {}): FromJsonSchemaResult {
  try {
    return { ok: true, type: convert(schema, options.lenient === true) };
  } catch (error) {
    if (error instanceof SchemaFailure) return { ok: false, error: error.message };
    throw error;
  }
}

class SchemaFailure extends Error {}

function convert(schema: unknown, lenient: boolean): SignatureType {
  if (!isPlainObject(schema))
    throw new SchemaFailure(`schema must be a JSON object, got ${describeValue(schema)}`);
  if (!Object.hasOwn(schema, "type")) throw new SchemaFailure('schema must have a "type" key');
  const type = schema.type;
  switch (type) {
    case "string":
      checkKeys(schema, SCALAR_KEYS, lenient);
      return "string";
    case "integer":
      checkKeys(schema, SCALAR_KEYS, lenient);
      return "int";
    case "number":
      checkKeys(schema, SCALAR_KEYS, lenient);
      return "float";
    case "boolean":
      checkKeys(schema, SCALAR_KEYS, lenient);
      return "bool";
    case "array":
      return convertArray(schema, lenient);
    case "object":
      return convertObject(schema, lenient);
    default:
      throw new SchemaFailure(`unsupported type: ${describeValue(type)}`);
  }
}

function convertArray(schema: Record<string, unknown>, lenient: boolean): SignatureType {
  checkKeys(schema, ARRAY_KEYS, lenient);
  if (!Object.hasOwn(schema, "items")) throw new SchemaFailure('array type requires an "items" key');
  if (!isPlainObject(schema.items)) throw new SchemaFailure('array "items" must be a JSON object');
  return { kind: "list", type: convert(schema.items, lenient) };
}

function convertObject(schema: Record<string, unknown>, lenient: boolean): SignatureType {
  checkKeys(schema, OBJECT_KEYS, lenient);
  const additional = schema.additionalProperties;
  let closed: boolean;
  if (additional === undefined || additional === true) closed = false;
  else if (additional === false) closed = true;
  else if (lenient) closed = false;
  else
    throw new SchemaFailure(`"additionalProperties" must be true or false, got ${describeValue(additional)}`);

  const required = schema.required ?? [];
  if (!Array.isArray(required)) throw new SchemaFailure('"required" must be an array of strings');
  const properties = schema.properties;
  if (properties !== undefined && !isPlainObject(properties)) {
    throw new SchemaFailure('object "properties" must be a JSON object');
  }
  const declared = properties === undefined ? [] : Object.keys(properties);
  for (const entry of required) {
    if (typeof entry !== "string")
      throw new SchemaFailure(`"required" entries must be strings, got ${describeValue(entry)}`);
    if (!declared.includes(entry)) {
      throw new SchemaFailure(`"required" entry ${JSON.stringify(entry)} is not a declared property`);
    }
  }
  // No `properties` at all: an open object is the untyped `:map`; a closed one has no fields.
  if (properties === undefined) return closed ? { kind: "map", fields: [], closed: true } : "map";

  const fields: SignatureField[] = [];
  for (const name of [...declared].sort()) {
    let type: SignatureType;
    try {
      type = convert(properties[name], lenient);
    } catch (error) {
      if (error instanceof SchemaFailure)
        throw new SchemaFailure(`property ${JSON.stringify(name)}: ${error.message}`);
      throw error;
    }
    fields.push({ name, type: required.includes(name) ? type : { kind: "optional", type } });
  }
  return { kind: "map", fields, closed };
}

function checkKeys(schema: Record<string, unknown>, allowed: readonly string[], lenient: boolean): void {
  if (lenient) return;
  const extra = Object.keys(schema).filter((key) => !allowed.includes(key));
  if (extra.length > 0) throw new SchemaFailure(`unsupported JSON Schema key(s): ${extra.sort().join(", ")}`);
}
