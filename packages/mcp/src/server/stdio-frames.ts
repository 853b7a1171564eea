/**
 * The lines a stdio client sends, held to a cap before the SDK's transport reads them.
 *
 * The SDK's `StdioServerTransport` buffers a line until its newline and, past 10 MiB, closes
 * itself: one oversized message (a large `context`) ended `ptc-mcp` without a word, where the
 * same call over HTTP is refused and the server goes on. Here a line longer than the cap is
 * dropped as it streams in (so it costs at most the cap in memory), the owner is told so it can
 * answer with a parse error, and the lines after it reach the transport as if nothing happened.
 * Only whole lines are passed on, so the transport's own buffer never holds more than one line.
 */
import { PassThrough, type Readable } from "node:stream";

const NEWLINE = Buffer.from("\n");

export interface LimitedFrames {
  /** The input's lines, each whole, none over the cap. */
  readonly frames: Readable;
  /** Stops reading the input (and pauses it when no one else reads it), as the SDK's close did. */
  stop(): void;
}

export function limitFrames(input: Readable, maxFrameBytes: number, onOversized: () => void): LimitedFrames {
  const output = new PassThrough();
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let skipping = false;
  const read = (chunk: Buffer | string) => {
    const bytes = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
    let start = 0;
    for (;;) {
      const newline = bytes.indexOf(0x0a, start);
      if (!skipping) {
        const piece = bytes.subarray(start, newline === -1 ? bytes.length : newline);
        pending.push(piece);
        pendingBytes += piece.length;
        if (pendingBytes > maxFrameBytes) {
          skipping = true;
          onOversized();
          pending = [];
          pendingBytes = 0;
        }
      }
      if (newline === -1) return;
      // A blank line is no message and gets no answer (the SDK would call it bad JSON).
      if (!skipping && pending.some((piece) => piece.some((byte) => byte > 0x20))) {
        output.write(Buffer.concat([...pending, NEWLINE]));
      }
      skipping = false;
      pending = [];
      pendingBytes = 0;
      start = newline + 1;
    }
  };
  const end = () => output.end();
  const fail = (error: Error) => output.destroy(error);
  input.on("data", read);
  input.on("end", end);
  input.on("error", fail);
  return {
    frames: output,
    stop() {
      input.off("data", read);
      input.off("end", end);
      input.off("error", fail);
      if (input.listenerCount("data") === 0) input.pause();
    },
  };
}
