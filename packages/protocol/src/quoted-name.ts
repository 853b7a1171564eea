/**
 * A name the model wrote (a tool it called, a var it defined), quoted back to it. The model may
 * write a name of any length, and what it is told stays in its context for the rest of the run
 * (a stored var's name is told again every turn): a very long name keeps its start and says how
 * long it was. Real names are far shorter than the bound, and come back as written.
 */
import { truncateChars } from "./truncate.js";

/** Characters of a name quoted back. */
export const MAX_QUOTED_NAME_CHARS = 200;

export function quotedName(name: string): string {
  // The bound counts code points: a name of 150 emoji (300 UTF-16 units) is within it, whole.
  const cut = truncateChars(name, MAX_QUOTED_NAME_CHARS);
  return cut.truncated ? `${cut.text}... (${name.length} characters)` : name;
}

/**
 * Vars the memory feedback names at most: changed ones previewed, stored ones listed. The list is
 * sent again on every turn, so a program that defines thousands of vars must not make every later
 * turn cost their names again (9,000 vars: 863,205 characters a turn).
 */
export const MAX_LISTED_VARS = 50;
