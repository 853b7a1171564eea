/**
 * Reads a `lisp_eval` tool message the way a host does: the JSON, with every framed field
 * (result, prints, memory previews, error message, feedback, failed value) unwrapped to the text
 * inside its envelope. Tests about what a program showed compare that text; tests about the
 * framing itself look at the raw message.
 */
import { unwrapUntrusted } from "../index.js";

export function readToolBody(content: string | undefined): Record<string, unknown> {
  const body = JSON.parse(content ?? "null") as Record<string, unknown> | null;
  if (body === null || typeof body !== "object" || Array.isArray(body)) {
    return body as unknown as Record<string, unknown>;
  }
  const read: Record<string, unknown> = { ...body };
  for (const field of ["result", "message", "feedback"]) {
    if (typeof read[field] === "string") read[field] = unwrapUntrusted(read[field] as string);
  }
  if (Array.isArray(read.prints)) {
    read.prints = (read.prints as string[]).flatMap((text) => unwrapUntrusted(text).split("\n"));
  }
  const memory = read.memory as { changed?: Record<string, string> } | undefined;
  if (memory?.changed !== undefined) {
    read.memory = {
      ...memory,
      changed: Object.fromEntries(
        Object.entries(memory.changed).map(([name, text]) => [name, unwrapUntrusted(text)]),
      ),
    };
  }
  return read;
}
