/**
 * The Mustache subset agent prompts are written in: `{{name}}`, dotted `{{a.b}}`, sections
 * `{{#list}}…{{/list}}`, inverted sections `{{^x}}…{{/x}}`, `{{.}}` and `{{! comments }}`, with
 * Mustache's standalone-line rule for section and comment tags. It expands prompts,
 * annotates the PTC-Lisp mission with `~{data/…}` references, and lists placeholders for
 * option validation.
 *
 * Templates come from developers and context values from callers, so it must never evaluate
 * anything, never read inherited properties (`{{constructor}}` finds nothing on a plain object),
 * never HTML-escape, and never take more than time linear in the template plus the text it emits.
 * Parse problems are returned as values, never thrown.
 */

export interface TemplateLocation {
  /** 1-based line of the tag's opening `{{`. */
  readonly line: number;
  /** 1-based column (UTF-16 code unit) of the tag's opening `{{`. */
  readonly column: number;
}

export interface TemplateParseError extends TemplateLocation {
  /** What is wrong, where, and what to write instead. */
  readonly message: string;
}

interface TextNode {
  readonly type: "text";
  readonly text: string;
}
interface VariableNode extends TemplateLocation {
  readonly type: "variable";
  readonly path: readonly string[];
  /** The tag as written, put back verbatim when its value is missing. */
  readonly raw: string;
}
interface DotNode extends TemplateLocation {
  readonly type: "dot";
  readonly raw: string;
}
interface SectionNode extends TemplateLocation {
  readonly type: "section";
  readonly name: string;
  readonly inverted: boolean;
  readonly children: readonly TemplateNode[];
}
export type TemplateNode = TextNode | VariableNode | DotNode | SectionNode;

export interface ParsedTemplate {
  readonly nodes: readonly TemplateNode[];
}

export type ParseTemplateResult =
  | { readonly ok: true; readonly template: ParsedTemplate }
  | { readonly ok: false; readonly error: TemplateParseError };

/** Deeper section nesting than this is rejected (ptc_runner stops expanding at the same depth). */
const MAX_SECTION_DEPTH = 20;

// ---------------------------------------------------------------------------------------------
// Tokens

type TagKind = "variable" | "dot" | "section" | "inverted" | "close" | "comment";

interface TextToken {
  readonly type: "text";
  text: string;
  /** Standalone-line trimming keeps text[keepFrom, keepTo). */
  keepFrom: number;
  keepTo: number;
}
interface TagToken extends TemplateLocation {
  readonly type: "tag";
  readonly kind: TagKind;
  /** Trimmed name: the variable, section or closed section; "" for comments. */
  readonly name: string;
  readonly raw: string;
}
type Token = TextToken | TagToken;

type TokenizeResult = { ok: true; tokens: Token[] } | { ok: false; error: TemplateParseError };

function failure(message: string, at: TemplateLocation): { ok: false; error: TemplateParseError } {
  return { ok: false, error: { message, line: at.line, column: at.column } };
}

function classifyTag(content: string): { kind: TagKind; name: string } {
  const trimmed = content.trim();
  const sigil = trimmed[0];
  const rest = trimmed.slice(1).trim();
  if (sigil === "!") return { kind: "comment", name: "" };
  if (sigil === "#") return { kind: "section", name: rest };
  if (sigil === "^") return { kind: "inverted", name: rest };
  if (sigil === "/") return { kind: "close", name: rest };
  if (trimmed === ".") return { kind: "dot", name: "." };
  return { kind: "variable", name: trimmed };
}

function textToken(text: string): TextToken {
  return { type: "text", text, keepFrom: 0, keepTo: text.length };
}

function tokenize(template: string): TokenizeResult {
  const tokens: Token[] = [];
  let line = 1;
  let lineStart = 0;
  // Counts the newlines of template[from, to); every character is visited once overall.
  const advance = (from: number, to: number): void => {
    for (let index = from; index < to; index++) {
      if (template.charCodeAt(index) === 10) {
        line++;
        lineStart = index + 1;
      }
    }
  };

  let index = 0;
  while (index < template.length) {
    const open = template.indexOf("{{", index);
    if (open === -1) {
      tokens.push(textToken(template.slice(index)));
      break;
    }
    if (open > index) tokens.push(textToken(template.slice(index, open)));
    advance(index, open);
    const at = { line, column: open - lineStart + 1 };
    const close = template.indexOf("}}", open + 2);
    if (close === -1) {
      return failure(
        `Tag "{{" at line ${at.line}, column ${at.column} is never closed: end it with "}}"`,
        at,
      );
    }
    const raw = template.slice(open, close + 2);
    const { kind, name } = classifyTag(template.slice(open + 2, close));
    if (name === "" && (kind === "variable" || kind === "section" || kind === "inverted")) {
      const written = kind === "variable" ? "{{}}" : kind === "section" ? "{{#}}" : "{{^}}";
      const example = kind === "variable" ? "{{name}}" : kind === "section" ? "{{#name}}" : "{{^name}}";
      return failure(
        `Empty tag ${written} at line ${at.line}, column ${at.column}: write a name, as in ${example}`,
        at,
      );
    }
    tokens.push({ type: "tag", kind, name, raw, line: at.line, column: at.column });
    advance(open, close + 2);
    index = close + 2;
  }
  return { ok: true, tokens };
}

function isBlank(text: string): boolean {
  return /^[ \t]*$/.test(text);
}

/**
 * Mustache's standalone rule: a section, inverted, closing or comment tag alone on its line
 * (only spaces or tabs around it) takes that whole line with it, so block templates do not leave
 * blank lines behind. Decided on the original tokens first, then applied, because neighbouring
 * standalone lines share the text token between them.
 */
function removeStandaloneLines(tokens: Token[]): void {
  const last = tokens.length - 1;
  for (let index = 0; index <= last; index++) {
    const token = tokens[index];
    if (token?.type !== "tag" || token.kind === "variable" || token.kind === "dot") continue;
    const before = tokens[index - 1];
    const after = tokens[index + 1];

    let cutBefore: number | null = null;
    if (before === undefined) cutBefore = 0;
    else if (before.type === "text") {
      const newline = before.text.lastIndexOf("\n");
      if (newline !== -1 && isBlank(before.text.slice(newline + 1))) cutBefore = newline + 1;
      else if (newline === -1 && index === 1 && isBlank(before.text)) cutBefore = 0;
    }

    let cutAfter: number | null = null;
    if (after === undefined) cutAfter = 0;
    else if (after.type === "text") {
      const newline = after.text.indexOf("\n");
      if (newline !== -1 && /^[ \t]*\r?$/.test(after.text.slice(0, newline))) cutAfter = newline + 1;
      else if (newline === -1 && index + 1 === last && isBlank(after.text)) cutAfter = after.text.length;
    }

    if (cutBefore === null || cutAfter === null) continue;
    if (before?.type === "text") before.keepTo = cutBefore;
    if (after?.type === "text") after.keepFrom = cutAfter;
  }

  for (const token of tokens) {
    if (token.type === "text")
      token.text = token.text.slice(token.keepFrom, Math.max(token.keepFrom, token.keepTo));
  }
}

// ---------------------------------------------------------------------------------------------
// Parsing

function sectionTag(section: { name: string; inverted: boolean }): string {
  return `{{${section.inverted ? "^" : "#"}${section.name}}}`;
}

/** Parses a template, or reports the first unclosed tag or unbalanced section with its place. */
export function parseTemplate(template: string): ParseTemplateResult {
  const tokenized = tokenize(template);
  if (!tokenized.ok) return tokenized;
  removeStandaloneLines(tokenized.tokens);

  interface OpenSection extends TemplateLocation {
    readonly name: string;
    readonly inverted: boolean;
    readonly children: TemplateNode[];
  }
  const root: TemplateNode[] = [];
  const open: OpenSection[] = [];
  let children = root;

  for (const token of tokenized.tokens) {
    if (token.type === "text") {
      if (token.text !== "") children.push({ type: "text", text: token.text });
      continue;
    }
    const at = { line: token.line, column: token.column };
    switch (token.kind) {
      case "comment":
        break;
      case "dot":
        children.push({ type: "dot", raw: token.raw, ...at });
        break;
      case "variable":
        children.push({ type: "variable", path: token.name.split("."), raw: token.raw, ...at });
        break;
      case "section":
      case "inverted": {
        if (open.length >= MAX_SECTION_DEPTH) {
          return failure(
            `Section {{${token.kind === "inverted" ? "^" : "#"}${token.name}}} at line ${at.line}, column ${at.column} ` +
              `nests deeper than ${MAX_SECTION_DEPTH} sections: flatten the template`,
            at,
          );
        }
        const section: OpenSection = {
          name: token.name,
          inverted: token.kind === "inverted",
          children: [],
          ...at,
        };
        children.push({ type: "section", ...section });
        open.push(section);
        children = section.children;
        break;
      }
      case "close": {
        const innermost = open.pop();
        if (innermost === undefined) {
          return failure(
            `{{/${token.name}}} at line ${at.line}, column ${at.column} closes no open section: ` +
              `remove it or open the section with {{#${token.name}}} first`,
            at,
          );
        }
        if (innermost.name !== token.name) {
          return failure(
            `{{/${token.name}}} at line ${at.line}, column ${at.column} does not match ${sectionTag(innermost)} ` +
              `opened at line ${innermost.line}, column ${innermost.column}: close it with {{/${innermost.name}}} first`,
            at,
          );
        }
        children = open[open.length - 1]?.children ?? root;
        break;
      }
    }
  }

  const unclosed = open[open.length - 1];
  if (unclosed !== undefined) {
    return failure(
      `${sectionTag(unclosed)} opened at line ${unclosed.line}, column ${unclosed.column} is never closed: ` +
        `add {{/${unclosed.name}}} after its content`,
      unclosed,
    );
  }
  return { ok: true, template: { nodes: root } };
}

// ---------------------------------------------------------------------------------------------
// Values

export type TemplateContext = Readonly<Record<string, unknown>>;

type Lookup = { found: true; value: unknown } | { found: false };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

/** Own properties only, so names such as `constructor` or `__proto__` never reach a prototype. */
function lookupPath(value: unknown, path: readonly string[]): Lookup {
  let current = value;
  for (const key of path) {
    if (!isRecord(current) || !Object.hasOwn(current, key)) return { found: false };
    current = current[key];
  }
  return { found: true, value: current };
}

/** Innermost context first, as Mustache does, so a section element shadows outer keys. */
function resolve(stack: readonly unknown[], path: readonly string[]): Lookup {
  for (let index = stack.length - 1; index >= 0; index--) {
    const lookup = lookupPath(stack[index], path);
    if (lookup.found) return lookup;
  }
  return { found: false };
}

function toText(value: unknown): string {
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint") {
    return String(value);
  }
  if (value === null || value === undefined) return "";
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? "" : value.toISOString();
  if (typeof value === "object") {
    try {
      return JSON.stringify(value, (_key, inner: unknown) =>
        typeof inner === "bigint" ? inner.toString() : inner,
      );
    } catch {
      // Cyclic data cannot be JSON; a placeholder beats failing the whole prompt.
      return String(value);
    }
  }
  // Functions and symbols are not prompt text.
  return "";
}

/** Mustache falsiness, except that 0 renders its section (as in ptc_runner). */
function isFalsy(value: unknown): boolean {
  return (
    value === null ||
    value === undefined ||
    value === false ||
    value === "" ||
    (Array.isArray(value) && value.length === 0)
  );
}

// ---------------------------------------------------------------------------------------------
// Expansion

function render(nodes: readonly TemplateNode[], stack: unknown[], inSection: boolean, out: string[]): void {
  for (const node of nodes) {
    switch (node.type) {
      case "text":
        out.push(node.text);
        break;
      case "variable": {
        const lookup = resolve(stack, node.path);
        // Outside sections a missing key stays visible so an unfilled prompt is easy to spot.
        if (lookup.found) out.push(toText(lookup.value));
        else if (!inSection) out.push(node.raw);
        break;
      }
      case "dot":
        // Only a section pushes a current element; the root context is not one.
        out.push(stack.length > 1 ? toText(stack[stack.length - 1]) : node.raw);
        break;
      case "section": {
        const lookup = resolve(stack, node.name.split("."));
        const value = lookup.found ? lookup.value : undefined;
        if (node.inverted) {
          if (isFalsy(value)) render(node.children, stack, true, out);
        } else if (Array.isArray(value)) {
          for (const element of value) {
            stack.push(element);
            render(node.children, stack, true, out);
            stack.pop();
          }
        } else if (!isFalsy(value)) {
          stack.push(value);
          render(node.children, stack, true, out);
          stack.pop();
        }
        break;
      }
    }
  }
}

function expandParsed(parsed: ParsedTemplate, context: TemplateContext): string {
  const out: string[] = [];
  render(parsed.nodes, [context], false, out);
  return out.join("");
}

/**
 * Plain Mustache expansion. A key missing at the top level keeps its tag verbatim (`{{missing}}`),
 * inside a section it renders nothing; null renders nothing; objects and arrays render as JSON.
 * A template that does not parse comes back unchanged.
 */
export function expandTemplate(template: string, context: TemplateContext): string {
  const parsed = parseTemplate(template);
  return parsed.ok ? expandParsed(parsed.template, context) : template;
}

/**
 * The PTC-Lisp mission text: each `{{x}}` / `{{a.b}}` becomes a `~{data/x}` /
 * `~{data/a.b}` reference the program can read, because the data itself is listed in the data
 * inventory. Only when the template has no sections and every placeholder path exists in the
 * context; otherwise it falls back to `expandTemplate`. A template that does not parse comes back
 * unchanged.
 */
export function annotateTemplate(template: string, context: TemplateContext): string {
  const parsed = parseTemplate(template);
  if (!parsed.ok) return template;
  const { nodes } = parsed.template;
  const annotatable = nodes.every(
    (node) => node.type !== "section" && (node.type !== "variable" || lookupPath(context, node.path).found),
  );
  if (!annotatable) return expandParsed(parsed.template, context);
  return nodes
    .map((node) => {
      if (node.type === "text") return node.text;
      if (node.type === "variable") return `~{data/${node.path.join(".")}}`;
      return "~{data/.}";
    })
    .join("");
}

// ---------------------------------------------------------------------------------------------
// Placeholders

export interface VariablePlaceholder extends TemplateLocation {
  readonly kind: "variable";
  /** `{{a.b}}` → `["a", "b"]`. */
  readonly path: readonly string[];
}
export interface DotPlaceholder extends TemplateLocation {
  readonly kind: "dot";
}
export interface SectionPlaceholder extends TemplateLocation {
  readonly kind: "section";
  readonly name: string;
  readonly inverted: boolean;
  /** Tags directly inside, in template order (nested sections keep their own children). */
  readonly children: readonly PlaceholderNode[];
  /** The variables and `{{.}}` tags among `children`. */
  readonly fields: readonly SectionField[];
}
export interface SectionField extends TemplateLocation {
  /** `[]` for `{{.}}`. */
  readonly path: readonly string[];
  readonly isDot: boolean;
}
export type PlaceholderNode = VariablePlaceholder | DotPlaceholder | SectionPlaceholder;

export interface TemplatePlaceholders {
  /** Every tag except comments, as a tree in template order. */
  readonly nodes: readonly PlaceholderNode[];
  /** Variables outside every section. */
  readonly variables: readonly VariablePlaceholder[];
  /** Sections outside every section (nested ones hang off their parent's `children`). */
  readonly sections: readonly SectionPlaceholder[];
  /** `{{.}}` outside every section: an error for text-mode agents. */
  readonly topLevelDots: readonly TemplateLocation[];
  /**
   * The names `createAgent` checks against signature parameters: top-level variable paths joined with
   * "." and top-level section names, each once, in order of first appearance. Tags inside
   * sections and `{{.}}` are not included.
   */
  readonly names: readonly string[];
}

function toPlaceholders(nodes: readonly TemplateNode[]): PlaceholderNode[] {
  const placeholders: PlaceholderNode[] = [];
  for (const node of nodes) {
    if (node.type === "text") continue;
    const at = { line: node.line, column: node.column };
    if (node.type === "variable") placeholders.push({ kind: "variable", path: node.path, ...at });
    else if (node.type === "dot") placeholders.push({ kind: "dot", ...at });
    else {
      const children = toPlaceholders(node.children);
      const fields: SectionField[] = [];
      for (const child of children) {
        if (child.kind === "variable") {
          fields.push({ path: child.path, isDot: false, line: child.line, column: child.column });
        } else if (child.kind === "dot") {
          fields.push({ path: [], isDot: true, line: child.line, column: child.column });
        }
      }
      placeholders.push({
        kind: "section",
        name: node.name,
        inverted: node.inverted,
        children,
        fields,
        ...at,
      });
    }
  }
  return placeholders;
}

/**
 * The placeholders of a template, for validating it against a signature. A template that does
 * not parse has none (as in ptc_runner); call `parseTemplate` to report why it does not parse.
 */
export function templatePlaceholders(template: string): TemplatePlaceholders {
  const parsed = parseTemplate(template);
  const nodes = parsed.ok ? toPlaceholders(parsed.template.nodes) : [];
  const variables: VariablePlaceholder[] = [];
  const sections: SectionPlaceholder[] = [];
  const topLevelDots: TemplateLocation[] = [];
  const names = new Set<string>();
  for (const node of nodes) {
    if (node.kind === "variable") {
      variables.push(node);
      names.add(node.path.join("."));
    } else if (node.kind === "section") {
      sections.push(node);
      names.add(node.name);
    } else {
      topLevelDots.push({ line: node.line, column: node.column });
    }
  }
  return { nodes, variables, sections, topLevelDots, names: [...names] };
}
