/**
 * Checks a value against a signature type and reports every mismatch with its path, so a model
 * can fix all of them in one more turn. Map fields are found under their written name, the
 * underscore form or the hyphen form, whichever the value uses.
 */
import { isPlainObject } from "../describe-value.js";
import { normalizeKey } from "../key-normalizer.js";
import type { Signature, SignatureField, SignatureType } from "./types.js";

export type ValidationPath = readonly (string | number)[];

export interface ValidationIssue {
  readonly path: ValidationPath;
  readonly message: string;
}

export type ValidationResult =
  | { readonly ok: true }
  | { readonly ok: false; readonly errors: readonly ValidationIssue[] };

// The characters a PTC-Lisp keyword name may use; a string of them is an externalized keyword.
const KEYWORD_NAME = /^[a-zA-Z0-9+\-*<>=?!_]+$/;

/** Validates a program's or model's answer against the signature's return type. */
export function validateReturn(signature: Signature, value: unknown): ValidationResult {
  return validateType(signature.returns, value);
}

/** Validates tool arguments against the signature's parameters (an open map of them). */
export function validateInput(signature: Signature, args: unknown): ValidationResult {
  return validateType({ kind: "map", fields: signature.params, closed: false }, args);
}

export function validateType(type: SignatureType, value: unknown): ValidationResult {
  const errors: ValidationIssue[] = [];
  check(type, value, [], errors);
  return errors.length === 0 ? { ok: true } : { ok: false, errors };
}

/**
 * Issues a message lists, and characters of each. The message goes back to the model whose value
 * or arguments did not fit: 300,000 wrong items make 300,000 issues (3.9 MB), and the first few
 * say what is wrong as well as all of them. `errors` itself keeps every issue.
 */
const MAX_LISTED_ISSUES = 20;
const MAX_ISSUE_CHARS = 300;

/** `root: expected int, got string; items.0.id: expected field, got nil`, then `; ... (N more)`. */
export function formatValidationErrors(errors: readonly ValidationIssue[]): string {
  const listed = errors.slice(0, MAX_LISTED_ISSUES).map((error) => {
    const line = `${error.path.length === 0 ? "root" : error.path.join(".")}: ${error.message}`;
    return line.length > MAX_ISSUE_CHARS
      ? `${line.slice(0, MAX_ISSUE_CHARS)}... (${line.length} characters)`
      : line;
  });
  const more = errors.length - MAX_LISTED_ISSUES;
  return more > 0 ? `${listed.join("; ")}; ... (${more} more)` : listed.join("; ");
}

function check(type: SignatureType, value: unknown, path: ValidationPath, errors: ValidationIssue[]): void {
  const fail = (expected: string) =>
    errors.push({ path, message: `expected ${expected}, got ${typeName(value)}` });
  if (typeof type === "string") {
    switch (type) {
      case "any":
        return;
      case "string":
        if (typeof value !== "string") fail("string");
        return;
      case "int":
        if (!isInteger(value)) fail("int");
        return;
      case "float":
        if (typeof value !== "number" && typeof value !== "bigint") fail("float");
        return;
      case "bool":
        if (typeof value !== "boolean") fail("bool");
        return;
      case "keyword":
        if (typeof value !== "string" || !KEYWORD_NAME.test(value)) fail("keyword");
        return;
      case "map":
        if (!isPlainObject(value)) fail("map");
        return;
      case "datetime":
        if (!(value instanceof Date) || Number.isNaN(value.getTime())) fail("datetime (Date)");
        return;
    }
  }
  switch (type.kind) {
    case "optional":
      if (value !== null && value !== undefined) check(type.type, value, path, errors);
      return;
    case "list":
      if (!Array.isArray(value)) {
        fail("list");
        return;
      }
      value.forEach((element, index) => {
        check(type.type, element, [...path, index], errors);
      });
      return;
    case "map":
      if (!isPlainObject(value)) {
        fail("map");
        return;
      }
      checkFields(type.fields, type.closed, value, path, errors);
      return;
  }
}

function checkFields(
  fields: readonly SignatureField[],
  closed: boolean,
  value: Record<string, unknown>,
  path: ValidationPath,
  errors: ValidationIssue[],
): void {
  const consumed = new Set<string>();
  for (const field of fields) {
    const key = findFieldKey(value, field.name);
    if (key === undefined) {
      if (typeof field.type === "string" || field.type.kind !== "optional") {
        errors.push({ path: [...path, field.name], message: "expected field, got nil" });
      }
      continue;
    }
    consumed.add(key);
    check(field.type, value[key], [...path, field.name], errors);
  }
  if (!closed) return;
  const extra = Object.keys(value)
    .filter((key) => !consumed.has(key))
    .sort();
  for (const key of extra) {
    errors.push({
      path: [...path, key],
      message: "unexpected field — schema disallows additional properties",
    });
  }
}

/** The key under which `value` holds the field, trying `a_b`, the written name, then `a-b`. */
export function findFieldKey(value: Record<string, unknown>, name: string): string | undefined {
  const normalized = normalizeKey(name);
  for (const candidate of [normalized, name, normalized.replaceAll("_", "-")]) {
    if (Object.hasOwn(value, candidate)) return candidate;
  }
  return undefined;
}

function isInteger(value: unknown): boolean {
  return (typeof value === "number" && Number.isInteger(value)) || typeof value === "bigint";
}

// A nil value reads "nil", not "keyword" as in the reference (where nil is an atom): the message
// is for a model, and "got keyword" for a missing value misleads it.
function typeName(value: unknown): string {
  if (value === null || value === undefined) return "nil";
  if (typeof value === "string") return "string";
  if (typeof value === "boolean") return "bool";
  if (typeof value === "bigint") return "int";
  if (typeof value === "number") return Number.isInteger(value) ? "int" : "float";
  if (Array.isArray(value)) return "list";
  if (isPlainObject(value)) return "map";
  if (value instanceof Date) return "datetime";
  if (typeof value === "function") return "function";
  const constructorName = (value as { constructor?: { name?: unknown } }).constructor?.name;
  return typeof constructorName === "string" && constructorName !== "" ? constructorName : typeof value;
}
