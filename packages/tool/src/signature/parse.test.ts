import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseSignature, renderSignature, type Signature, type SignatureType } from "../index.js";

function parsed(text: string): Signature {
  const result = parseSignature(text);
  if (!result.ok) throw new Error(result.error);
  return result.signature;
}

function error(text: unknown): string {
  const result = parseSignature(text);
  if (result.ok) throw new Error(`expected ${String(text)} to be rejected`);
  return result.error;
}

const map = (...fields: [string, SignatureType][]): SignatureType => ({
  kind: "map",
  fields: fields.map(([name, type]) => ({ name, type })),
  closed: false,
});

describe("parseSignature", () => {
  it.each([
    [":string", "string"],
    [":int", "int"],
    [":float", "float"],
    [":bool", "bool"],
    [":boolean", "bool"],
    [":keyword", "keyword"],
    [":any", "any"],
    [":map", "map"],
    [":datetime", "datetime"],
  ] as const)("reads the primitive %s", (text, type) => {
    expect(parsed(text)).toEqual({ params: [], returns: type });
  });

  it("reads a ? suffix as optional", () => {
    expect(parsed(":string?").returns).toEqual({ kind: "optional", type: "string" });
    expect(parsed("{at :datetime?}").returns).toEqual(map(["at", { kind: "optional", type: "datetime" }]));
  });

  it("reads lists, maps, empty maps and nesting", () => {
    expect(parsed("[:string]").returns).toEqual({ kind: "list", type: "string" });
    expect(parsed("[{id :int}]").returns).toEqual({ kind: "list", type: map(["id", "int"]) });
    expect(parsed("{}").returns).toEqual(map());
    expect(parsed("[{}]").returns).toEqual({ kind: "list", type: map() });
    expect(parsed("{ok :boolean}").returns).toEqual(map(["ok", "bool"]));
    expect(parsed("{user {profile {theme {primary :string}}}}").returns).toEqual(
      map(["user", map(["profile", map(["theme", map(["primary", "string"])])])]),
    );
  });

  it("reads full signatures with parameters in order", () => {
    expect(parsed("(query :string, limit :int) -> {count :int, items [{id :int}]}")).toEqual({
      params: [
        { name: "query", type: "string" },
        { name: "limit", type: "int" },
      ],
      returns: map(["count", "int"], ["items", { kind: "list", type: map(["id", "int"]) }]),
    });
    expect(parsed("() -> :string")).toEqual({ params: [], returns: "string" });
    expect(parsed("(email :string?) -> :string").params).toEqual([
      { name: "email", type: { kind: "optional", type: "string" } },
    ]);
  });

  it("reads `-> type`, the rendering of a signature without parameters", () => {
    expect(parsed("-> {count :int}")).toEqual({ params: [], returns: map(["count", "int"]) });
  });

  it("allows whitespace, tabs and newlines between tokens", () => {
    expect(parsed("  ( \n  id :int\t) ->\r\n :string  ")).toEqual({
      params: [{ name: "id", type: "int" }],
      returns: "string",
    });
    expect(parsed("{ id :int , name :string }").returns).toEqual(map(["id", "int"], ["name", "string"]));
  });

  it("accepts hyphens and underscores in names, and a leading underscore", () => {
    expect(parsed("{user-id :int, user_id :int, _email_ids [:int]}").returns).toEqual(
      map(["user-id", "int"], ["user_id", "int"], ["_email_ids", { kind: "list", type: "int" }]),
    );
  });

  it.each([
    "invalid syntax here",
    "(id :int -> :string",
    "",
    "(id :)",
    "(id :int) -> :string extra",
    ":unknown",
    "[]",
    "[:int]?",
    "{a :int,}",
    "{a :int b :int}",
    "(1d :int) -> :int",
  ])("rejects %j", (text) => {
    expect(error(text)).toMatch(/^(parse error|unexpected input) at line \d+, column \d+: /);
  });

  it("matches type names by prefix, so :integer fails on its leftover", () => {
    expect(error(":integer")).toBe(
      "unexpected input at line 1, column 5: eger...\n\nHint: Valid types are :string, :int, :float, :bool, :boolean, :keyword, :map, :any, :datetime. For lists use [:type], for maps use {field :type}.",
    );
  });

  it("locates errors by line and column", () => {
    expect(error("(a :int,\n b :strin) -> :int")).toMatch(
      /^parse error at line 2, column 5: expected a type name after ":"/,
    );
    expect(error("(a :int) => :int")).toBe('parse error at line 1, column 10: expected "->", found "="');
  });

  it("adds the type hint only when an unknown :type is named", () => {
    expect(error("{a :str}")).toContain("Hint: Valid types are");
    expect(error("{a :string")).not.toContain("Hint");
  });

  it("rejects a non-string", () => {
    expect(error(42)).toBe("signature must be a string, got 42");
  });

  it("parses every rendered signature back to itself", () => {
    const primitive = fc.constantFrom<SignatureType>(
      "string",
      "int",
      "float",
      "bool",
      "keyword",
      "any",
      "map",
      "datetime",
    );
    const name = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_-]{0,6}$/);
    const type = fc.letrec<{ type: SignatureType }>((tie) => ({
      type: fc.oneof(
        { depthSize: "small", withCrossShrink: true },
        primitive,
        primitive.map((inner): SignatureType => ({ kind: "optional", type: inner })),
        tie("type").map((inner): SignatureType => ({ kind: "list", type: inner })),
        fc
          .array(fc.record({ name, type: tie("type") }), { maxLength: 3 })
          .map((fields): SignatureType => ({ kind: "map", fields, closed: false })),
      ),
    })).type;
    const signature = fc.record({
      params: fc.array(fc.record({ name, type }), { maxLength: 3 }),
      returns: type,
    });
    fc.assert(
      fc.property(signature, (original) => {
        expect(parsed(renderSignature(original))).toEqual(original);
      }),
    );
  });
});
