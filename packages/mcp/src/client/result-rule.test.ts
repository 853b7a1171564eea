import { describe, expect, it } from "vitest";
import { unwrapToolResult } from "./result-rule.js";

const text = (value: string) => ({ type: "text", text: value });

describe("the result rule", () => {
  it("1. isError: a failure whose message is the server's text", () => {
    expect(unwrapToolResult({ isError: true, content: [text("no such file"), text("try ls")] })).toEqual({
      ok: false,
      message: "no such file\ntry ls",
    });
    expect(unwrapToolResult({ isError: true, content: [] })).toEqual({
      ok: false,
      message: "the tool reported an error and gave no message",
    });
    // isError wins over structured content and over raw.
    expect(
      unwrapToolResult({ isError: true, structuredContent: { a: 1 }, content: [text("bad")] }, { raw: true })
        .ok,
    ).toBe(false);
  });

  it("cuts a very long error text and says so", () => {
    const result = unwrapToolResult({ isError: true, content: [text("x".repeat(5000))] });
    expect(!result.ok && result.message).toMatch(/^x{2000}\.\.\. \(cut at 2000 characters\)$/);
  });

  it("cuts a long error text before an emoji that straddles the cut, never between its halves", () => {
    // The 2,000th code unit is the first half of 😀: a cut there left a lone surrogate, which is
    // not Unicode, in the message a program and a model read.
    const result = unwrapToolResult({
      isError: true,
      content: [text(`${"a".repeat(1999)}\u{1F600}${"b".repeat(100)}`)],
    });
    expect(!result.ok && result.message).toBe(`${"a".repeat(1999)}... (cut at 2000 characters)`);
    // encodeURIComponent refuses a lone surrogate.
    expect(() => encodeURIComponent(result.ok ? "" : result.message)).not.toThrow();
  });

  it("2. structuredContent wins over the text beside it", () => {
    expect(
      unwrapToolResult({ structuredContent: { rows: [1, 2] }, content: [text('{"rows": "text"}')] }),
    ).toEqual({
      ok: true,
      value: { rows: [1, 2] },
    });
  });

  it("3. no content: nil", () => {
    expect(unwrapToolResult({ content: [] })).toEqual({ ok: true, value: null });
    expect(unwrapToolResult({})).toEqual({ ok: true, value: null });
  });

  it("4. one text item: its JSON when it parses, else the string", () => {
    expect(unwrapToolResult({ content: [text('[{"id": 1}]')] })).toEqual({ ok: true, value: [{ id: 1 }] });
    expect(unwrapToolResult({ content: [text(" 42\n")] })).toEqual({ ok: true, value: 42 });
    expect(unwrapToolResult({ content: [text("hello")] })).toEqual({ ok: true, value: "hello" });
    expect(unwrapToolResult({ content: [text("")] })).toEqual({ ok: true, value: "" });
  });

  it("4. several text items: a vector of their values", () => {
    expect(unwrapToolResult({ content: [text('{"a": 1}'), text("plain")] })).toEqual({
      ok: true,
      value: [{ a: 1 }, "plain"],
    });
  });

  it("5. images, audio, resources and links: a map with a vector per kind", () => {
    const result = unwrapToolResult({
      content: [
        text("caption"),
        { type: "image", mimeType: "image/png", data: "iVBOR", annotations: { priority: 1 } },
        { type: "audio", mimeType: "audio/wav", data: "UklG" },
        { type: "resource", resource: { uri: "file:///a.txt", mimeType: "text/plain", text: "A" } },
        { type: "resource", resource: { uri: "file:///b.bin", blob: "AAAA" } },
        { type: "resource_link", uri: "file:///c", name: "c", description: "the c file" },
        { type: "widget", payload: 1 },
      ],
    });
    expect(result).toEqual({
      ok: true,
      value: {
        text: ["caption"],
        images: [{ mimeType: "image/png", data: "iVBOR" }],
        audio: [{ mimeType: "audio/wav", data: "UklG" }],
        resources: [
          { uri: "file:///a.txt", mimeType: "text/plain", text: "A" },
          { uri: "file:///b.bin", blob: "AAAA" },
        ],
        links: [{ uri: "file:///c", name: "c", description: "the c file" }],
        other: [{ type: "widget", payload: 1 }],
      },
    });
  });

  it("raw: the envelope itself, without _meta", () => {
    expect(
      unwrapToolResult({ content: [text("1")], structuredContent: { n: 1 }, _meta: { x: 1 } } as never, {
        raw: true,
      }),
    ).toEqual({ ok: true, value: { content: [text("1")], structuredContent: { n: 1 } } });
  });
});
