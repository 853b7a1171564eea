/**
 * A `lisp_eval` answer with its framed fields read back: @ptc/protocol wraps every text a program
 * produced (result, prints, error message) in the untrusted-output envelope, and tests compare
 * the text inside it.
 */
import { unwrapUntrusted } from "@ptc/protocol";

const FRAMED_FIELDS = ["result", "message", "feedback"] as const;

export function unframed(body: unknown): Record<string, unknown> {
  if (body === null || typeof body !== "object") return body as Record<string, unknown>;
  const copy: Record<string, unknown> = { ...(body as Record<string, unknown>) };
  for (const field of FRAMED_FIELDS) {
    const text = copy[field];
    if (typeof text === "string") copy[field] = unwrapUntrusted(text);
  }
  return copy;
}
