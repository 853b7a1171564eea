import fc from "fast-check";
import { describe, expect, test } from "vitest";
import {
  annotateTemplate,
  expandTemplate,
  type ParseTemplateResult,
  parseTemplate,
  type TemplateParseError,
  templatePlaceholders,
} from "./template.js";

function parseError(template: string): TemplateParseError {
  const result: ParseTemplateResult = parseTemplate(template);
  if (result.ok) throw new Error(`expected a parse error for ${template}`);
  return result.error;
}

describe("expandTemplate: variables", () => {
  test("replaces a variable", () => {
    expect(expandTemplate("Hello {{name}}", { name: "Alice" })).toBe("Hello Alice");
  });

  test("allows spaces inside the tag", () => {
    expect(expandTemplate("Hello {{ name }}!", { name: "Alice" })).toBe("Hello Alice!");
  });

  test("follows dotted paths", () => {
    expect(expandTemplate("{{a.b.c}}", { a: { b: { c: "deep" } } })).toBe("deep");
    expect(expandTemplate("User {{user.name}}", { user: { name: "Bob" } })).toBe("User Bob");
  });

  test("renders numbers, booleans and bigints as text", () => {
    expect(
      expandTemplate("{{n}} {{f}} {{t}} {{no}} {{big}}", { n: 42, f: 1.5, t: true, no: false, big: 10n }),
    ).toBe("42 1.5 true false 10");
  });

  test("renders null and undefined as nothing", () => {
    expect(expandTemplate("[{{a}}][{{b}}]", { a: null, b: undefined })).toBe("[][]");
  });

  test("renders objects and arrays as JSON", () => {
    expect(expandTemplate("{{list}} {{obj}}", { list: [1, "a", null], obj: { k: [true] } })).toBe(
      '[1,"a",null] {"k":[true]}',
    );
  });

  test("renders dates as ISO strings", () => {
    expect(expandTemplate("{{at}}", { at: new Date("2026-05-03T09:14:00Z") })).toBe(
      "2026-05-03T09:14:00.000Z",
    );
  });

  test("does not HTML-escape", () => {
    expect(expandTemplate("{{html}}", { html: "<b>&\"'</b>" })).toBe("<b>&\"'</b>");
  });

  test("inserts values literally, never expanding tags inside them", () => {
    expect(expandTemplate("{{a}}", { a: "{{b}}", b: "no" })).toBe("{{b}}");
  });

  test("keeps a missing top-level key verbatim", () => {
    expect(expandTemplate("{{missing}}", {})).toBe("{{missing}}");
    expect(expandTemplate("{{a}} and {{b}}", { a: "1" })).toBe("1 and {{b}}");
    expect(expandTemplate("{{ spaced }}", {})).toBe("{{ spaced }}");
  });

  test("keeps a missing dotted path verbatim while expanding the rest", () => {
    expect(expandTemplate("{{user.name}} / {{x}}", { user: {}, x: 1 })).toBe("{{user.name}} / 1");
    expect(expandTemplate("{{user.name}}", { user: "Bob" })).toBe("{{user.name}}");
    expect(expandTemplate("{{user.name.first}}", { user: { name: null } })).toBe("{{user.name.first}}");
  });

  test("does not index into arrays or strings", () => {
    expect(expandTemplate("{{items.length}} {{items.0}} {{s.length}}", { items: [1], s: "abc" })).toBe(
      "{{items.length}} {{items.0}} {{s.length}}",
    );
  });

  test("expands an empty template and one without tags", () => {
    expect(expandTemplate("", {})).toBe("");
    expect(expandTemplate("Just text, {single} braces } {", {})).toBe("Just text, {single} braces } {");
  });

  test("handles values with special replacement characters", () => {
    expect(expandTemplate("{{a}}", { a: "$& $1 $$" })).toBe("$& $1 $$");
  });
});

describe("expandTemplate: prototype safety", () => {
  test.each(["constructor", "toString", "__proto__", "hasOwnProperty", "valueOf"])(
    "{{%s}} finds nothing on a plain object",
    (name) => {
      expect(expandTemplate(`{{${name}}}`, {})).toBe(`{{${name}}}`);
      expect(expandTemplate(`{{a.${name}}}`, { a: {} })).toBe(`{{a.${name}}}`);
    },
  );

  test("prototype names as sections render nothing; inverted they render", () => {
    expect(expandTemplate("[{{#constructor}}x{{/constructor}}]", {})).toBe("[]");
    expect(expandTemplate("[{{^constructor}}none{{/constructor}}]", {})).toBe("[none]");
  });

  test("own keys named like prototype members are used", () => {
    const context = JSON.parse('{"__proto__": "own", "constructor": "mine"}') as Record<string, unknown>;
    expect(expandTemplate("{{__proto__}} {{constructor}}", context)).toBe("own mine");
  });

  test("works with null-prototype contexts", () => {
    const context = Object.assign(Object.create(null) as Record<string, unknown>, { a: 1 });
    expect(expandTemplate("{{a}} {{toString}}", context)).toBe("1 {{toString}}");
  });

  test("inherited properties of class instances are not read", () => {
    class Secret {
      get hidden(): string {
        return "leak";
      }
    }
    expect(expandTemplate("{{s.hidden}}", { s: new Secret() })).toBe("{{s.hidden}}");
  });
});

describe("expandTemplate: sections", () => {
  test("iterates a list of maps", () => {
    const template = "{{#items}}- {{name}}\n{{/items}}";
    expect(expandTemplate(template, { items: [{ name: "A" }, { name: "B" }] })).toBe("- A\n- B\n");
  });

  test("iterates a list of scalars with {{.}}", () => {
    expect(expandTemplate("{{#tags}}{{.}}, {{/tags}}", { tags: ["a", 1, true] })).toBe("a, 1, true, ");
  });

  test("{{.}} renders a map element as JSON and null as nothing", () => {
    expect(expandTemplate("{{#xs}}[{{.}}]{{/xs}}", { xs: [{ a: 1 }, null, [2]] })).toBe('[{"a":1}][][[2]]');
  });

  test("skips an empty list, a missing key and falsy values", () => {
    for (const value of [[], null, undefined, false, ""]) {
      expect(expandTemplate("[{{#x}}shown{{/x}}]", { x: value })).toBe("[]");
    }
    expect(expandTemplate("[{{#x}}shown{{/x}}]", {})).toBe("[]");
  });

  test("renders a truthy scalar once with it as the current element", () => {
    expect(expandTemplate("{{#flag}}on{{/flag}}", { flag: true })).toBe("on");
    expect(expandTemplate("{{#n}}n={{.}}{{/n}}", { n: 0 })).toBe("n=0");
    expect(expandTemplate("{{#s}}<{{.}}>{{/s}}", { s: "hi" })).toBe("<hi>");
  });

  test("renders a map once with it as context", () => {
    expect(expandTemplate("{{#user}}{{name}} ({{age}}){{/user}}", { user: { name: "Ann", age: 30 } })).toBe(
      "Ann (30)",
    );
    expect(expandTemplate("{{#empty}}shown{{/empty}}", { empty: {} })).toBe("shown");
  });

  test("inner names fall back to outer contexts", () => {
    const context = { title: "T", items: [{ name: "A" }, { name: "B", title: "own" }] };
    expect(expandTemplate("{{#items}}{{name}}:{{title}} {{/items}}", context)).toBe("A:T B:own ");
  });

  test("a missing name inside a section renders nothing", () => {
    expect(expandTemplate("{{#items}}[{{nope}}]{{/items}}", { items: [{}, {}] })).toBe("[][]");
  });

  test("dotted names resolve inside sections", () => {
    const context = { items: [{ user: { name: "A" } }, { user: { name: "B" } }] };
    expect(expandTemplate("{{#items}}{{user.name}};{{/items}}", context)).toBe("A;B;");
  });

  test("dotted section names walk into maps", () => {
    expect(expandTemplate("{{#a.list}}{{.}}{{/a.list}}", { a: { list: [1, 2] } })).toBe("12");
  });

  test("nested sections iterate nested lists", () => {
    const context = {
      groups: [
        { name: "g1", members: ["a", "b"] },
        { name: "g2", members: [] },
      ],
    };
    const template =
      "{{#groups}}{{name}}:{{#members}} {{.}}{{/members}}{{^members}} none{{/members}};{{/groups}}";
    expect(expandTemplate(template, context)).toBe("g1: a b;g2: none;");
  });

  test("a section may be repeated", () => {
    expect(expandTemplate("{{#x}}a{{/x}}-{{#x}}b{{/x}}", { x: true })).toBe("a-b");
  });

  test("large lists expand fully", () => {
    const items = Array.from({ length: 10_000 }, (_, index) => index);
    expect(expandTemplate("{{#items}}{{.}},{{/items}}", { items })).toBe(`${items.join(",")},`);
  });
});

describe("expandTemplate: inverted sections", () => {
  test("renders for a missing key, an empty list and falsy values", () => {
    for (const value of [[], null, undefined, false, ""]) {
      expect(expandTemplate("{{^x}}none{{/x}}", { x: value })).toBe("none");
    }
    expect(expandTemplate("{{^x}}none{{/x}}", {})).toBe("none");
  });

  test("skips truthy values", () => {
    for (const value of [[1], true, "s", 0, {}]) {
      expect(expandTemplate("[{{^x}}none{{/x}}]", { x: value })).toBe("[]");
    }
  });

  test("keeps the surrounding context", () => {
    expect(expandTemplate("{{^items}}No items for {{user}}{{/items}}", { items: [], user: "Ann" })).toBe(
      "No items for Ann",
    );
  });
});

describe("expandTemplate: {{.}} and comments", () => {
  test("{{.}} outside any section stays verbatim", () => {
    expect(expandTemplate("value: {{.}}", { a: 1 })).toBe("value: {{.}}");
    expect(expandTemplate("{{^x}}{{.}}{{/x}}", {})).toBe("{{.}}");
  });

  test("comments render nothing", () => {
    expect(expandTemplate("a{{! a note }}b", {})).toBe("ab");
    expect(expandTemplate("a{{!}}b", {})).toBe("ab");
  });
});

describe("expandTemplate: standalone lines", () => {
  test("section tags on their own lines leave no blank lines", () => {
    const template = "Items:\n{{#items}}\n- {{name}}\n{{/items}}\nDone";
    expect(expandTemplate(template, { items: [{ name: "A" }, { name: "B" }] })).toBe(
      "Items:\n- A\n- B\nDone",
    );
  });

  test("indented standalone tags take their indentation with them", () => {
    const template = "List:\n  {{#xs}}\n  * {{.}}\n  {{/xs}}\nEnd";
    expect(expandTemplate(template, { xs: [1, 2] })).toBe("List:\n  * 1\n  * 2\nEnd");
  });

  test("standalone tags at the very start and end of the template", () => {
    expect(expandTemplate("{{#x}}\nyes\n{{/x}}", { x: true })).toBe("yes\n");
    expect(expandTemplate("  {{^x}}  \nno\n  {{/x}}  ", {})).toBe("no\n");
  });

  test("standalone comment lines vanish", () => {
    expect(expandTemplate("a\n{{! note }}\nb", {})).toBe("a\nb");
  });

  test("CRLF standalone lines are removed with their CRLF", () => {
    expect(expandTemplate("a\r\n{{#x}}\r\nb\r\n{{/x}}\r\nc", { x: true })).toBe("a\r\nb\r\nc");
  });

  test("inline section tags keep the text around them, including the newline", () => {
    expect(expandTemplate("Tags: {{#tags}}{{.}} {{/tags}}\nNext", { tags: ["a", "b"] })).toBe(
      "Tags: a b \nNext",
    );
  });

  test("a line with a section tag and a variable is not standalone", () => {
    expect(expandTemplate("{{#x}} {{y}}\n{{/x}}", { x: true, y: "v" })).toBe(" v\n");
  });

  test("variables alone on a line keep the line", () => {
    expect(expandTemplate("a\n{{x}}\nb", { x: "" })).toBe("a\n\nb");
  });

  test("consecutive standalone lines are all removed", () => {
    const template = "start\n{{#a}}\n{{#b}}\nboth\n{{/b}}\n{{/a}}\nend";
    expect(expandTemplate(template, { a: true, b: true })).toBe("start\nboth\nend");
  });
});

describe("expandTemplate: templates that do not parse", () => {
  test("come back unchanged", () => {
    expect(expandTemplate("Hi {{name}} {{#open}}", { name: "x" })).toBe("Hi {{name}} {{#open}}");
    expect(expandTemplate("Hi {{name", { name: "x" })).toBe("Hi {{name");
  });
});

describe("parseTemplate errors", () => {
  test("an unclosed section names the section, line and the fix", () => {
    const error = parseError("line one\n  {{#items}}\n{{name}}");
    expect(error).toMatchObject({ line: 2, column: 3 });
    expect(error.message).toBe(
      "{{#items}} opened at line 2, column 3 is never closed: add {{/items}} after its content",
    );
  });

  test("an unclosed inverted section is named with ^", () => {
    expect(parseError("{{^empty}}").message).toContain(
      "{{^empty}} opened at line 1, column 1 is never closed",
    );
  });

  test("the innermost unclosed section is reported", () => {
    expect(parseError("{{#a}}\n{{#b}}\n{{/a}}").message).toContain("does not match {{#b}}");
    expect(parseError("{{#a}}{{#b}}").message).toContain("{{#b}} opened at line 1, column 7");
  });

  test("a mismatched close names both sections and lines", () => {
    const error = parseError("{{#a}}\nx\n{{/b}}");
    expect(error).toMatchObject({ line: 3, column: 1 });
    expect(error.message).toBe(
      "{{/b}} at line 3, column 1 does not match {{#a}} opened at line 1, column 1: close it with {{/a}} first",
    );
  });

  test("a close with no open section", () => {
    const error = parseError("text\n{{/items}}");
    expect(error).toMatchObject({ line: 2, column: 1 });
    expect(error.message).toContain("{{/items}} at line 2, column 1 closes no open section");
  });

  test("an unclosed tag", () => {
    const error = parseError("a\nb {{name");
    expect(error).toMatchObject({ line: 2, column: 3 });
    expect(error.message).toContain('is never closed: end it with "}}"');
  });

  test("empty tags", () => {
    expect(parseError("{{}}").message).toContain("Empty tag {{}} at line 1, column 1");
    expect(parseError("x {{ # }}").message).toContain("Empty tag {{#}} at line 1, column 3");
    expect(parseError("{{^}}").message).toContain("{{^name}}");
  });

  test("sections nested too deep", () => {
    const open = Array.from({ length: 21 }, (_, index) => `{{#s${index}}}`).join("");
    const close = Array.from({ length: 21 }, (_, index) => `{{/s${20 - index}}}`).join("");
    expect(parseError(open + close).message).toContain("nests deeper than 20 sections");
    const ok = Array.from({ length: 20 }, (_, index) => `{{#s${index}}}`).join("");
    const okClose = Array.from({ length: 20 }, (_, index) => `{{/s${19 - index}}}`).join("");
    expect(parseTemplate(ok + okClose).ok).toBe(true);
  });

  test("lines count across multi-line tags and text", () => {
    expect(parseError("{{!\nmulti\nline}}\n\n  {{/x}}")).toMatchObject({ line: 5, column: 3 });
  });

  test("a valid template parses", () => {
    expect(parseTemplate("{{#a}}{{b}}{{/a}}{{^c}}{{.}}{{/c}}").ok).toBe(true);
  });
});

describe("annotateTemplate", () => {
  test("turns present variables into data references", () => {
    expect(annotateTemplate("Hello {{name}}", { name: "Alice" })).toBe("Hello ~{data/name}");
    expect(annotateTemplate("Count: {{count}}", { count: 42 })).toBe("Count: ~{data/count}");
  });

  test("annotates dotted paths", () => {
    expect(annotateTemplate("{{a.b}}", { a: { b: "deep" } })).toBe("~{data/a.b}");
  });

  test("a present key whose value is null still counts", () => {
    expect(annotateTemplate("{{x}}", { x: null })).toBe("~{data/x}");
  });

  test("a template without placeholders is returned as is", () => {
    expect(annotateTemplate("Hello", {})).toBe("Hello");
  });

  test("drops comments and annotates {{.}}", () => {
    expect(annotateTemplate("{{! note }}{{a}} {{.}}", { a: 1 })).toBe("~{data/a} ~{data/.}");
  });

  test("falls back to plain expansion when a key is missing", () => {
    expect(annotateTemplate("{{missing}}", {})).toBe("{{missing}}");
    expect(annotateTemplate("{{a}} and {{b}}", { a: "1" })).toBe("1 and {{b}}");
    expect(annotateTemplate("{{a.b}} {{c}}", { a: {}, c: 2 })).toBe("{{a.b}} 2");
  });

  test("a prototype name is missing, not present", () => {
    expect(annotateTemplate("{{constructor}} {{a}}", { a: 1 })).toBe("{{constructor}} 1");
  });

  test("falls back to plain expansion when the template has sections", () => {
    expect(annotateTemplate("{{#xs}}{{.}}{{/xs}} {{n}}", { xs: [1, 2], n: 3 })).toBe("12 3");
    expect(annotateTemplate("{{^xs}}none{{/xs}}", { xs: [] })).toBe("none");
  });

  test("a template that does not parse comes back unchanged", () => {
    expect(annotateTemplate("{{#a}} {{b}}", { a: 1, b: 2 })).toBe("{{#a}} {{b}}");
  });
});

describe("templatePlaceholders", () => {
  test("lists top-level variables with paths and places", () => {
    const placeholders = templatePlaceholders("Hi {{name}}\n  {{user.email}}");
    expect(placeholders.variables).toEqual([
      { kind: "variable", path: ["name"], line: 1, column: 4 },
      { kind: "variable", path: ["user", "email"], line: 2, column: 3 },
    ]);
    expect(placeholders.names).toEqual(["name", "user.email"]);
  });

  test("names include section names once, exclude {{.}} and tags inside sections", () => {
    const template = "{{a}} {{#items}}{{name}}{{.}}{{/items}} {{^empty}}x{{/empty}} {{a}} {{.}} {{b.c}}";
    expect(templatePlaceholders(template).names).toEqual(["a", "items", "empty", "b.c"]);
  });

  test("describes sections with their fields, children and places", () => {
    const template = "{{#items}}\n- {{name}} {{.}}\n  {{#tags}}{{.}}{{/tags}}\n{{/items}}";
    const [section] = templatePlaceholders(template).sections;
    expect(section).toMatchObject({ kind: "section", name: "items", inverted: false, line: 1, column: 1 });
    expect(section?.fields).toEqual([
      { path: ["name"], isDot: false, line: 2, column: 3 },
      { path: [], isDot: true, line: 2, column: 12 },
    ]);
    expect(section?.children.map((child) => child.kind)).toEqual(["variable", "dot", "section"]);
    const nested = section?.children[2];
    expect(nested).toMatchObject({ kind: "section", name: "tags", line: 3, column: 3 });
    expect(nested?.kind === "section" ? nested.fields : []).toEqual([
      { path: [], isDot: true, line: 3, column: 12 },
    ]);
  });

  test("marks inverted sections", () => {
    const [section] = templatePlaceholders("{{^items}}none {{hint}}{{/items}}").sections;
    expect(section).toMatchObject({ name: "items", inverted: true });
    expect(section?.fields).toEqual([{ path: ["hint"], isDot: false, line: 1, column: 16 }]);
  });

  test("reports top-level {{.}} with its line", () => {
    expect(templatePlaceholders("a\n{{.}} and {{#xs}}{{.}}{{/xs}}\n {{ . }}").topLevelDots).toEqual([
      { line: 2, column: 1 },
      { line: 3, column: 2 },
    ]);
  });

  test("keeps every tag in order in nodes, without comments", () => {
    const { nodes } = templatePlaceholders("{{#s}}{{/s}}{{! c }}{{v}}{{.}}");
    expect(nodes.map((node) => node.kind)).toEqual(["section", "variable", "dot"]);
  });

  test("a template that does not parse has no placeholders", () => {
    expect(templatePlaceholders("{{#a}}{{b}}")).toEqual({
      nodes: [],
      variables: [],
      sections: [],
      topLevelDots: [],
      names: [],
    });
  });

  test("a template without tags has none", () => {
    expect(templatePlaceholders("plain { text }").names).toEqual([]);
  });
});

describe("performance", () => {
  test("many tags on one long line expand in linear time", () => {
    const template = "{{a}} ".repeat(100_000);
    expect(expandTemplate(template, { a: 1 })).toBe("1 ".repeat(100_000));
  });

  test("an unclosed tag at the end of a long template is found quickly", () => {
    expect(parseError(`${"x".repeat(200_000)}{{`)).toMatchObject({ line: 1, column: 200_001 });
  });
});

describe("properties", () => {
  const name = fc.constantFrom("a", "b", "user", "items", "constructor", "__proto__", "x_1");
  const text = fc.string({ maxLength: 12 }).filter((chunk) => !chunk.includes("{") && !chunk.includes("}"));

  test("templates without tags expand to themselves", () => {
    fc.assert(
      fc.property(text, fc.dictionary(name, fc.jsonValue()), (template, context) => {
        expect(expandTemplate(template, context)).toBe(template);
      }),
    );
  });

  test("string values are inserted exactly, and missing names stay verbatim", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(text, name), { maxLength: 6 }),
        fc.dictionary(fc.constantFrom("a", "b", "user"), fc.string()),
        (parts, context) => {
          const template = parts.map(([chunk, key]) => `${chunk}{{${key}}}`).join("");
          const expected = parts
            .map(([chunk, key]) => chunk + (Object.hasOwn(context, key) ? context[key] : `{{${key}}}`))
            .join("");
          expect(expandTemplate(template, context)).toBe(expected);
        },
      ),
    );
  });

  test("parseTemplate never throws", () => {
    const fragments = fc
      .array(
        fc.constantFrom(
          "{{",
          "}}",
          "{{#a}}",
          "{{/a}}",
          "{{^b}}",
          "{{/b}}",
          "{{.}}",
          "{{!x}}",
          "a",
          "\n",
          " ",
        ),
        {
          maxLength: 30,
        },
      )
      .map((parts) => parts.join(""));
    fc.assert(
      fc.property(fragments, (template) => {
        const result = parseTemplate(template);
        if (!result.ok) expect(result.error.line).toBeGreaterThanOrEqual(1);
        expect(typeof expandTemplate(template, { a: [1], b: false })).toBe("string");
      }),
    );
  });
});
