/**
 * The namespace block of a PTC-Lisp agent's first message: the tools a program may call
 * (`;; === tools ===`), the context under `data/` with a type and a sample of each value, and the
 * memory a chat carries over (`;; === user/ ===`). Memory samples are program output, so they
 * travel inside untrusted envelopes.
 */
import { Keyword, LispMap, LispSet, preview } from "@ptc/lisp";
import { renderToolNamespace, wrapUntrusted } from "@ptc/protocol";
import { renderType, type Signature, type SignatureType, type Tool } from "@ptc/tool";
import { headOf } from "../cut-text.js";

const DATA_NAME_WIDTH = 30;
const SAMPLE_CHARS = 80;

export interface NamespaceInput {
  readonly tools: readonly Tool[];
  readonly context: Readonly<Record<string, unknown>>;
  readonly signature: Signature | undefined;
  readonly descriptions: Readonly<Record<string, string>>;
  readonly memory: Readonly<Record<string, unknown>>;
}

export function renderNamespaces(input: NamespaceInput): string {
  const parts = [renderToolNamespace(input.tools)];
  const data = renderDataSection(input.context, input.signature, input.descriptions);
  if (data !== "") parts.push(data);
  const user = renderUserSection(input.memory);
  if (user !== "") parts.push(user);
  return parts.join("\n\n");
}

function renderDataSection(
  context: Readonly<Record<string, unknown>>,
  signature: Signature | undefined,
  descriptions: Readonly<Record<string, string>>,
): string {
  const keys = Object.keys(context).sort();
  if (keys.length === 0) return "";
  const lines = keys.map((key) => {
    const declared = signature?.params.find((param) => param.name === key)?.type;
    const type = declared === undefined ? runtimeLabel(context[key]) : promptType(declared);
    const description = descriptions[key];
    const name = `data/${key}`.padEnd(DATA_NAME_WIDTH);
    const line = `${name}; ${type}, sample: ${sample(context[key])}`;
    return description === undefined ? line : `${line} -- ${description}`;
  });
  return [";; === data/ ===", ...lines].join("\n");
}

function renderUserSection(memory: Readonly<Record<string, unknown>>): string {
  const names = Object.keys(memory).sort();
  const functions = names.filter((name) => typeof memory[name] === "function");
  const values = names.filter((name) => typeof memory[name] !== "function" && !isEmpty(memory[name]));
  if (functions.length === 0 && values.length === 0) return "";
  const lines = [";; === user/ (your prelude) ==="];
  for (const name of functions) lines.push(`(${name} ...)`);
  for (const name of values) {
    const text = `${name}; ${runtimeLabel(memory[name])}, sample: ${sample(memory[name])}`;
    lines.push(wrapUntrusted(text, "memory"));
  }
  return lines.join("\n");
}

function isEmpty(value: unknown): boolean {
  if (value === null || value === undefined) return true;
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.keys(value).length === 0;
  }
  return false;
}

function sample(value: unknown): string {
  const text = preview(value, { maxChars: 40, maxItems: 3 }).text;
  return text.length > SAMPLE_CHARS ? `${headOf(text, SAMPLE_CHARS)}...` : text;
}

function promptType(type: SignatureType): string {
  return renderType(type, { keyStyle: "lisp_prompt" }).replaceAll(":", "");
}

/** A type label for a value with no declared type. */
export function runtimeLabel(value: unknown): string {
  if (value === null || value === undefined) return "nil";
  if (Array.isArray(value)) return `list[${value.length}]`;
  switch (typeof value) {
    case "string":
      return "string";
    case "number":
      return Number.isInteger(value) ? "integer" : "float";
    case "boolean":
      return "boolean";
    case "bigint":
      return "integer";
    case "function":
      return "fn";
  }
  if (value instanceof Date) return "datetime";
  if (value instanceof Keyword) return "keyword";
  if (value instanceof LispMap || value instanceof Map) return `map[${value.size}]`;
  if (value instanceof LispSet || value instanceof Set) return `set[${value.size}]`;
  const typeName = (value as { typeName?: unknown }).typeName;
  if (typeof typeName === "string") return typeName;
  if (Object.getPrototypeOf(value) === Object.prototype || Object.getPrototypeOf(value) === null) {
    return `map[${Object.keys(value as object).length}]`;
  }
  return "value";
}
