/**
 * Whether REPL input is complete: every bracket closed and no string left open. Only a scan for
 * brackets, strings, character literals and comments; the reader judges everything else. Input
 * with too many closing brackets counts as complete, so the reader can report it.
 */
export function isComplete(text: string): boolean {
  return new InputBalance().feed(text);
}

/**
 * isComplete for input that arrives a line at a time. The REPL feeds each line as it comes and
 * the scan goes on from where the last one stopped, so a long unfinished form piped in costs time
 * in its length, not in its length times its lines (rescanning the whole buffer per line took
 * 3.6 s for 20,000 lines).
 */
export class InputBalance {
  #depth = 0;
  #inString = false;
  #inComment = false;
  /** The next character is escaped (a backslash ended the last piece). */
  #skipNext = false;
  #closedTooMuch = false;

  /** Scans `piece`, the input's next characters; returns whether the input so far is complete. */
  feed(piece: string): boolean {
    let i = 0;
    if (this.#skipNext) {
      this.#skipNext = false;
      i = 1;
    }
    for (; i < piece.length && !this.#closedTooMuch; i++) {
      const char = piece[i];
      if (this.#inComment) {
        if (char === "\n") this.#inComment = false;
        continue;
      }
      if (this.#inString) {
        if (char === "\\") i++;
        else if (char === '"') this.#inString = false;
        continue;
      }
      switch (char) {
        case '"':
          this.#inString = true;
          break;
        case "\\":
          // A character literal such as \( or \" is not a bracket or a string.
          i++;
          break;
        case ";":
          this.#inComment = true;
          break;
        case "(":
        case "[":
        case "{":
          this.#depth++;
          break;
        case ")":
        case "]":
        case "}":
          if (--this.#depth < 0) this.#closedTooMuch = true;
          break;
      }
    }
    // An escape whose character is in the next piece.
    if (i > piece.length) this.#skipNext = true;
    return this.#closedTooMuch || (!this.#inString && this.#depth <= 0);
  }
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
