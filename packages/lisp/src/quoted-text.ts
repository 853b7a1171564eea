/**
 * How much of a program's own text an error message quotes. A message goes back to the model
 * that wrote the program, and stays in its context: a program may name a symbol, keyword, tool or
 * namespace a megabyte long (a program may be a megabyte), and an error that quoted it whole would
 * send that megabyte back, once per quote. So a quoted name keeps its start and says how long it
 * was, and every message (but a `(fail v)`'s, which is the program's own value) has a bound.
 */
import { headOf, tailOf } from "./cut-text.js";

/** Characters of a name quoted in a message: far more than any real name has. */
export const MAX_QUOTED_NAME_CHARS = 200;

/** Characters of an error message kept; a longer one keeps its start and its end (the advice). */
export const MAX_MESSAGE_CHARS = 8000;

const MESSAGE_HEAD_CHARS = 6000;
const MESSAGE_TAIL_CHARS = 1500;

/** A name from the program as written, or its start and length when it is very long. */
export function quotedName(name: string): string {
  return name.length > MAX_QUOTED_NAME_CHARS
    ? `${headOf(name, MAX_QUOTED_NAME_CHARS)}... (${name.length} characters)`
    : name;
}

/**
 * A message as it is, or, past MAX_MESSAGE_CHARS, its start and end around a note of how much was
 * cut. The net under the quoting above, for any message that quotes what no site bounded.
 */
export function boundedMessage(message: string): string {
  if (message.length <= MAX_MESSAGE_CHARS) return message;
  const cut = message.length - MESSAGE_HEAD_CHARS - MESSAGE_TAIL_CHARS;
  return `${headOf(message, MESSAGE_HEAD_CHARS)} ... (${cut} characters cut) ... ${tailOf(message, MESSAGE_TAIL_CHARS)}`;
}
