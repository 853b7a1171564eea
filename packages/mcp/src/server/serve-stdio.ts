/**
 * Serves one client over stdio: MCP messages on `stdout`, one per line, and nothing else there.
 * Resolves when the client goes away (end of `stdin`) or the connection closes.
 */
import type { Readable, Writable } from "node:stream";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { ClientConnection, PtcMcpServer } from "./create-server.js";

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
  const transport = new StdioServerTransport(stdin, stdout);
  const connection = await server.connect(transport);
  const closed = new Promise<void>((resolve) => {
    const previous = transport.onclose;
    transport.onclose = () => {
      previous?.();
      resolve();
    };
    stdin.once("end", () => {
      connection.close().finally(resolve);
    });
  });
  return { connection, closed };
}
