/**
 * Lays out a value's PTC-Lisp text (what @ptc/lisp's `format` prints, on one line) over several
 * lines when it is wider than the pane: each item of a long vector, list or set on its own line,
 * each key and value of a long map on its own line, aligned after the opening bracket, as a
 * Clojure pretty printer would. It only ever replaces the single space between two items with a
 * line break and indentation, so joining the lines with spaces gives `format`'s text back.
 */

/** An atom (number, keyword, string...) or a bracketed collection. */
type Tree =
  | { readonly atom: string }
  | { readonly open: string; readonly close: string; readonly items: Tree[] };

const CLOSERS: Readonly<Record<string, string>> = { "(": ")", "[": "]", "{": "}", "#{": "}" };

function parse(text: string): Tree[] {
  let index = 0;
  const readAtom = (): string => {
    const start = index;
    while (index < text.length) {
      const char = text.charAt(index);
      if (char === '"') {
        // A string (or the string of a #"regex"): through its closing quote, past escapes.
        index++;
        while (index < text.length && text.charAt(index) !== '"')
          index += text.charAt(index) === "\\" ? 2 : 1;
        index++;
      } else if (
        char === " " ||
        char === "\n" ||
        ")]}".includes(char) ||
        (index > start && "([{".includes(char))
      ) {
        break;
      } else {
        index++;
      }
    }
    return text.slice(start, index);
  };
  const readItems = (close: string | undefined): Tree[] => {
    const items: Tree[] = [];
    while (index < text.length) {
      const char = text.charAt(index);
      if (char === " " || char === "\n") {
        index++;
      } else if (close !== undefined && char === close) {
        index++;
        return items;
      } else if (char === "(" || char === "[" || char === "{" || text.startsWith("#{", index)) {
        const open = char === "#" ? "#{" : char;
        index += open.length;
        const closer = CLOSERS[open] as string;
        items.push({ open, close: closer, items: readItems(closer) });
      } else {
        const atom = readAtom();
        // A stray closer (never in format's output): kept as text rather than lost.
        if (atom === "") index++;
        items.push({ atom: atom === "" ? char : atom });
      }
    }
    return items;
  };
  return readItems(undefined);
}

function flat(tree: Tree): string {
  if ("atom" in tree) return tree.atom;
  return `${tree.open}${tree.items.map(flat).join(" ")}${tree.close}`;
}

function layout(tree: Tree, column: number, width: number): string {
  const oneLine = flat(tree);
  if ("atom" in tree || column + oneLine.length <= width || tree.items.length < 2) return oneLine;
  const inner = column + tree.open.length;
  const pad = `\n${" ".repeat(inner)}`;
  const lines: string[] = [];
  if (tree.open === "{") {
    for (let i = 0; i < tree.items.length; i += 2) {
      const key = flat(tree.items[i] as Tree);
      const value = tree.items[i + 1];
      lines.push(value === undefined ? key : `${key} ${layout(value, inner + key.length + 1, width)}`);
    }
  } else {
    for (const item of tree.items) lines.push(layout(item, inner, width));
  }
  return `${tree.open}${lines.join(pad)}${tree.close}`;
}

/** `text` (one value as `format` prints it) laid out within `width` columns where it can be. */
export function prettyValue(text: string, width = 72): string {
  return parse(text)
    .map((tree) => layout(tree, 0, width))
    .join(" ");
}
