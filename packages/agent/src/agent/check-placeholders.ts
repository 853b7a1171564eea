/**
 * Checks an agent's prompt template against its signature when the agent is created: every
 * `{{placeholder}}` must name a parameter, and a text-mode agent must use every parameter (it has
 * no `data/` namespace, so an unused parameter would never reach the model) with section fields
 * that exist in the list's element type.
 */
import { renderType, type Signature, type SignatureType } from "@ptc/tool";
import { AgentError } from "../errors.js";
import { type SectionPlaceholder, templatePlaceholders } from "../parsing/template.js";

function invalid(message: string): AgentError {
  return new AgentError("PTC_AGENT_INVALID_OPTION", message, { details: { option: "prompt" } });
}

export function checkPlaceholders(prompt: string, signature: Signature): void {
  const params = new Set(signature.params.map((param) => param.name));
  const missing = templatePlaceholders(prompt).names.filter((name) => !params.has(name));
  if (missing.length > 0) {
    throw invalid(
      `placeholders ${missing.map((name) => `{{${name}}}`).join(", ")} not found in signature; the signature's parameters are: ${[...params].join(", ") || "(none)"}`,
    );
  }
}

function unwrap(type: SignatureType): SignatureType {
  return typeof type === "object" && type.kind === "optional" ? unwrap(type.type) : type;
}

export function checkTextModePlaceholders(prompt: string, signature: Signature): void {
  const placeholders = templatePlaceholders(prompt);
  const used = new Set<string>([
    ...placeholders.variables.map((variable) => variable.path[0] ?? ""),
    ...placeholders.sections.map((section) => section.name.split(".")[0] ?? ""),
  ]);
  const unused = signature.params
    .map((param) => param.name)
    .filter((name) => !used.has(name))
    .sort();
  if (unused.length > 0) {
    throw invalid(`Text mode requires all signature params in prompt. Unused: ${JSON.stringify(unused)}`);
  }
  const types = new Map(signature.params.map((param) => [param.name, param.type]));
  const errors: string[] = [];
  for (const dot of placeholders.topLevelDots) {
    errors.push(`{{.}} at line ${dot.line} can only be used inside sections`);
  }
  for (const variable of placeholders.variables) {
    const name = variable.path[0] ?? "";
    if (!types.has(name)) errors.push(`{{${variable.path.join(".")}}} not found in signature parameters`);
  }
  for (const section of placeholders.sections) checkSection(section, types, errors);
  if (errors.length > 0) throw invalid(errors.join("; "));
}

function checkSection(
  section: SectionPlaceholder,
  types: Map<string, SignatureType>,
  errors: string[],
): void {
  const declared = types.get(section.name);
  if (declared === undefined) {
    errors.push(`{{#${section.name}}} not found in signature parameters`);
    return;
  }
  const type = unwrap(declared);
  if (section.inverted || typeof type !== "object" || type.kind !== "list") return;
  const element = unwrap(type.type);
  for (const field of section.fields) {
    if (typeof element === "object" && element.kind === "map") {
      if (field.isDot) {
        errors.push(
          `{{.}} at line ${field.line} inside {{#${section.name}}} - use {{field}} instead (list contains maps)`,
        );
      } else if (!element.fields.some((candidate) => candidate.name === field.path[0])) {
        errors.push(`{{${field.path.join(".")}}} inside {{#${section.name}}} not found in element type`);
      }
    } else if (!field.isDot) {
      errors.push(
        `{{${field.path.join(".")}}} inside {{#${section.name}}} - cannot access field on ${renderType(element)}. Use {{.}} instead.`,
      );
    }
  }
}
