/**
 * Checks the `program` argument of a `lisp_eval` call before anything runs, with the wording
 * every transport shares.
 */
import { truncateChars } from "./truncate.js";

export type ProgramValidation =
  | { readonly ok: true; readonly program: string }
  | { readonly ok: false; readonly reason: "args_error"; readonly message: string };

export function validateProgram(program: unknown): ProgramValidation {
  if (program === undefined || program === null) {
    return {
      ok: false,
      reason: "args_error",
      message: "lisp_eval requires a non-empty `program` string argument.",
    };
  }
  if (typeof program !== "string") {
    return {
      ok: false,
      reason: "args_error",
      message: `lisp_eval \`program\` must be a string, got ${describe(program)}.`,
    };
  }
  if (program.trim() === "") {
    return { ok: false, reason: "args_error", message: "lisp_eval `program` must be a non-empty string." };
  }
  return { ok: true, program };
}

/** Characters of the value quoted back: enough to recognize it, never the whole of a huge one. */
const MAX_QUOTED = 200;

function describe(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    try {
      text = String(value);
    } catch {
      // A cycle with no text form of its own (`Object.create(null)`), a revoked proxy.
      text = "a value with no text form";
    }
  }
  // The bound counts code points: "..." only when something was cut.
  const cut = truncateChars(text, MAX_QUOTED);
  return cut.truncated ? `${cut.text}... (${text.length} characters)` : text;
}
