/**
 * A server's `inputSchema` patterns are matched against the arguments a program passes, on the
 * host's thread: they run on a linear-time engine, so a hostile server cannot hang the host with a
 * pattern that makes a backtracking engine take exponential time.
 */
import { describe, expect, it } from "vitest";
import { schemaParameters } from "./schema-parameters.js";

function check(schema: unknown, value: unknown) {
  return schemaParameters(schema)["~standard"].validate(value);
}

describe("input schema patterns", () => {
  // A backtracking engine takes about 2^40 steps for this text: that the test ends at all shows
  // the check is linear. (No wall time is asserted; the timeout is only a generous backstop.)
  it("checks a catastrophic pattern against a long text that does not match", { timeout: 60_000 }, () => {
    const text = `${"a".repeat(40)}!`;
    const schema = { type: "object", properties: { q: { type: "string", pattern: "^(a+)+$" } } };
    expect(check(schema, { q: text })).toEqual({
      issues: [{ path: ["q"], message: 'must match pattern "^(a+)+$"' }],
    });
    expect(check(schema, { q: "aaaa" })).toEqual({ value: { q: "aaaa" } });
    const keyed = { type: "object", patternProperties: { "^(a+)+$": { type: "integer" } } };
    expect(check(keyed, { [text]: "x" })).toEqual({ value: { [text]: "x" } });
    expect(check(keyed, { aaa: "x" })).toMatchObject({ issues: [{ path: ["aaa"] }] });
  });

  it("checks ordinary patterns as before", () => {
    const schema = {
      type: "object",
      properties: {
        name: { type: "string", pattern: "^[a-z]+$" },
        phone: { type: "string", pattern: "\\d{3}" },
        word: { type: "string", pattern: "^\\p{L}+$" },
      },
    };
    expect(check(schema, { name: "ada", phone: "call 555-1234", word: "Zoë" })).toEqual({
      value: { name: "ada", phone: "call 555-1234", word: "Zoë" },
    });
    expect(check(schema, { name: "Ada", phone: "none", word: "Zoë1" })).toMatchObject({
      issues: [{ path: ["name"] }, { path: ["phone"] }, { path: ["word"] }],
    });
  });

  it("checks nothing but the shape for a pattern with lookahead, as for any schema that does not compile", () => {
    const schema = { type: "object", properties: { q: { type: "string", pattern: "^(?!admin)" } } };
    expect(check(schema, { q: "admin" })).toEqual({ value: { q: "admin" } });
    expect(check(schema, [1])).toEqual({
      issues: [{ message: "expected a map of named arguments, got list" }],
    });
  });
});
