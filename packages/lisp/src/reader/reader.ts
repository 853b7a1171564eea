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

function isLetter(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}

/** Characters that may start a symbol. */
function isSymbolStart(code: number): boolean {
  return isLetter(code) || "+-*/<>=?!_%.&".includes(String.fromCharCode(code));
}

/** Characters that may continue a symbol (digits and the prime too, as in `inc'`). */
function isSymbolChar(code: number): boolean {
  return isLetter(code) || isDigit(code) || "+-*/<>=?!_%.&'".includes(String.fromCharCode(code));
}

/** Characters of a keyword name: no `/` (namespaced keywords do not exist) and no `.`. */
function isKeywordChar(code: number): boolean {
  return isLetter(code) || isDigit(code) || "+-*<>=?!_".includes(String.fromCharCode(code));
}

function isWhitespace(code: number): boolean {
  return code === 32 || code === 9 || code === 10 || code === 13 || code === 44;
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

  private startsWith(text: string): boolean {
    return this.source.startsWith(text, this.index);
  }

  private skipWhitespace(): void {
    for (;;) {
      const code = this.peek();
      if (isWhitespace(code)) this.advance();
      else if (code === 59 /* ; */) {
        while (this.index < this.source.length && this.peek() !== 10) this.advance();
      } else return;
    }
  }

  /** Between top-level forms a stray closer is ignored, as in the reference (`(+ 1 2))` is 3). */
  private skipWhitespaceAndStrayClosers(): void {
    for (;;) {
      this.skipWhitespace();
      const char = this.source[this.index];
      if (char === ")" || char === "]" || char === "}") {
        this.strayClosers.push({ char, ...this.position() });
        this.advance();
      } else return;
    }
  }

  /** One form, or null for a discarded `#_` form (only possible when a form was expected). */
  private readForm(depth: number): Form | null {
    this.skipWhitespace();
    const start = this.position();
    const char = this.source[this.index];
    if (char === undefined) throw this.error("unexpected end of input: a form was expected");
    switch (char) {
      case "(":
      case "[":
      case "{":
        return this.readCollection(
          char === "(" ? "list" : char === "[" ? "vector" : "map",
          char,
          start,
          depth,
        );
      case ")":
      case "]":
      case "}":
        throw this.error(`unexpected '${char}': nothing is open here; remove it`);
      case '"':
        this.advance();
        return { type: "string", value: this.readStringBody(start), ...start };
      case ":":
        return this.readKeyword(start);
      case "\\":
        return this.readCharacter(start);
      case "'":
        return this.readQuote(start);
      case "@":
        throw this.error("deref syntax (@var) is not supported: atoms and refs are not available");
      case "#":
        return this.readDispatch(start, depth);
      default:
        return this.readAtom(start);
    }
  }

  private readCollection(
    type: CollectionForm["type"],
    open: string,
    start: Position,
    depth: number,
  ): CollectionForm {
    if (depth + 1 > this.maxNesting) {
      throw this.error(
        `nesting depth exceeds limit of ${this.maxNesting}; flatten the program with let bindings`,
        start,
      );
    }
    this.advanceBy(type === "set" || type === "fn-literal" ? 2 : 1);
    const close = CLOSERS[open] as string;
    const items: Form[] = [];
    for (;;) {
      this.skipWhitespace();
      const char = this.source[this.index];
      if (char === undefined) throw this.unclosed(open, start);
      if (char === close) {
        this.advance();
        break;
      }
      if (char === ")" || char === "]" || char === "}") {
        throw this.error(
          `mismatched '${char}': the '${open}' opened at line ${start.line}, column ${start.column} must be closed with '${close}' first`,
        );
      }
      const item = this.readForm(depth + 1);
      if (item !== null) items.push(item);
    }
    if (type === "map" && items.length % 2 !== 0) {
      throw this.error(
        `map literal requires an even number of forms (key value pairs), got ${items.length}`,
        start,
      );
    }
    return { type, items, ...start };
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

  private readStringBody(start: Position): string {
    let out = "";
    let chunkStart = this.index;
    for (;;) {
      if (this.index >= this.source.length) throw this.error("unclosed string", start);
      const code = this.peek();
      if (code === 34 /* " */) {
        out += this.source.slice(chunkStart, this.index);
        this.advance();
        return out;
      }
      if (code === 92 /* \ */) {
        out += this.source.slice(chunkStart, this.index);
        this.advance();
        out += this.readEscape(start);
        chunkStart = this.index;
        continue;
      }
      this.advance();
    }
  }

  private readEscape(start: Position): string {
    const char = this.source[this.index];
    if (char === undefined) throw this.error("unclosed string", start);
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

  private readKeyword(start: Position): Form {
    this.advance();
    const nameStart = this.index;
    while (this.index < this.source.length && isKeywordChar(this.peek())) this.advance();
    const name = this.source.slice(nameStart, this.index);
    if (name === "") {
      throw this.error("could not parse keyword: ':' must be followed by a name such as :status", start);
    }
    return { type: "keyword", name, ...start };
  }

  private readCharacter(start: Position): Form {
    this.advance();
    for (const [name, value] of NAMED_CHARACTERS) {
      if (this.startsWith(name)) {
        this.advanceBy(name.length);
        return { type: "string", value, ...start };
      }
    }
    const codePoint = this.source.codePointAt(this.index);
    if (codePoint === undefined)
      throw this.error("invalid character literal: '\\' must be followed by a character", start);
    const value = String.fromCodePoint(codePoint);
    this.advanceBy(value.length);
    return { type: "string", value, ...start };
  }

  private readSymbolName(): string {
    const nameStart = this.index;
    while (this.index < this.source.length && isSymbolChar(this.peek())) this.advance();
    return this.source.slice(nameStart, this.index);
  }

  private readQuote(start: Position): Form {
    this.advance();
    const code = this.peek();
    if (code === 40 || code === 91 || code === 123) {
      throw this.error(
        "quoted collections are not supported; only quoted symbols like 'github are allowed. Write [1 2 3] for a list",
        start,
      );
    }
    if (!isSymbolStart(code))
      throw this.error("could not parse quoted symbol: only 'symbol may be quoted", start);
    return { type: "quote", name: this.readSymbolName(), ...start };
  }

  private readDispatch(start: Position, depth: number): Form | null {
    const next = this.source[this.index + 1];
    switch (next) {
      case "{":
        return this.readCollection("set", "{", start, depth);
      case "(":
        return this.readCollection("fn-literal", "(", start, depth);
      case '"': {
        this.advanceBy(2);
        return { type: "regex", source: this.readRegexBody(start), ...start };
      }
      case "'": {
        this.advanceBy(2);
        if (!isSymbolStart(this.peek()))
          throw this.error("could not parse var: #' must be followed by a name", start);
        return { type: "var", name: this.readSymbolName(), ...start };
      }
      case "_": {
        this.advanceBy(2);
        this.skipWhitespace();
        if (this.index >= this.source.length)
          throw this.error("#_ must be followed by a form to discard", start);
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
            this.advanceBy(text.length);
            return { type: "number", value, ...start };
          }
        }
        throw this.error("unknown special value: write ##Inf, ##-Inf or ##NaN", start);
      }
      default:
        throw this.error(
          `unsupported dispatch syntax '#${next ?? ""}': use #{...} for sets, #(...) for functions, #"..." for regexes`,
          start,
        );
    }
  }

  /** A regex body keeps every backslash: `#"\d+"` is the pattern \d+. */
  private readRegexBody(start: Position): string {
    let out = "";
    for (;;) {
      const char = this.source[this.index];
      if (char === undefined) throw this.error("unclosed regex literal", start);
      this.advance();
      if (char === '"') return out;
      if (char === "\\") {
        const escaped = this.source[this.index];
        if (escaped === undefined) throw this.error("unclosed regex literal", start);
        this.advance();
        out += escaped === '"' ? '"' : `\\${escaped}`;
      } else out += char;
    }
  }

  /** Numbers, nil/true/false, and symbols. */
  private readAtom(start: Position): Form {
    const code = this.peek();
    if (isDigit(code) || ((code === 45 || code === 43) && isDigit(this.peek(1))))
      return this.readNumber(start);
    if (!isSymbolStart(code)) {
      const char = String.fromCodePoint(this.source.codePointAt(this.index) as number);
      throw this.error(`unexpected character '${char}'`);
    }
    const name = this.readSymbolName();
    if (name === "nil") return { type: "nil", ...start };
    if (name === "true" || name === "false") return { type: "boolean", value: name === "true", ...start };
    return { type: "symbol", name, ...start };
  }

  private readNumber(start: Position): Form {
    const begin = this.index;
    if (this.peek() === 45 || this.peek() === 43) this.advance();
    while (isDigit(this.peek())) this.advance();
    const digits = this.index - begin - (isDigit(this.source.charCodeAt(begin)) ? 0 : 1);
    if (digits > MAX_INTEGER_DIGITS) {
      throw this.error(`integer literal exceeds ${MAX_INTEGER_DIGITS} digit limit`, start);
    }
    let isFloat = false;
    if (this.peek() === 46 /* . */ && isDigit(this.peek(1))) {
      isFloat = true;
      this.advance();
      while (isDigit(this.peek())) this.advance();
    }
    const e = this.peek();
    if (e === 101 || e === 69) {
      const sign = this.peek(1);
      const signed = sign === 43 || sign === 45;
      if (isDigit(this.peek(signed ? 2 : 1))) {
        isFloat = true;
        this.advanceBy(signed ? 2 : 1);
        while (isDigit(this.peek())) this.advance();
      }
    }
    const text = this.source.slice(begin, this.index);
    if (isFloat) {
      const value = Number(text);
      return { type: "number", value: Number.isInteger(value) ? new WholeFloat(value) : value, ...start };
    }
    const big = BigInt(text);
    const value = big >= -9007199254740991n && big <= 9007199254740991n ? Number(big) : big;
    return { type: "number", value: Object.is(value, -0) ? 0 : value, ...start };
  }
}

/** Reads a whole program: zero or more top-level forms. */
export function read(source: string, options: ReadOptions = {}): Form[] {
  return new Reader(source, options).readProgram();
}

/** `read`, plus the stray closing brackets it ignored (run reports them as warnings). */
export function readProgram(
  source: string,
  options: ReadOptions = {},
): { forms: Form[]; strayClosers: StrayCloser[] } {
  const reader = new Reader(source, options);
  const forms = reader.readProgram();
  return { forms, strayClosers: reader.strayClosers };
}
