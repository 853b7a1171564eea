/**
 * Checks the `program` argument of a `lisp_eval` call before anything runs, with the wording
 * every transport shares.
 */

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

function describe(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
