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

/**
 * A multi-line REPL input as one history line: each line break (and the indentation after it)
 * becomes one space. Undefined when that would change the program: a comment would swallow
 * what follows it, and a line break inside a string is part of the string.
 */
export function joinedLines(text: string): string | undefined {
  let out = "";
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i] as string;
    if (inString) {
      if (char === "\n") return undefined;
      out += char;
      if (char === "\\") out += text[++i] ?? "";
      else if (char === '"') inString = false;
      continue;
    }
    if (char === ";") return undefined;
    if (char === "\r" || char === "\n") {
      while (i + 1 < text.length && /[ \t\r\n]/.test(text[i + 1] as string)) i++;
      out = `${out.trimEnd()} `;
      continue;
    }
    out += char;
    if (char === '"') inString = true;
    else if (char === "\\") out += text[++i] ?? "";
  }
  return out.trim();
}
