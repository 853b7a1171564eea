/**
 * The PTC signature a model reads for an MCP tool, written from its `inputSchema` (the
 * parameters) and its `outputSchema` (the result's shape, `:any` when the server declares none).
 *
 * A signature is a summary for the prompt, not the check: the JSON Schema checks the arguments.
 * So whatever the signature language cannot say is said more loosely (`anyOf` becomes `:any`, an
 * enum of strings `:string`, a nullable string an optional one, an optional map `:map?` and an
 * optional list `:any?`, since only keyword types can be marked optional), and a schema it cannot summarize
 * at all (a parameter whose name is not a plain word) gives no signature rather than a wrong one.
 */
import { parseSignature } from "@ptc/tool";

const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_-]*$/;
const MAX_DEPTH = 3;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The one type a schema names, ignoring `null` (`["string", "null"]` is a string that may be absent). */
function schemaType(schema: Record<string, unknown>): string | undefined {
  const type = schema.type;
  if (typeof type === "string") return type;
  if (Array.isArray(type)) {
    const named = type.filter((item) => item !== "null");
    return named.length === 1 && typeof named[0] === "string" ? named[0] : undefined;
  }
  if (Array.isArray(schema.enum) && schema.enum.every((item) => typeof item === "string")) return "string";
  if (isRecord(schema.properties)) return "object";
  return undefined;
}

function renderType(schema: unknown, depth: number): string {
  if (!isRecord(schema)) return ":any";
  switch (schemaType(schema)) {
    case "string":
      return ":string";
    case "integer":
      return ":int";
    case "number":
      return ":float";
    case "boolean":
      return ":bool";
    case "array":
      return `[${renderType(schema.items, depth + 1)}]`;
    case "object":
      return renderObject(schema, depth) ?? ":map";
    default:
      return ":any";
  }
}

function renderFields(schema: Record<string, unknown>, depth: number): string[] | undefined {
  const properties = isRecord(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  const fields: string[] = [];
  for (const [name, property] of Object.entries(properties)) {
    if (!FIELD_NAME.test(name)) return undefined;
    const type = renderType(property, depth + 1);
    if (required.has(name)) fields.push(`${name} ${type}`);
    // Only a keyword type can be marked optional: an optional map or list is said loosely.
    else if (type.startsWith(":")) fields.push(`${name} ${type}?`);
    else fields.push(`${name} ${type.startsWith("{") ? ":map" : ":any"}?`);
  }
  return fields;
}

function renderObject(schema: Record<string, unknown>, depth: number): string | undefined {
  if (depth >= MAX_DEPTH || !isRecord(schema.properties) || Object.keys(schema.properties).length === 0) {
    return undefined;
  }
  const fields = renderFields(schema, depth);
  return fields === undefined ? undefined : `{${fields.join(", ")}}`;
}

/** `(a :string, b :int?) -> {x :float}` for the two schemas, or undefined when it cannot be said. */
export function schemaSignature(inputSchema: unknown, outputSchema: unknown): string | undefined {
  const input = isRecord(inputSchema) ? inputSchema : {};
  const params = renderFields(input, 0);
  if (params === undefined) return undefined;
  const returns = outputSchema === undefined ? ":any" : renderType(outputSchema, 0);
  const text = `(${params.join(", ")}) -> ${returns}`;
  // A safeguard, not a expected path: what does not parse back is no signature at all.
  return parseSignature(text).ok ? text : undefined;
}
