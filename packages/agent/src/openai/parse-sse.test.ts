import { describe, expect, it } from "vitest";
import { parseSse, type ServerSentEvent } from "./parse-sse.js";

/** A body that delivers exactly these byte chunks, in order. */
function body(chunks: readonly (string | Uint8Array)[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks)
        controller.enqueue(typeof chunk === "string" ? encoder.encode(chunk) : chunk);
      controller.close();
    },
  });
}

async function events(chunks: readonly (string | Uint8Array)[]): Promise<ServerSentEvent[]> {
  const result: ServerSentEvent[] = [];
  for await (const event of parseSse(body(chunks))) result.push(event);
  return result;
}

const message = (data: string): ServerSentEvent => ({ event: "message", data });

describe("parseSse", () => {
  it("yields one event per blank-line-terminated block, however the bytes are chunked", async () => {
    const stream = 'data: {"a":1}\n\ndata: {"b":2}\n\n';
    const expected = [message('{"a":1}'), message('{"b":2}')];
    expect(await events([stream])).toEqual(expected);
    expect(await events(Array.from(stream))).toEqual(expected);
  });

  it("accepts CRLF and CR line ends, including a CRLF split between chunks", async () => {
    expect(await events(["data: one\r\n\r\ndata: two\r\r"])).toEqual([message("one"), message("two")]);
    // Read as CR then LF, the split would end the event after its first data line.
    expect(await events(["data: one\r", "\ndata: two\r\n\r\n"])).toEqual([message("one\ntwo")]);
  });

  it("reads CR, LF, LF over three chunks as a CRLF and then a blank line", async () => {
    // The LF that completes a split CRLF is swallowed once, not again for the next chunk.
    expect(await events(["data: one\r", "\n", "\ndata: two\n\n"])).toEqual([message("one"), message("two")]);
  });

  it("joins a line that spans many chunks", async () => {
    const long = "x".repeat(10_000);
    expect(await events(["data: ", ...Array.from(long), "\n\n"])).toEqual([message(long)]);
  });

  it("fails past maxBytes and cancels the body", async () => {
    let cancelled = false;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(new Uint8Array(1024).fill(97));
      },
      cancel() {
        cancelled = true;
      },
    });
    const reading = (async () => {
      for await (const _event of parseSse(endless, 10_000)) {
        // No line ever ends.
      }
    })();
    await expect(reading).rejects.toThrow("larger than maxResponseBytes (10000 bytes)");
    expect(cancelled).toBe(true);
  });

  it("skips comment lines and ignores fields other than data and event", async () => {
    expect(await events([": ping\n\nid: 7\nretry: 10\ndata: x\n\n"])).toEqual([message("x")]);
  });

  it("joins multi-line data with newlines and reads the event name", async () => {
    expect(await events(["event: error\ndata: first\ndata:second\n\n"])).toEqual([
      { event: "error", data: "first\nsecond" },
    ]);
  });

  it("yields a final event the server did not terminate with a blank line", async () => {
    expect(await events(["data: a\n\ndata: [DONE]"])).toEqual([message("a"), message("[DONE]")]);
  });

  it("decodes a multi-byte character split between chunks", async () => {
    const bytes = new TextEncoder().encode("data: é\n\n");
    expect(await events([bytes.slice(0, 7), bytes.slice(7)])).toEqual([message("é")]);
  });

  it("cancels the body when the caller stops early", async () => {
    let cancelled = false;
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode("data: a\n\n"));
      },
      cancel() {
        cancelled = true;
      },
    });
    for await (const event of parseSse(stream)) {
      expect(event).toEqual(message("a"));
      break;
    }
    expect(cancelled).toBe(true);
  });
});
