/**
 * Reads the value a `lisp_eval` result shows the model (`user=> {:total 1842 :top [...]}`) back
 * into JSON-like data, the way a model reads it as text. Scripted models use it to write their
 * answers from what a program really returned. It reads the printer's output only (maps,
 * vectors, lists, sets, strings, numbers, keywords, nil, booleans) and throws on anything else,
 * a truncated preview included: a scripted answer must never be built from half a value.
 */
export type LispData = null | boolean | number | string | LispData[] | { [key: string]: LispData };

export function readLispValue(text: string): LispData {
  const source = text.replace(/^user=>\s*/, "");
  let position = 0;
  const fail = (what: string): never => {
    throw new Error(
      `cannot read the program's value at ${position}: ${what} in ${JSON.stringify(source.slice(0, 120))}`,
    );
  };
  const skip = () => {
    while (position < source.length && /[\s,]/.test(source[position] as string)) position++;
  };
  const readSequence = (close: string): LispData[] => {
    const items: LispData[] = [];
    for (;;) {
      skip();
      if (position >= source.length) fail(`missing ${close}`);
      if (source[position] === close) {
        position++;
        return items;
      }
      items.push(read());
    }
  };
  const read = (): LispData => {
    skip();
    const char = source[position];
    if (char === "{") {
      position++;
      const items = readSequence("}");
      if (items.length % 2 !== 0) fail("a map with an odd number of forms");
      const map: { [key: string]: LispData } = {};
      for (let index = 0; index < items.length; index += 2)
        map[String(items[index])] = items[index + 1] as LispData;
      return map;
    }
    if (char === "[") {
      position++;
      return readSequence("]");
    }
    if (char === "(") {
      position++;
      return readSequence(")");
    }
    if (char === "#" && source[position + 1] === "{") {
      position += 2;
      return readSequence("}");
    }
    if (char === '"') return readString();
    const atom = /^[^\s,{}[\]()"]+/.exec(source.slice(position))?.[0];
    if (atom === undefined) return fail("an unexpected character");
    position += atom.length;
    if (atom === "nil") return null;
    if (atom === "true") return true;
    if (atom === "false") return false;
    if (atom.startsWith(":") && atom.length > 1) return atom.slice(1);
    if (/^-?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(atom)) return Number(atom);
    return fail(`the form ${atom} (a truncated value?)`);
  };
  const readString = (): string => {
    let value = "";
    for (position++; position < source.length; position++) {
      const char = source[position] as string;
      if (char === '"') {
        position++;
        return value;
      }
      if (char === "\\") {
        position++;
        const escaped = source[position];
        value += escaped === "n" ? "\n" : escaped === "t" ? "\t" : escaped === "r" ? "\r" : (escaped ?? "");
      } else {
        value += char;
      }
    }
    return fail("an unterminated string");
  };
  const value = read();
  skip();
  if (position < source.length) fail("text after the value (a truncated value?)");
  return value;
}
