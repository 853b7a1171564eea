/**
 * Reads a response body as text, stopping at a byte limit instead of taking whatever the server
 * sends (`response.text()` has no limit). Past the limit it either fails (a completion that large
 * is not one) or keeps what it read (an error page, whose start says what went wrong). Either way
 * the body is cancelled, which frees the connection.
 */
import { responseTooLarge } from "./response-limit.js";

export interface BodyLimit {
  readonly maxBytes: number;
  /** `fail`: reject with `responseTooLarge`; `keep`: resolve with the text of the first bytes. */
  readonly past: "fail" | "keep";
  /** Maps a failure to read (abort, timeout, dropped connection). */
  readonly guard: <T>(step: Promise<T>) => Promise<T>;
}

export async function readBodyText(response: Response, limit: BodyLimit): Promise<string> {
  if (response.body === null) return "";
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  // `stream: true` keeps a character whose bytes two chunks split whole.
  const pieces: string[] = [];
  let received = 0;
  try {
    while (true) {
      const { done, value } = await limit.guard(reader.read());
      if (done) break;
      const room = limit.maxBytes - received;
      received += value.byteLength;
      if (value.byteLength > room) {
        if (limit.past === "fail") throw responseTooLarge(limit.maxBytes);
        pieces.push(decoder.decode(value.subarray(0, room), { stream: true }));
        break;
      }
      pieces.push(decoder.decode(value, { stream: true }));
    }
    pieces.push(decoder.decode());
    return pieces.join("");
  } finally {
    // Not awaited: after an abort the read may never settle. A body read to its end ignores it.
    reader.cancel().catch(() => {});
  }
}
