/**
 * The reader: source text to forms, with a line and column on every form.
 *
 * It never recurses deeper than `maxNesting` (a reader bomb of a million brackets fails at the
 * first bracket past the limit), never builds integers longer than 100 digits, and reports every
 * problem as a parse_error that says where and what to write instead.
 */
import { LispError } from "../errors.js";
import { WholeFloat } from "../values/numbers.js";
import type { CollectionForm, Form, Position } from "./form.js";

export interface ReadOptions {
  /** Deepest allowed bracket nesting (the reference allows 64). */
  readonly maxNesting?: number;
}

const MAX_INTEGER_DIGITS = 100;
const DEFAULT_MAX_NESTING = 64;

const CLOSERS: Record<string, string> = { "(": ")", "[": "]", "{": "}" };
const NAMED_CHARACTERS: ReadonlyArray<readonly [string, string]> = [
  ["newline", "\n"],
  ["space", " "],
  ["tab", "\t"],
  ["return", "\r"],
  ["backspace", "\b"],
  ["formfeed", "\f"],
];

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

/** Character classes of ASCII, one bit each: a table lookup per character instead of a search. */
const SYMBOL_START = 1;
const SYMBOL_CHAR = 2;
const KEYWORD_CHAR = 4;
const CLASSES = (() => {
  const table = new Uint8Array(128);
  const mark = (characters: string, bit: number): void => {
    for (let i = 0; i < characters.length; i++) {
      const code = characters.charCodeAt(i);
      table[code] = (table[code] as number) | bit;
    }
  };
  const letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
  const digits = "0123456789";
  mark(letters, SYMBOL_START | SYMBOL_CHAR | KEYWORD_CHAR);
  mark(digits, SYMBOL_CHAR | KEYWORD_CHAR);
  mark("+-*/<>=?!_%.&", SYMBOL_START);
  mark("+-*/<>=?!_%.&'", SYMBOL_CHAR);
  mark("+-*<>=?!_", KEYWORD_CHAR);
  return table;
})();

/** Whether `code` (a UTF-16 unit, or NaN past the end) is an ASCII character of `bit`'s class. */
function isOfClass(code: number, bit: number): boolean {
  return code < 128 && ((CLASSES[code] as number) & bit) !== 0;
}

/** Characters that may start a symbol. */
function isSymbolStart(code: number): boolean {
  return isOfClass(code, SYMBOL_START);
}

/** Characters that may continue a symbol (digits and the prime too, as in `inc'`). */
function isSymbolChar(code: number): boolean {
  return isOfClass(code, SYMBOL_CHAR);
}

function nameOfBracket(open: string): string {
  return open === "(" ? "parentheses" : open === "[" ? "brackets" : "braces";
}

/** A closing bracket found where nothing was open: ignored, as in the reference. */
export interface StrayCloser extends Position {
  readonly char: string;
}

class Reader {
  readonly strayClosers: StrayCloser[] = [];
  /**
   * Symbol, keyword, var and quote forms read, discarded ones (`#_`) included: an upper bound on
   * a program's distinct names, so that run checks the symbol limit only when it could be passed.
   */
  nameForms = 0;
  /** The items of the collections being read, innermost last (see readCollection). */
  private readonly pending: Form[] = [];
  /**
   * How many of `pending` are in use. The array is never shortened (setting `length` is a call into
   * the runtime, once per collection): slots past this are stale and overwritten.
   */
  private pendingCount = 0;
  private index = 0;
  private line = 1;
  private column = 1;
  private readonly maxNesting: number;

  constructor(
    private readonly source: string,
    options: ReadOptions,
  ) {
    this.maxNesting = options.maxNesting ?? DEFAULT_MAX_NESTING;
  }

  readProgram(): Form[] {
    const forms: Form[] = [];
    for (;;) {
      this.skipWhitespaceAndStrayClosers();
      if (this.index >= this.source.length) return forms;
      const form = this.readForm(0);
      if (form !== null) forms.push(form);
    }
  }

  private position(): Position {
    return { line: this.line, column: this.column };
  }

  private error(message: string, position: Position = this.position()): LispError {
    return new LispError(
      "parse_error",
      `${message} at line ${position.line}, column ${position.column}`,
      position,
    );
  }

  private peek(offset = 0): number {
    return this.source.charCodeAt(this.index + offset);
  }

  private advance(): void {
    const code = this.source.charCodeAt(this.index);
    this.index++;
    if (code === 10) {
      this.line++;
      this.column = 1;
    } else if (!(code >= 0xdc00 && code <= 0xdfff)) {
      // A low surrogate completes a character already counted.
      this.column++;
    }
  }

  private advanceBy(count: number): void {
    for (let i = 0; i < count; i++) this.advance();
  }

  /** Steps over `count` characters known to be ASCII and not newlines (names, numbers, brackets). */
  private skipAscii(count: number): void {
    this.index += count;
    this.column += count;
  }

  private startsWith(text: string): boolean {
    return this.source.startsWith(text, this.index);
  }

  /**
   * Whitespace and comments, with the position kept in locals: most characters of a program that
   * are not names pass through here, so it does not go through `advance` for each.
   */
  private skipWhitespace(): void {
    const source = this.source;
    let index = this.index;
    let line = this.line;
    let column = this.column;
    for (;;) {
      const code = source.charCodeAt(index);
      if (code === 32 || code === 44 || code === 9 || code === 13) {
        index++;
        column++;
      } else if (code === 10) {
        index++;
        line++;
        column = 1;
      } else if (code === 59 /* ; */) {
        // A comment runs to the end of the line; the newline itself is whitespace.
        for (; index < source.length; index++) {
          const inside = source.charCodeAt(index);
          if (inside === 10) break;
          if (!(inside >= 0xdc00 && inside <= 0xdfff)) column++;
        }
      } else break;
    }
    this.index = index;
    this.line = line;
    this.column = column;
  }

  /** Between top-level forms a stray closer is ignored, as in the reference (`(+ 1 2))` is 3). */
  private skipWhitespaceAndStrayClosers(): void {
    for (;;) {
      this.skipWhitespace();
      const code = this.source.charCodeAt(this.index);
      if (code === 41 || code === 93 || code === 125) {
        this.strayClosers.push({ char: String.fromCharCode(code), line: this.line, column: this.column });
        this.skipAscii(1);
      } else return;
    }
  }

  /** One form, or null for a discarded `#_` form (only possible when a form was expected). */
  private readForm(depth: number): Form | null {
    this.skipWhitespace();
    const line = this.line;
    const column = this.column;
    const code = this.source.charCodeAt(this.index);
    switch (code) {
      case 40 /* ( */:
        return this.readCollection("list", "(", line, column, depth);
      case 91 /* [ */:
        return this.readCollection("vector", "[", line, column, depth);
      case 123 /* { */:
        return this.readCollection("map", "{", line, column, depth);
      case 41 /* ) */:
      case 93 /* ] */:
      case 125 /* } */:
        throw this.error(`unexpected '${String.fromCharCode(code)}': nothing is open here; remove it`);
      case 34 /* " */:
        this.skipAscii(1);
        return { type: "string", value: this.readStringBody(line, column), line, column };
      case 58 /* : */:
        return this.readKeyword(line, column);
      case 92 /* \ */:
        return this.readCharacter(line, column);
      case 39 /* ' */:
        return this.readQuote(line, column);
      case 64 /* @ */:
        throw this.error("deref syntax (@var) is not supported: atoms and refs are not available");
      case 35 /* # */:
        return this.readDispatch(line, column, depth);
      default:
        if (Number.isNaN(code)) throw this.error("unexpected end of input: a form was expected");
        return this.readAtom(line, column);
    }
  }

  private readCollection(
    type: CollectionForm["type"],
    open: string,
    line: number,
    column: number,
    depth: number,
  ): CollectionForm {
    if (depth + 1 > this.maxNesting) {
      throw this.error(
        `nesting depth exceeds limit of ${this.maxNesting}; flatten the program with let bindings`,
        { line, column },
      );
    }
    this.skipAscii(type === "set" || type === "fn-literal" ? 2 : 1);
    const close = CLOSERS[open] as string;
    const closeCode = close.charCodeAt(0);
    // Items gather on the shared stack and leave it as one array of their exact length: a
    // collection's own array grown by push would reserve room for 17 items from the first.
    const stack = this.pending;
    const first = this.pendingCount;
    for (;;) {
      this.skipWhitespace();
      const code = this.source.charCodeAt(this.index);
      if (code === closeCode) {
        this.skipAscii(1);
        break;
      }
      if (code === 41 || code === 93 || code === 125) {
        throw this.error(
          `mismatched '${String.fromCharCode(code)}': the '${open}' opened at line ${line}, column ${column} must be closed with '${close}' first`,
        );
      }
      if (Number.isNaN(code)) throw this.unclosed(open, { line, column });
      const item = this.readForm(depth + 1);
      if (item !== null) stack[this.pendingCount++] = item;
    }
    const items = stack.slice(first, this.pendingCount);
    this.pendingCount = first;
    if (type === "map" && items.length % 2 !== 0) {
      throw this.error(
        `map literal requires an even number of forms (key value pairs), got ${items.length}`,
        { line, column },
      );
    }
    return { type, items, line, column };
  }

  /** The error for input that ends inside a collection, in the reference's words plus where. */
  private unclosed(open: string, start: Position): LispError {
    const counts = this.countUnclosed();
    const count = counts.get(open) ?? 1;
    return new LispError(
      "parse_error",
      `unbalanced ${nameOfBracket(open)}: ${count} unclosed '${open}' (the one at line ${start.line}, column ${start.column} is never closed; add '${CLOSERS[open]}')`,
      start,
    );
  }

  /** Open-minus-close counts per bracket kind over the whole source, outside strings and comments. */
  private countUnclosed(): Map<string, number> {
    const counts = new Map<string, number>([
      ["(", 0],
      ["[", 0],
      ["{", 0],
    ]);
    const source = this.source;
    for (let i = 0; i < source.length; i++) {
      const char = source[i] as string;
      if (char === '"') {
        for (i++; i < source.length && source[i] !== '"'; i++) if (source[i] === "\\") i++;
      } else if (char === ";") {
        while (i < source.length && source[i] !== "\n") i++;
      } else if (char === "\\") {
        i++;
      } else if (char in CLOSERS) {
        counts.set(char, (counts.get(char) as number) + 1);
      } else {
        for (const [open, close] of Object.entries(CLOSERS)) {
          if (char === close) counts.set(open, (counts.get(open) as number) - 1);
        }
      }
    }
    return counts;
  }

  /** A string's text after its opening quote; `line` and `column` are where the string starts. */
  private readStringBody(line: number, column: number): string {
    const source = this.source;
    let out = "";
    for (;;) {
      // The plain characters up to the next quote or backslash, the position kept in locals.
      const chunkStart = this.index;
      let index = chunkStart;
      let lineNow = this.line;
      let columnNow = this.column;
      let code = source.charCodeAt(index);
      while (code !== 34 /* " */ && code !== 92 /* \ */ && index < source.length) {
        index++;
        if (code === 10) {
          lineNow++;
          columnNow = 1;
        } else if (!(code >= 0xdc00 && code <= 0xdfff)) {
          columnNow++;
        }
        code = source.charCodeAt(index);
      }
      this.index = index;
      this.line = lineNow;
      this.column = columnNow;
      if (index >= source.length) throw this.error("unclosed string", { line, column });
      out += source.slice(chunkStart, index);
      this.skipAscii(1);
      if (code === 34) return out;
      out += this.readEscape(line, column);
    }
  }

  private readEscape(line: number, column: number): string {
    const char = this.source[this.index];
    if (char === undefined) throw this.error("unclosed string", { line, column });
    this.advance();
    switch (char) {
      case "n":
        return "\n";
      case "t":
        return "\t";
      case "r":
        return "\r";
      case "b":
        return "\b";
      case "f":
        return "\f";
      case '"':
        return '"';
      case "\\":
        return "\\";
      case "u": {
        const hex = this.source.slice(this.index, this.index + 4);
        if (/^[0-9a-fA-F]{4}$/.test(hex)) {
          this.advanceBy(4);
          return String.fromCharCode(Number.parseInt(hex, 16));
        }
        return "\\u";
      }
      default:
        // Unknown escapes keep their backslash, as in the reference: "\d" in a string meant for
        // re-pattern stays a regex escape.
        return `\\${char}`;
    }
  }

  private readKeyword(line: number, column: number): Form {
    this.skipAscii(1);
    const source = this.source;
    const nameStart = this.index;
    let index = nameStart;
    while (isOfClass(source.charCodeAt(index), KEYWORD_CHAR)) index++;
    this.skipAscii(index - nameStart);
    const name = source.slice(nameStart, index);
    this.nameForms++;
    if (name === "") {
      throw this.error("could not parse keyword: ':' must be followed by a name such as :status", {
        line,
        column,
      });
    }
    return { type: "keyword", name, line, column };
  }

  private readCharacter(line: number, column: number): Form {
    this.advance();
    for (const [name, value] of NAMED_CHARACTERS) {
      if (this.startsWith(name)) {
        this.advanceBy(name.length);
        return { type: "string", value, line, column };
      }
    }
    const codePoint = this.source.codePointAt(this.index);
    if (codePoint === undefined)
      throw this.error("invalid character literal: '\\' must be followed by a character", { line, column });
    const value = String.fromCodePoint(codePoint);
    this.advanceBy(value.length);
    return { type: "string", value, line, column };
  }

  private readSymbolName(): string {
    const source = this.source;
    const nameStart = this.index;
    let index = nameStart;
    while (isOfClass(source.charCodeAt(index), SYMBOL_CHAR)) index++;
    this.skipAscii(index - nameStart);
    return source.slice(nameStart, index);
  }

  private readQuote(line: number, column: number): Form {
    this.skipAscii(1);
    const code = this.peek();
    if (code === 40 || code === 91 || code === 123) {
      throw this.error(
        "quoted collections are not supported; only quoted symbols like 'github are allowed. Write [1 2 3] for a list",
        { line, column },
      );
    }
    if (!isSymbolStart(code))
      throw this.error("could not parse quoted symbol: only 'symbol may be quoted", { line, column });
    this.nameForms++;
    return { type: "quote", name: this.readSymbolName(), line, column };
  }

  private readDispatch(line: number, column: number, depth: number): Form | null {
    const next = this.source[this.index + 1];
    switch (next) {
      case "{":
        return this.readCollection("set", "{", line, column, depth);
      case "(":
        return this.readCollection("fn-literal", "(", line, column, depth);
      case '"': {
        this.skipAscii(2);
        return { type: "regex", source: this.readRegexBody(line, column), line, column };
      }
      case "'": {
        this.skipAscii(2);
        if (!isSymbolStart(this.peek()))
          throw this.error("could not parse var: #' must be followed by a name", { line, column });
        this.nameForms++;
        return { type: "var", name: this.readSymbolName(), line, column };
      }
      case "_": {
        this.skipAscii(2);
        this.skipWhitespace();
        if (this.index >= this.source.length)
          throw this.error("#_ must be followed by a form to discard", { line, column });
        this.readForm(depth);
        return null;
      }
      case "#": {
        for (const [text, value] of [
          ["##Inf", Number.POSITIVE_INFINITY],
          ["##-Inf", Number.NEGATIVE_INFINITY],
          ["##NaN", Number.NaN],
        ] as const) {
          if (this.startsWith(text) && !isSymbolChar(this.source.charCodeAt(this.index + text.length))) {
            this.skipAscii(text.length);
            return { type: "number", value, line, column };
          }
        }
        throw this.error("unknown special value: write ##Inf, ##-Inf or ##NaN", { line, column });
      }
      default:
        throw this.error(
          `unsupported dispatch syntax '#${next ?? ""}': use #{...} for sets, #(...) for functions, #"..." for regexes`,
          { line, column },
        );
    }
  }

  /** A regex body keeps every backslash: `#"\d+"` is the pattern \d+. */
  private readRegexBody(line: number, column: number): string {
    let out = "";
    for (;;) {
      const char = this.source[this.index];
      if (char === undefined) throw this.error("unclosed regex literal", { line, column });
      this.advance();
      if (char === '"') return out;
      if (char === "\\") {
        const escaped = this.source[this.index];
        if (escaped === undefined) throw this.error("unclosed regex literal", { line, column });
        this.advance();
        out += escaped === '"' ? '"' : `\\${escaped}`;
      } else out += char;
    }
  }

  /** Numbers, nil/true/false, and symbols. */
  private readAtom(line: number, column: number): Form {
    const code = this.peek();
    if (isDigit(code) || ((code === 45 || code === 43) && isDigit(this.peek(1))))
      return this.readNumber(line, column);
    if (!isSymbolStart(code)) {
      throw this.error(
        `unexpected character ${describeCharacter(this.source.codePointAt(this.index) as number)}`,
      );
    }
    const name = this.readSymbolName();
    if (name === "nil") return { type: "nil", line, column };
    if (name === "true" || name === "false") return { type: "boolean", value: name === "true", line, column };
    this.nameForms++;
    return { type: "symbol", name, line, column };
  }

  private readNumber(line: number, column: number): Form {
    const source = this.source;
    const begin = this.index;
    let index = begin;
    const first = source.charCodeAt(index);
    if (first === 45 || first === 43) index++;
    while (isDigit(source.charCodeAt(index))) index++;
    const digits = index - begin - (isDigit(first) ? 0 : 1);
    if (digits > MAX_INTEGER_DIGITS) {
      throw this.error(`integer literal exceeds ${MAX_INTEGER_DIGITS} digit limit`, { line, column });
    }
    let isFloat = false;
    if (source.charCodeAt(index) === 46 /* . */ && isDigit(source.charCodeAt(index + 1))) {
      isFloat = true;
      index++;
      while (isDigit(source.charCodeAt(index))) index++;
    }
    const e = source.charCodeAt(index);
    if (e === 101 || e === 69) {
      const sign = source.charCodeAt(index + 1);
      const signed = sign === 43 || sign === 45;
      if (isDigit(source.charCodeAt(index + (signed ? 2 : 1)))) {
        isFloat = true;
        index += signed ? 2 : 1;
        while (isDigit(source.charCodeAt(index))) index++;
      }
    }
    this.skipAscii(index - begin);
    const text = source.slice(begin, index);
    if (isFloat) {
      const value = Number(text);
      return { type: "number", value: Number.isInteger(value) ? new WholeFloat(value) : value, line, column };
    }
    // Up to 15 digits a double holds the integer exactly: no BigInt needed to find out.
    if (digits <= 15) {
      const value = Number(text);
      return { type: "number", value: value === 0 ? 0 : value, line, column };
    }
    const big = BigInt(text);
    const value = big >= -9007199254740991n && big <= 9007199254740991n ? Number(big) : big;
    return { type: "number", value: Object.is(value, -0) ? 0 : value, line, column };
  }
}

/** Reads a whole program: zero or more top-level forms. */
export function read(source: string, options: ReadOptions = {}): Form[] {
  return new Reader(source, options).readProgram();
}

/**
 * `read`, plus the stray closing brackets it ignored (run reports them as warnings) and how many
 * name forms it read (an upper bound on the distinct names, for the symbol limit).
 */
export function readProgram(
  source: string,
  options: ReadOptions = {},
): { forms: Form[]; strayClosers: StrayCloser[]; nameForms: number } {
  const reader = new Reader(source, options);
  const forms = reader.readProgram();
  return { forms, strayClosers: reader.strayClosers, nameForms: reader.nameForms };
}

/**
 * Control, format and space characters other than the ones the reader skips look like nothing,
 * or like a space, when written raw, and a control character reaches the terminal of whoever
 * prints the message (an escape sequence recolours it). Those are named by code point: U+00A0 is
 * the no-break space a paste brings along, U+200B a zero-width space.
 */
const INVISIBLE = /^[\p{Cc}\p{Cf}\p{Z}\p{Cs}\p{Co}\p{Cn}]$/u;

function describeCharacter(code: number): string {
  const char = String.fromCodePoint(code);
  if (!INVISIBLE.test(char)) return `'${char}'`;
  return `U+${code.toString(16).toUpperCase().padStart(4, "0")}`;
}
