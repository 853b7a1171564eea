/**
 * The `# Expected Output` section of a PTC-Lisp agent's prompt: the return type as a program
 * writes it (kebab-case keys), descriptions of its fields, and an example `(return ...)` call.
 */
import { renderType, type Signature, type SignatureType, toLispKey } from "@ptc/tool";

export function renderExpectedOutput(
  signature: Signature | undefined,
  fieldDescriptions: Readonly<Record<string, string>> | undefined,
): string | undefined {
  if (signature === undefined) return undefined;
  let text = `# Expected Output\n\nYour final answer must match this format: \`${renderType(signature.returns, { keyStyle: "lisp_prompt" })}\``;
  const described = Object.entries(fieldDescriptions ?? {});
  if (described.length > 0) {
    text += `\n\nField descriptions:\n${described.map(([name, description]) => `  - \`${toLispKey(name)}\`: ${description}`).join("\n")}`;
  }
  return `${text}\n\nCall \`(return ${exampleOf(signature.returns)})\` when complete.`;
}

/** A literal a program could return for `type`. */
export function exampleOf(type: SignatureType): string {
  if (typeof type === "string") {
    switch (type) {
      case "int":
        return "42";
      case "float":
        return "3.14";
      case "string":
        return '"result"';
      case "bool":
        return "true";
      case "keyword":
        return ":ok";
      case "any":
        return "...";
      case "map":
        return "{}";
      case "datetime":
        return '"2026-05-03T09:14:00Z"';
    }
  }
  switch (type.kind) {
    case "optional":
      return exampleOf(type.type);
    case "list":
      return "[]";
    case "map": {
      const fields = type.fields.map((field) => `:${toLispKey(field.name)} ${exampleOf(field.type)}`);
      return fields.length === 0 ? "{}" : `{${fields.join(" ")}}`;
    }
  }
}
