/**
 * Whether REPL input is complete: every bracket closed and no string left open. Only a scan for
 * brackets, strings, character literals and comments; the reader judges everything else. Input
 * with too many closing brackets counts as complete, so the reader can report it.
 */
export function isComplete(text: string): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (inString) {
      if (char === "\\") i++;
      else if (char === '"') inString = false;
      continue;
    }
    switch (char) {
      case '"':
        inString = true;
        break;
      case "\\":
        // A character literal such as \( or \" is not a bracket or a string.
        i++;
        break;
      case ";":
        while (i < text.length && text[i] !== "\n") i++;
        break;
      case "(":
      case "[":
      case "{":
        depth++;
        break;
      case ")":
      case "]":
      case "}":
        depth--;
        if (depth < 0) return true;
        break;
    }
  }
  return !inString && depth <= 0;
}
