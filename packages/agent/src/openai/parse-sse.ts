/**
 * A server-sent events reader for a fetch body: yields each event's `event` name and joined
 * `data` as it completes, whatever the network's chunking. Follows the WHATWG event-stream rules
 * that Chat Completions streams use: LF, CRLF or CR line ends, `:` comment lines, multi-line data.
 * It never interprets the data; `[DONE]` and JSON are the caller's business.
 */

export interface ServerSentEvent {
  /** The `event:` field, `"message"` when absent. */
  readonly event: string;
  readonly data: string;
}

export async function* parseSse(body: ReadableStream<Uint8Array>): AsyncGenerator<ServerSentEvent, void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const lines = createEventBuilder();
  let buffer = "";
  try {
    while (true) {
      const { done, value } = await reader.read();
      buffer += done ? decoder.decode() : decoder.decode(value, { stream: true });
      const lineEnd = /\r\n|\r|\n/g;
      let start = 0;
      for (let match = lineEnd.exec(buffer); match !== null; match = lineEnd.exec(buffer)) {
        // A CR at the very end may be the first half of a CRLF split across two chunks.
        if (match[0] === "\r" && match.index === buffer.length - 1 && !done) break;
        const event = lines.push(buffer.slice(start, match.index));
        start = match.index + match[0].length;
        if (event !== undefined) yield event;
      }
      buffer = buffer.slice(start);
      if (done) {
        // Lenient on purpose: some servers close the stream without the final blank line.
        if (buffer !== "") lines.push(buffer);
        const last = lines.push("");
        if (last !== undefined) yield last;
        return;
      }
    }
  } finally {
    // Frees the connection when the caller stops early (`[DONE]`, an error, a thrown callback).
    reader.cancel().catch(() => {});
  }
}

/** Accumulates the fields of one event; a blank line completes it. */
function createEventBuilder() {
  let event = "";
  let data: string[] = [];
  return {
    push(line: string): ServerSentEvent | undefined {
      if (line === "") {
        const complete = data.length === 0 ? undefined : { event: event || "message", data: data.join("\n") };
        event = "";
        data = [];
        return complete;
      }
      if (line.startsWith(":")) return undefined;
      const colon = line.indexOf(":");
      const field = colon === -1 ? line : line.slice(0, colon);
      let value = colon === -1 ? "" : line.slice(colon + 1);
      if (value.startsWith(" ")) value = value.slice(1);
      if (field === "data") data.push(value);
      else if (field === "event") event = value;
      return undefined;
    },
  };
}
