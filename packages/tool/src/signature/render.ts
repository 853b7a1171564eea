/**
 * Signatures back to text. `renderSignature(parseSignature(s))` parses to the same signature;
 * the prompt style (`keyStyle: "lisp_prompt"`) shows map keys the way a program writes them.
 */
import type { Signature, SignatureType } from "./types.js";

export interface RenderTypeOptions {
  /** `"lisp_prompt"` turns `snake_case` field names into `kebab-case` for prompts. */
  readonly keyStyle?: "as_written" | "lisp_prompt";
}

export function renderSignature(signature: Signature, options: RenderTypeOptions = {}): string {
  const returns = renderType(signature.returns, options);
  if (signature.params.length === 0) return `-> ${returns}`;
  const params = signature.params.map((param) => `${param.name} ${renderType(param.type, options)}`);
  return `(${params.join(", ")}) -> ${returns}`;
}

export function renderType(type: SignatureType, options: RenderTypeOptions = {}): string {
  if (typeof type === "string") return `:${type}`;
  switch (type.kind) {
    case "optional":
      return `${renderType(type.type, options)}?`;
    case "list":
      return `[${renderType(type.type, options)}]`;
    case "map": {
      const key = options.keyStyle === "lisp_prompt" ? toLispKey : (name: string) => name;
      const fields = type.fields.map((field) => `${key(field.name)} ${renderType(field.type, options)}`);
      return `{${fields.join(", ")}}`;
    }
  }
}

/**
 * `q1_total` -> `q1-total`. A leading underscore survives (`_email_ids` -> `_email-ids`) because
 * it marks a private field, not a word break.
 */
export function toLispKey(name: string): string {
  if (name.startsWith("_")) return `_${name.slice(1).replaceAll("_", "-")}`;
  return name.replaceAll("_", "-");
}
