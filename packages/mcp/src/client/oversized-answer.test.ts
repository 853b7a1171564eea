import { describe, expect, it } from "vitest";
import { classifyOversizedLine } from "./oversized-answer.js";

const filler = `"content":[{"type":"text","text":"${"x".repeat(50)}"}]`;

describe("whose answer an oversized line is", () => {
  it("reads the id at the start, as hand-written servers write it", () => {
    expect(classifyOversizedLine(`{"jsonrpc":"2.0","id":7,"result":{${filler}`, "")).toEqual({
      kind: "answer",
      id: 7,
    });
    expect(classifyOversizedLine(`{"id":"req-1","jsonrpc":"2.0","result":{`, "")).toEqual({
      kind: "answer",
      id: "req-1",
    });
  });

  it("reads the id at the end, as servers built on the SDK write it", () => {
    expect(classifyOversizedLine(`{"result":{${filler}`, `${filler}}},"jsonrpc":"2.0","id":12}`)).toEqual({
      kind: "answer",
      id: 12,
    });
    expect(classifyOversizedLine(`{"result":{`, `"x"}]},"id":12,"jsonrpc":"2.0"}\r`)).toEqual({
      kind: "answer",
      id: 12,
    });
  });

  it("does not take an id from inside the result", () => {
    expect(classifyOversizedLine(`{"result":{"structuredContent":{"id":3,`, "")).toEqual({ kind: "unknown" });
    expect(classifyOversizedLine(`{"result":{`, `{"id":3}}`)).toEqual({ kind: "unknown" });
    expect(classifyOversizedLine(`{"result":{`, `"text":"\\"id\\":3}"}]}}`)).toEqual({ kind: "unknown" });
  });

  it("knows a request or notification from the server is no answer", () => {
    expect(classifyOversizedLine(`{"method":"notifications/message","params":{`, "")).toEqual({
      kind: "not-an-answer",
    });
    expect(classifyOversizedLine(`{"jsonrpc":"2.0","method":"sampling/createMessage","id":4`, "")).toEqual({
      kind: "not-an-answer",
    });
  });
});
