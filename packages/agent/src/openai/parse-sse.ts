/**
 * A server-sent events reader for a fetch body: yields each event's `event` name and joined
 * `data` as it completes, whatever the network's chunking. Follows the WHATWG event-stream rules
 * that Chat Completions streams use: LF, CRLF or CR line ends, `:` comment lines, multi-line data.
 * It never interprets the data; `[DONE]` and JSON are the caller's business.
 *
 * Each chunk is scanned once: a line that spans many chunks waits as a list of pieces joined when
 * it ends. (Appending each chunk to one buffer and scanning the buffer again would be quadratic in
 * the length of a line, and a server can send a line of any length.) The bytes read are counted,
 * and past `maxBytes` the stream fails with `responseTooLarge`.
 */
import { responseTooLarge } from "./response-limit.js";

export interface ServerSentEvent {
  /** The `event:` field, `"message"` when absent. */
  readonly event: string;
  readonly data: string;
}

export async function* parseSse(
  body: ReadableStream<Uint8Array>,
  maxBytes: number = Number.POSITIVE_INFINITY,
): AsyncGenerator<ServerSentEvent, void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const lines = createEventBuilder();
  const unfinished: string[] = [];
  // A chunk that ended with CR: an LF opening the next one is the second half of a CRLF.
  let afterCarriageReturn = false;
  let received = 0;
  try {
    while (true) {
      const { done, value } = await reader.read();
      if (!done) {
        received += value.byteLength;
        if (received > maxBytes) throw responseTooLarge(maxBytes);
      }
      let text = done ? decoder.decode() : decoder.decode(value, { stream: true });
      if (afterCarriageReturn && text.startsWith("\n")) {
        text = text.slice(1);
        afterCarriageReturn = false;
      }
      if (text !== "") afterCarriageReturn = text.endsWith("\r");
      const lineEnd = /\r\n|\r|\n/g;
      let start = 0;
      for (let match = lineEnd.exec(text); match !== null; match = lineEnd.exec(text)) {
        unfinished.push(text.slice(start, match.index));
        const event = lines.push(unfinished.join(""));
        unfinished.length = 0;
        start = match.index + match[0].length;
        if (event !== undefined) yield event;
      }
      if (start < text.length) unfinished.push(text.slice(start));
      if (done) {
        // Lenient on purpose: some servers close the stream without the final blank line.
        if (unfinished.length > 0) lines.push(unfinished.join(""));
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
