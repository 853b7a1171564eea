/**
 * Parser for PTC signatures: `(query :string, limit :int?) -> [{id :int}]`, or a bare return
 * type (`{count :int}`), or `-> type`, which is how a signature without parameters renders, so
 * that every rendered signature parses back.
 *
 * Type keywords match by prefix in a fixed order, as the reference parser does: `:integer` reads
 * `:int` and then fails on the leftover `eger`. Errors name a 1-based line and column.
 */
import { describeValue } from "../describe-value.js";
import type { PrimitiveType, Signature, SignatureField, SignatureType } from "./types.js";

export type ParseSignatureResult =
  | { readonly ok: true; readonly signature: Signature }
  | { readonly ok: false; readonly error: string };

// Longer names first where one is a prefix of another (`boolean` before `bool`).
const TYPE_KEYWORDS: ReadonlyArray<readonly [text: string, type: PrimitiveType]> = [
  ["datetime", "datetime"],
  ["string", "string"],
  ["int", "int"],
  ["float", "float"],
  ["boolean", "bool"],
  ["bool", "bool"],
  ["keyword", "keyword"],
  ["map", "map"],
  ["any", "any"],
];

const VALID_TYPE_NAMES = ["string", "int", "float", "bool", "boolean", "keyword", "map", "any", "datetime"];

const HINT =
  "\n\nHint: Valid types are :string, :int, :float, :bool, :boolean, :keyword, :map, :any, :datetime. " +
  "For lists use [:type], for maps use {field :type}.";

class SyntaxFailure {
  constructor(
    readonly offset: number,
    readonly expected: string,
  ) {}
}

class Cursor {
  offset = 0;
  constructor(readonly input: string) {}

  get done(): boolean {
    return this.offset >= this.input.length;
  }

  peek(): string {
    return this.input.charAt(this.offset);
  }

  startsWith(text: string): boolean {
    return this.input.startsWith(text, this.offset);
  }

  skipWhitespace(): void {
    while (!this.done && " \t\r\n".includes(this.peek())) this.offset += 1;
  }

  expect(text: string, expected: string): void {
    if (!this.startsWith(text)) throw new SyntaxFailure(this.offset, expected);
    this.offset += text.length;
  }
}

export function parseSignature(input: unknown): ParseSignatureResult {
  if (typeof input !== "string") {
    return { ok: false, error: `signature must be a string, got ${describeValue(input)}` };
  }
  const cursor = new Cursor(input);
  try {
    cursor.skipWhitespace();
    const signature = parseTopLevel(cursor);
    cursor.skipWhitespace();
    if (!cursor.done) {
      const { line, column } = position(input, cursor.offset);
      const rest = input.slice(cursor.offset, cursor.offset + 20);
      return {
        ok: false,
        error: `unexpected input at line ${line}, column ${column}: ${rest}...${hintFor(input)}`,
      };
    }
    return { ok: true, signature };
  } catch (error) {
    if (!(error instanceof SyntaxFailure)) throw error;
    const { line, column } = position(input, error.offset);
    const found = error.offset >= input.length ? "end of input" : JSON.stringify(input.charAt(error.offset));
    return {
      ok: false,
      error: `parse error at line ${line}, column ${column}: expected ${error.expected}, found ${found}${hintFor(input)}`,
    };
  }
}

function parseTopLevel(cursor: Cursor): Signature {
  if (cursor.peek() === "(") {
    cursor.offset += 1;
    cursor.skipWhitespace();
    const params = cursor.peek() === ")" ? [] : parseFieldList(cursor, ")");
    cursor.skipWhitespace();
    cursor.expect(")", '")" or ", name :type"');
    cursor.skipWhitespace();
    cursor.expect("->", '"->"');
    cursor.skipWhitespace();
    return { params, returns: parseType(cursor) };
  }
  if (cursor.startsWith("->")) {
    cursor.offset += 2;
    cursor.skipWhitespace();
    return { params: [], returns: parseType(cursor) };
  }
  return { params: [], returns: parseType(cursor) };
}

function parseFieldList(cursor: Cursor, closer: string): SignatureField[] {
  const fields = [parseField(cursor)];
  for (;;) {
    const save = cursor.offset;
    cursor.skipWhitespace();
    if (cursor.peek() !== ",") {
      cursor.offset = save;
      return fields;
    }
    cursor.offset += 1;
    cursor.skipWhitespace();
    if (cursor.peek() === closer) throw new SyntaxFailure(cursor.offset, 'a name after ","');
    fields.push(parseField(cursor));
  }
}

function parseField(cursor: Cursor): SignatureField {
  const name = parseIdentifier(cursor);
  cursor.skipWhitespace();
  return { name, type: parseType(cursor) };
}

function parseIdentifier(cursor: Cursor): string {
  const match = /^[A-Za-z_][A-Za-z0-9_-]*/.exec(cursor.input.slice(cursor.offset));
  if (match === null) throw new SyntaxFailure(cursor.offset, "a name ([A-Za-z_][A-Za-z0-9_-]*)");
  cursor.offset += match[0].length;
  return match[0];
}

function parseType(cursor: Cursor): SignatureType {
  const next = cursor.peek();
  if (next === "{") return parseMapType(cursor);
  if (next === "[") return parseListType(cursor);
  if (next === ":") return parsePrimitive(cursor);
  throw new SyntaxFailure(cursor.offset, 'a type (":type", "[:type]" or "{field :type}")');
}

function parsePrimitive(cursor: Cursor): SignatureType {
  cursor.offset += 1;
  const entry = TYPE_KEYWORDS.find(([text]) => cursor.startsWith(text));
  if (entry === undefined) throw new SyntaxFailure(cursor.offset, 'a type name after ":"');
  cursor.offset += entry[0].length;
  if (cursor.peek() === "?") {
    cursor.offset += 1;
    return { kind: "optional", type: entry[1] };
  }
  return entry[1];
}

function parseListType(cursor: Cursor): SignatureType {
  cursor.offset += 1;
  cursor.skipWhitespace();
  const element = parseType(cursor);
  cursor.skipWhitespace();
  cursor.expect("]", '"]"');
  return { kind: "list", type: element };
}

function parseMapType(cursor: Cursor): SignatureType {
  cursor.offset += 1;
  cursor.skipWhitespace();
  const fields = cursor.peek() === "}" ? [] : parseFieldList(cursor, "}");
  cursor.skipWhitespace();
  cursor.expect("}", '"}" or ", field :type"');
  return { kind: "map", fields, closed: false };
}

function position(input: string, offset: number): { line: number; column: number } {
  const before = input.slice(0, offset);
  const lines = before.split("\n");
  return { line: lines.length, column: (lines.at(-1)?.length ?? 0) + 1 };
}

// The hint only helps when the text names a type that does not exist (`:integer`, `:str`).
function hintFor(input: string): string {
  const names = [...input.matchAll(/:([a-z]+)/g)].map((match) => match[1] ?? "");
  return names.some((name) => !VALID_TYPE_NAMES.includes(name)) ? HINT : "";
}
