/**
 * Reading a reply of the content transport: one fenced program (or a bare s-expression), or a
 * problem the model is told about (no program, or several blocks where one is required).
 */
import { extractCode, stripThinking } from "../parsing/extract-code.js";

export const NO_CODE_MESSAGE =
  "Error: No valid PTC-Lisp code found in response. Please provide code in a ```clojure or ```lisp code block, or as a raw s-expression starting with '('.";

export function multipleBlocksMessage(count: number): string {
  return `Error: Found ${count} code blocks in your response, but exactly ONE is required. Combine all your code into a single \`\`\`clojure block. Variables defined in separate blocks are NOT shared.`;
}

export type ContentRead =
  /** `stored` is the reply kept in the conversation: the reply without its thinking. */
  | { readonly kind: "program"; readonly program: string; readonly raw: string; readonly stored: string }
  | { readonly kind: "problem"; readonly message: string; readonly raw: string };

export function readContent(content: string | null): ContentRead {
  const raw = content ?? "";
  const extracted = extractCode(raw);
  if (extracted.ok) return { kind: "program", program: extracted.code, raw, stored: stripThinking(raw) };
  const message = extracted.reason === "no_code" ? NO_CODE_MESSAGE : multipleBlocksMessage(extracted.count);
  return { kind: "problem", message, raw };
}
