/**
 * The `;; === tools ===` block of a PTC-Lisp agent's first user message: every tool a program
 * may call, as `tool/name(param type, ...) -> type  ; description`, sorted by name, with one
 * example call. Types drop their colons and map keys are kebab-case, the way programs write them.
 * A tool without a (parsable) signature shows as `() -> any`.
 */
import { orderedTools, parseSignature, renderType, type Signature, toLispKey } from "@ptc/tool";

export interface NamespaceTool {
  readonly name: string;
  readonly signature?: string | undefined;
  readonly parsedSignature?: Signature | undefined;
  readonly description?: string | undefined;
}

export function renderToolNamespace(
  tools:
    | readonly NamespaceTool[]
    | Readonly<Record<string, NamespaceTool>>
    | ReadonlyMap<string, NamespaceTool>,
): string {
  const sorted = orderedTools(tools).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  if (sorted.length === 0) return ";; No tools available";
  const entries = sorted.map((tool) => ({ tool, signature: signatureOf(tool) }));
  const lines = entries.map(({ tool, signature }) => {
    const params = signature.params
      .map((param) => `${toLispKey(param.name)} ${promptType(param.type)}`)
      .join(", ");
    const base = `tool/${tool.name}(${params}) -> ${promptType(signature.returns)}`;
    return tool.description === undefined || tool.description === ""
      ? base
      : `${base}  ; ${tool.description}`;
  });
  const withParams = entries.find(({ signature }) => signature.params.length > 0);
  const example =
    withParams === undefined
      ? ";; Call with named args: (tool/name {:key value})"
      : `;; Example: (tool/${withParams.tool.name} {${withParams.signature.params.map((param) => `:${toLispKey(param.name)} ...`).join(" ")}})`;
  return [";; === tools ===", ...lines, example].join("\n");
}

function signatureOf(tool: NamespaceTool): Signature {
  if (tool.parsedSignature !== undefined) return tool.parsedSignature;
  if (tool.signature !== undefined) {
    const parsed = parseSignature(tool.signature);
    if (parsed.ok) return parsed.signature;
  }
  return { params: [], returns: "any" };
}

function promptType(type: Signature["returns"]): string {
  return renderType(type, { keyStyle: "lisp_prompt" }).replaceAll(":", "");
}
