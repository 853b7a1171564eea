/**
 * Serves one client over stdio: MCP messages on `stdout`, one per line, and nothing else there.
 * Resolves when the client goes away (end of `stdin`) or the connection closes.
 */
import type { Readable, Writable } from "node:stream";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { ClientConnection, PtcMcpServer } from "./create-server.js";
import { limitFrames } from "./stdio-frames.js";

/** The longest line taken as a message, in bytes: the HTTP body cap (and the reference's frame cap). */
export const MAX_STDIO_FRAME_BYTES = 8 * 1024 * 1024;

export interface StdioServing {
  readonly connection: ClientConnection;
  /** Resolves once the client is gone (its stdin ended) or the connection closed. */
  readonly closed: Promise<void>;
}

export async function serveStdio(
  server: PtcMcpServer,
  streams: { readonly stdin?: Readable; readonly stdout?: Writable } = {},
): Promise<StdioServing> {
  const stdin = streams.stdin ?? process.stdin;
  const stdout = streams.stdout ?? process.stdout;
  // A line over the cap is answered as JSON-RPC answers text it cannot parse (id null).
  const limited = limitFrames(stdin, MAX_STDIO_FRAME_BYTES, () => {
    const error = {
      code: -32700,
      message: `Parse error: a message over ${MAX_STDIO_FRAME_BYTES} bytes was dropped; send less, or let the program fetch its data with a tool`,
    };
    stdout.write(`${JSON.stringify({ jsonrpc: "2.0", id: null, error })}\n`);
  });
  // Every line it passes on is under the SDK's own 10 MiB buffer cap, which would close it.
  const transport = new StdioServerTransport(limited.frames, stdout);
  const connection = await server.connect(transport);
  // The SDK's transport reports a line it cannot read to onerror and answers nothing, so a client
  // that garbled a request waits for its answer forever. JSON-RPC answers such a line with id null:
  // -32700 for text that is not JSON, -32600 for JSON that is not a message (a batch included).
  const reportError = transport.onerror;
  transport.onerror = (error: Error) => {
    const code =
      error instanceof SyntaxError
        ? -32700
        : Array.isArray((error as { issues?: unknown }).issues)
          ? -32600
          : undefined;
    if (code !== undefined) {
      const message =
        code === -32700
          ? "Parse error: the line is not JSON"
          : "Invalid Request: the line is JSON but not one JSON-RPC message";
      stdout.write(`${JSON.stringify({ jsonrpc: "2.0", id: null, error: { code, message } })}\n`);
    }
    reportError?.(error);
  };
  const closed = new Promise<void>((resolve) => {
    const previous = transport.onclose;
    transport.onclose = () => {
      limited.stop();
      previous?.();
      resolve();
    };
    stdin.once("end", () => {
      connection.close().finally(resolve);
    });
  });
  return { connection, closed };
}
