import { describe, expect, it } from "vitest";
import { parseSignature, renderSignature, renderType, type Signature, toLispKey } from "../index.js";

function parsed(text: string): Signature {
  const result = parseSignature(text);
  if (!result.ok) throw new Error(result.error);
  return result.signature;
}

const SAMPLES = [
  ":string",
  ":boolean",
  "[:string?]",
  "{count :int}",
  "() -> :any",
  "(id :int) -> :string",
  "(query :string, limit :int?) -> [{id :int, title :string}]",
  "(user_profile {first_name :string, _email_ids [:int]}) -> {q1_total :float, at :datetime?}",
];

describe("renderSignature", () => {
  it("renders signatures as written, and `-> type` without parameters", () => {
    expect(
      Object.fromEntries(SAMPLES.map((text) => [text, renderSignature(parsed(text))])),
    ).toMatchInlineSnapshot(`
      {
        "() -> :any": "-> :any",
        "(id :int) -> :string": "(id :int) -> :string",
        "(query :string, limit :int?) -> [{id :int, title :string}]": "(query :string, limit :int?) -> [{id :int, title :string}]",
        "(user_profile {first_name :string, _email_ids [:int]}) -> {q1_total :float, at :datetime?}": "(user_profile {first_name :string, _email_ids [:int]}) -> {q1_total :float, at :datetime?}",
        ":boolean": "-> :bool",
        ":string": "-> :string",
        "[:string?]": "-> [:string?]",
        "{count :int}": "-> {count :int}",
      }
    `);
  });

  it("renders map keys in kebab-case for prompts, keeping a leading underscore", () => {
    const signature = parsed(SAMPLES[7] ?? "");
    expect(renderSignature(signature, { keyStyle: "lisp_prompt" })).toMatchInlineSnapshot(
      `"(user_profile {first-name :string, _email-ids [:int]}) -> {q1-total :float, at :datetime?}"`,
    );
    expect(renderType(signature.returns, { keyStyle: "lisp_prompt" })).toBe(
      "{q1-total :float, at :datetime?}",
    );
  });

  it("converts names to Lisp keys", () => {
    expect([toLispKey("q1_total"), toLispKey("_email_ids"), toLispKey("name"), toLispKey("__x_y")]).toEqual([
      "q1-total",
      "_email-ids",
      "name",
      "_-x-y",
    ]);
  });
});
