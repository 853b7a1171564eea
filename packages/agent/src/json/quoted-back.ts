/**
 * What the model sent, quoted back to it in an error (`args_received`, an unknown tool's name).
 * The model may send anything of any size, and every answer it gets stays in its context for the
 * rest of the run: a call with two megabytes of arguments must not cost two more megabytes when it
 * is rejected. Small arguments come back exactly as sent (the model compares them with what it
 * meant); larger ones as the start of their JSON text, with a marker saying they were cut and how
 * long they were.
 */
import { headOf } from "../cut-text.js";

/** JSON characters of arguments quoted back whole; past this they are cut to a preview. */
export const MAX_ARGS_RECEIVED_CHARS = 1000;

/** Characters of a name (a tool's) quoted back in an error message. */
export const MAX_QUOTED_NAME_CHARS = 200;

/**
 * `args` when its JSON text is at most MAX_ARGS_RECEIVED_CHARS long, else a string: the first
 * MAX_ARGS_RECEIVED_CHARS characters of that JSON and `... (cut: N characters of JSON)`. A string
 * stays valid in any JSON the caller writes it into, whatever the cut splits.
 */
export function argsReceived(args: unknown): unknown {
  let text: string | undefined;
  try {
    text = JSON.stringify(args);
  } catch {
    // Arguments are made JSON-safe when the model's response is read; this is only a guard.
    return "(arguments that could not be written as JSON)";
  }
  if (text === undefined || text.length <= MAX_ARGS_RECEIVED_CHARS) return args;
  return `${headOf(text, MAX_ARGS_RECEIVED_CHARS)}... (cut: ${text.length} characters of JSON)`;
}

/** A name as sent when short, else its start and its length. */
export function quotedName(name: string): string {
  return name.length > MAX_QUOTED_NAME_CHARS
    ? `${headOf(name, MAX_QUOTED_NAME_CHARS)}... (${name.length} characters)`
    : name;
}
