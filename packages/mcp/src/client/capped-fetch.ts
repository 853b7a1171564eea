/**
 * The `fetch` a Streamable HTTP connection uses: the JSON body of each answer to a POST (the
 * answer to one message) is cut at a cap as it streams in. Over stdio a line over the cap is
 * dropped before it is decoded; over HTTP the SDK read the whole body first, so a server that kept
 * sending held the host's memory for as long as the call's timeout allowed, then failed the call
 * as timed out.
 *
 * Only JSON bodies are capped: an event stream (the answer to a GET, or to a POST whose tool
 * reports progress as it goes) carries many messages whose bytes add up over its life, and a cap
 * on the total would fail a call that merely talks a lot.
 */
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";

/** The body went over the cap; the connection turns it into `PTC_MCP_RESULT_TOO_LARGE`. */
export class AnswerTooLargeError extends Error {
  constructor(readonly bytes: number) {
    super(`the answer is over ${bytes} bytes and was cut off`);
    this.name = "AnswerTooLargeError";
  }
}

/** Statuses whose responses may not carry a body at all. */
const BODYLESS = new Set([101, 204, 205, 304]);

export function cappedFetch(maxBytes: number, base: FetchLike = fetch): FetchLike {
  return async (url, init) => {
    const response = await base(url, init);
    const json = /^application\/json\b/i.test(response.headers.get("content-type") ?? "");
    if (init?.method !== "POST" || !json || response.body === null || BODYLESS.has(response.status)) {
      return response;
    }
    let bytes = 0;
    const body = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          bytes += chunk.byteLength;
          // Erroring the stream also cancels the response underneath, so the server is hung up on.
          if (bytes > maxBytes) controller.error(new AnswerTooLargeError(bytes));
          else controller.enqueue(chunk);
        },
      }),
    );
    return new Response(body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}
