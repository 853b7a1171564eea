/**
 * Where JSON text goes wrong. `JSON.parse` says that it failed but, on Node 20, often not where;
 * this scanner walks the same grammar and reports the first offending character with its line and
 * column, so a --data error can point into the file. It is only called after JSON.parse failed.
 * It returns undefined when it finds nothing wrong, or when the text nests too deep to scan.
 */
export interface JsonProblem {
  readonly line: number;
  readonly column: number;
  readonly problem: string;
}

/**
 * The scanner recurses once per nesting level; past this depth it stops before the host stack
 * runs out (some thousands of frames) and leaves the message to JSON.parse.
 */
const MAX_NESTING = 1000;

class TooDeep {}

class Failure {
  constructor(
    readonly offset: number,
    readonly problem: string,
  ) {}
}

export function locateJsonError(text: string): JsonProblem | undefined {
  let i = 0;
  const fail = (problem: string): never => {
    throw new Failure(i, problem);
  };
  const describe = () => (i >= text.length ? "end of file" : `${JSON.stringify(text[i])}`);
  const space = () => {
    while (i < text.length && " \t\r\n".includes(text[i] as string)) i++;
  };
  const literal = (word: string) => {
    if (text.startsWith(word, i)) i += word.length;
    else fail(`unexpected ${describe()}`);
  };
  const string = () => {
    i++; // opening quote
    while (i < text.length) {
      const char = text[i] as string;
      if (char === '"') {
        i++;
        return;
      }
      if (char === "\\") {
        i++;
        const escaped = text[i];
        if (escaped === "u") {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 1, i + 5)))
            fail("bad \\u escape: it needs four hex digits");
          i += 5;
        } else if (escaped !== undefined && '"\\/bfnrt'.includes(escaped)) i++;
        else fail(`bad escape \\${escaped ?? ""} in a string`);
      } else if (char < " ") fail("control character in a string (write \\n or \\t)");
      else i++;
    }
    fail("unterminated string");
  };
  const number = () => {
    const match = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (match === null) fail(`unexpected ${describe()}`);
    else i += match[0].length;
  };
  const value = (depth: number): void => {
    space();
    const char = text[i];
    if ((char === "{" || char === "[") && depth >= MAX_NESTING) throw new TooDeep();
    if (char === "{") {
      i++;
      space();
      if (text[i] === "}") {
        i++;
        return;
      }
      for (;;) {
        space();
        if (text[i] !== '"') fail(`expected a property name in double quotes, found ${describe()}`);
        string();
        space();
        if (text[i] !== ":") fail(`expected ':' after the property name, found ${describe()}`);
        i++;
        value(depth + 1);
        space();
        if (text[i] === ",") {
          i++;
          continue;
        }
        if (text[i] === "}") {
          i++;
          return;
        }
        fail(`expected ',' or '}' in the object, found ${describe()}`);
      }
    }
    if (char === "[") {
      i++;
      space();
      if (text[i] === "]") {
        i++;
        return;
      }
      for (;;) {
        value(depth + 1);
        space();
        if (text[i] === ",") {
          i++;
          continue;
        }
        if (text[i] === "]") {
          i++;
          return;
        }
        fail(`expected ',' or ']' in the array, found ${describe()}`);
      }
    }
    if (char === '"') string();
    else if (char === "t") literal("true");
    else if (char === "f") literal("false");
    else if (char === "n") literal("null");
    else if (char === "-" || (char !== undefined && char >= "0" && char <= "9")) number();
    else fail(`unexpected ${describe()}`);
  };
  try {
    if (text.charCodeAt(0) === 0xfeff) i = 1;
    value(0);
    space();
    if (i < text.length) fail(`unexpected ${describe()} after the JSON value`);
    return undefined;
  } catch (error) {
    if (error instanceof TooDeep) return undefined;
    if (!(error instanceof Failure)) throw error;
    const before = text.slice(0, error.offset);
    const line = before.split("\n").length;
    const column = error.offset - before.lastIndexOf("\n");
    return { line, column, problem: error.problem };
  }
}
