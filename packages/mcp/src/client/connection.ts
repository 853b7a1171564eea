/**
 * A live connection to one MCP server, and its tools as `@ptc/tool` tools.
 *
 * The connection owns everything that can go wrong between a call and its answer: the per-call
 * timeout and the caller's abort (both cancel the call on the server), the bound on calls in
 * flight, the cap on a result's size, a server that exits mid-call or writes garbage, and the
 * refresh of the tool list when the server says it changed. Every such fault becomes a
 * `PtcMcpError` thrown from the tool's `execute`, with a message that says what happened and
 * what to do; it never takes the host down, and other servers never notice.
 *
 * A server that exits is started again by the next call. `close()` ends the server process (and
 * its process group) and fails the calls still in flight.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  ErrorCode,
  McpError as SdkMcpError,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import type { ToolExecutionOptions } from "@ptc/tool";
import { type McpErrorCode, PtcMcpError } from "../errors.js";
import { prepareForPatterns } from "../linear-regexp.js";
import { PACKAGE_VERSION } from "../version.js";
import { subscribeAbort } from "./abort-fanout.js";
import { type CallLimiter, createCallLimiter } from "./call-limiter.js";
import { AnswerTooLargeError, cappedFetch } from "./capped-fetch.js";
import { createMcpTool, type ListedTool, type McpTool, type McpToolOrigin } from "./mcp-tool.js";
import { createOutputValidator } from "./output-validator.js";
import { ANSWER_TOO_LARGE_CODE } from "./oversized-answer.js";
import { type ToolResultEnvelope, unwrapToolResult } from "./result-rule.js";
import {
  checkServerName,
  type HttpServerConfig,
  isHttpServerConfig,
  type McpServerConfig,
  type McpServerSettings,
  parseServerConfig,
  type StdioServerConfig,
} from "./server-config.js";
import { StdioTransport } from "./stdio-transport.js";
import { ptcToolNames } from "./tool-names.js";

export const DEFAULT_CALL_TIMEOUT_MS = 60_000;
export const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;
export const DEFAULT_MAX_CONCURRENCY = 4;
export const DEFAULT_MAX_RESULT_BYTES = 2 * 1024 * 1024;
/** Tool list pages read at most; a server that keeps handing out cursors is cut off here. */
const MAX_LIST_PAGES = 100;
const MAX_RESTART_BACKOFF_MS = 30_000;

export interface ConnectOptions {
  /** Overrides the config's `ptc` settings, key by key. */
  readonly settings?: McpServerSettings;
  /** Settings for what neither the config's `ptc` nor `settings` says (a host's defaults). */
  readonly defaults?: McpServerSettings;
  /** Each line a stdio server writes on stderr (default: kept for error messages only). */
  readonly onStderrLine?: (line: string) => void;
  /** Called after the tool list changed (`notifications/tools/list_changed`, or a restart). */
  readonly onToolsChanged?: (tools: Readonly<Record<string, McpTool>>) => void;
}

export interface McpServerInfo {
  readonly name: string;
  readonly version: string;
  readonly instructions: string | undefined;
}

export interface McpConnection {
  /** The server's name in the host's config: the tools' default prefix. */
  readonly name: string;
  /** The server's tools by PTC name (`<server>__<tool>`); replaced when the server's list changes. */
  readonly tools: Readonly<Record<string, McpTool>>;
  /** What the server said about itself in the handshake. */
  readonly serverInfo: McpServerInfo;
  /** The server process while one runs (stdio servers only). */
  readonly pid: number | undefined;
  /** Lists the tools again (every page) and replaces `tools`. */
  refreshTools(): Promise<Readonly<Record<string, McpTool>>>;
  /** Calls `listener` after each change of `tools`; returns a function that stops it. */
  onToolsChanged(listener: (tools: Readonly<Record<string, McpTool>>) => void): () => void;
  /** Ends the server and fails calls still in flight. Safe to call more than once. */
  close(): Promise<void>;
}

interface Session {
  readonly client: Client;
  readonly transport: Transport;
  ended: boolean;
}

interface InFlight {
  readonly controller: AbortController;
  readonly tool: string;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

class Connection implements McpConnection {
  tools: Readonly<Record<string, McpTool>> = {};
  serverInfo: McpServerInfo = { name: "", version: "", instructions: undefined };
  private session: Session | undefined;
  private starting: Promise<Session> | undefined;
  private closed = false;
  private failedStarts = 0;
  private restartNotBefore = 0;
  private lastEnd: string | undefined;
  /** A tools/list_changed reading is running; another notice came since it started. */
  private relisting = false;
  private listChangedAgain = false;
  private readonly inFlight = new Set<InFlight>();
  private readonly listeners = new Set<(tools: Readonly<Record<string, McpTool>>) => void>();
  private readonly limiter: CallLimiter;
  private readonly settings: McpServerSettings;

  constructor(
    readonly name: string,
    private readonly config: StdioServerConfig | HttpServerConfig,
    settings: McpServerSettings,
    private readonly options: ConnectOptions,
  ) {
    this.settings = settings;
    this.limiter = createCallLimiter(settings.maxConcurrency ?? DEFAULT_MAX_CONCURRENCY);
    if (options.onToolsChanged !== undefined) this.listeners.add(options.onToolsChanged);
  }

  get pid(): number | undefined {
    const transport = this.session?.transport;
    return transport instanceof StdioTransport && !this.session?.ended ? transport.pid : undefined;
  }

  private get maxResultBytes(): number {
    return this.settings.maxResultBytes ?? DEFAULT_MAX_RESULT_BYTES;
  }

  private describeServer(): string {
    return isHttpServerConfig(this.config)
      ? this.config.url
      : [this.config.command, ...(this.config.args ?? [])].join(" ");
  }

  private createTransport(): Transport {
    if (isHttpServerConfig(this.config)) {
      return new StreamableHTTPClientTransport(new URL(this.config.url), {
        requestInit: { headers: { ...this.config.headers } },
        // As over stdio: the whole answer, its envelope included, within the cap plus some room.
        fetch: cappedFetch(this.maxResultBytes + 64 * 1024),
      });
    }
    return new StdioTransport(this.config, {
      // The whole answer travels on one line: a line over the cap is a result over the cap.
      maxLineBytes: this.maxResultBytes + 64 * 1024,
      ...(this.options.onStderrLine === undefined ? {} : { onStderrLine: this.options.onStderrLine }),
      onOversizedLine: (bytes) => this.failOldestCall(bytes),
    });
  }

  /** A stdio answer over the cap whose id could not be found (see oversized-answer.ts): the oldest call pays. */
  private failOldestCall(bytes: number): void {
    const oldest = this.inFlight.values().next().value;
    oldest?.controller.abort(
      new PtcMcpError(
        "PTC_MCP_RESULT_TOO_LARGE",
        `${this.name}: tool "${oldest.tool}" answered with more than ${bytes} bytes, over the cap of ${this.maxResultBytes} bytes; ask for less (a filter, a smaller page) or raise maxResultBytes`,
        { details: { server: this.name, tool: oldest.tool, bytes, maxResultBytes: this.maxResultBytes } },
      ),
    );
  }

  /** Why the last session ended, for messages: exit code, signal, stderr, stray stdout. */
  private endDescription(transport: Transport): string {
    if (!(transport instanceof StdioTransport)) return "the server closed the connection";
    const parts: string[] = [];
    const exit = transport.exit;
    if (exit === undefined) parts.push("the server closed the connection");
    else if (exit.signal !== null) parts.push(`the server process was killed by ${exit.signal}`);
    else parts.push(`the server process exited with code ${exit.code}`);
    const stderr = transport.stderrTail.slice(-5).join("\n").trim();
    if (stderr !== "") parts.push(`its last stderr lines:\n${stderr}`);
    return parts.join("; ");
  }

  private strayOutputNote(transport: Transport): string {
    if (!(transport instanceof StdioTransport) || transport.nonProtocolCount === 0) return "";
    return ` The server also wrote ${transport.nonProtocolCount} line(s) on stdout that are not MCP messages (first: ${JSON.stringify(transport.nonProtocolLines[0])}); an MCP server must write only JSON-RPC messages on stdout and its logs on stderr.`;
  }

  async start(): Promise<void> {
    await this.ensureSession();
    try {
      await this.refreshTools();
    } catch (error) {
      // A server whose tools cannot be listed has not come up, whatever the handshake said.
      const failure = error instanceof PtcMcpError ? error : this.listingError(error, 0);
      throw new PtcMcpError("PTC_MCP_UNAVAILABLE", failure.message, {
        details: { server: this.name },
        cause: failure,
      });
    }
  }

  private ensureSession(): Promise<Session> {
    if (this.closed) {
      return Promise.reject(
        new PtcMcpError(
          "PTC_MCP_CLOSED",
          `${this.name}: the connection was closed; connect again to call its tools`,
        ),
      );
    }
    if (this.session !== undefined && !this.session.ended) return Promise.resolve(this.session);
    if (this.starting !== undefined) return this.starting;
    const wait = this.restartNotBefore - Date.now();
    if (wait > 0) {
      return Promise.reject(
        new PtcMcpError(
          "PTC_MCP_UNAVAILABLE",
          `${this.name}: the server failed to start ${this.failedStarts} time(s) in a row (${this.lastEnd ?? "no reason given"}); it is tried again in ${Math.ceil(wait / 1000)} s`,
          { details: { server: this.name, retryInMs: wait } },
        ),
      );
    }
    const restart = this.session !== undefined;
    this.starting = this.startSession().finally(() => {
      this.starting = undefined;
    });
    // A server started again may list other tools than before; the call goes on meanwhile.
    if (restart) this.starting.then(() => this.refreshTools()).catch(() => undefined);
    return this.starting;
  }

  private async startSession(): Promise<Session> {
    const transport = this.createTransport();
    const client = new Client(
      { name: "ptc-mcp", version: PACKAGE_VERSION },
      { capabilities: {}, jsonSchemaValidator: createOutputValidator() },
    );
    const session: Session = { client, transport, ended: false };
    client.onclose = () => {
      session.ended = true;
      this.lastEnd = this.endDescription(transport);
    };
    client.onerror = () => {
      // Transport hiccups surface as failed calls, with their own messages.
    };
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      if (this.session === session) this.listChanged(session);
    });
    try {
      await client.connect(transport, {
        timeout: this.settings.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
      });
    } catch (error) {
      session.ended = true;
      await transport.close().catch(() => undefined);
      const reason =
        error instanceof PtcMcpError
          ? error.message
          : error instanceof SdkMcpError && error.code === ErrorCode.RequestTimeout
            ? `no answer to the MCP handshake within ${this.settings.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS} ms`
            : error instanceof SdkMcpError && error.code === ErrorCode.ConnectionClosed
              ? this.endDescription(transport)
              : errorText(error);
      this.failedStarts++;
      const backoff = Math.min(1000 * 2 ** (this.failedStarts - 1), MAX_RESTART_BACKOFF_MS);
      this.restartNotBefore = Date.now() + backoff;
      this.lastEnd = reason;
      throw new PtcMcpError(
        "PTC_MCP_UNAVAILABLE",
        `${this.name}: could not start the MCP server (${this.describeServer()}): ${reason}.${this.strayOutputNote(transport)}`,
        { details: { server: this.name }, cause: error },
      );
    }
    this.failedStarts = 0;
    this.restartNotBefore = 0;
    const version = client.getServerVersion();
    this.serverInfo = {
      name: version?.name ?? this.name,
      version: version?.version ?? "",
      instructions: client.getInstructions(),
    };
    this.session = session;
    return session;
  }

  async refreshTools(): Promise<Readonly<Record<string, McpTool>>> {
    const session = await this.ensureSession();
    const listed: ListedTool[] = [];
    let cursor: string | undefined;
    // Listing is part of reaching the server: it gets the handshake's time, not the SDK's 60 s.
    const timeoutMs = this.settings.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
    for (let page = 0; page < MAX_LIST_PAGES; page++) {
      let result: Awaited<ReturnType<Client["listTools"]>>;
      try {
        result = await session.client.listTools(cursor === undefined ? {} : { cursor }, {
          timeout: timeoutMs,
        });
      } catch (error) {
        throw this.listingError(error, timeoutMs, session);
      }
      listed.push(...(result.tools as ListedTool[]));
      cursor = result.nextCursor;
      if (cursor === undefined) break;
    }
    // The SDK checks a tool's structured content against its output schema from a cache that
    // each listTools() call replaces, so after a paged list only the last page's tools were
    // checked. The method is private to the SDK's types, not to its code: hand it every page.
    // (Should an SDK drop it, the test of a paged list with output schemas says so.)
    // RE2 is loaded now if any schema needs it (see linear-regexp.ts): the SDK compiled a schema
    // with a pattern lazily while it read the pages, and the input schemas are compiled below.
    await prepareForPatterns(...listed.flatMap((tool) => [tool.inputSchema, tool.outputSchema]));
    try {
      (
        session.client as unknown as { cacheToolMetadata?: (tools: ListedTool[]) => void }
      ).cacheToolMetadata?.(listed);
    } catch (error) {
      // An output schema that does not compile fails the list, as in the SDK's own listTools().
      throw this.listingError(error, timeoutMs, session);
    }
    const prefix = this.settings.prefix ?? `${this.name}__`;
    const names = ptcToolNames(
      prefix,
      listed.map((tool) => tool.name),
    );
    const tools: Record<string, McpTool> = {};
    for (const entry of listed) {
      const name = names.get(entry.name) as string;
      // The first listing of a name wins; a later one is the same tool listed again.
      if (Object.hasOwn(tools, name)) continue;
      tools[name] = createMcpTool(name, entry, this.name, this.settings, (origin, args, options) =>
        this.call(origin, args, options),
      );
    }
    this.tools = tools;
    for (const listener of this.listeners) listener(tools);
    return tools;
  }

  /**
   * Why `tools/list` failed, as a PtcMcpError. The SDK checks the answer against MCP's schema and
   * rejects with the raw validation error (a JSON dump of issues); its paths say which tool is
   * wrong, so they are kept, one line each.
   */
  private listingError(error: unknown, timeoutMs: number, session?: Session): PtcMcpError {
    const details = { server: this.name };
    const issues = (error as { issues?: unknown } | null)?.issues;
    if (Array.isArray(issues)) {
      const described = issues
        .slice(0, 5)
        .map((issue: { path?: unknown[]; message?: string }) => {
          const path = Array.isArray(issue.path) ? issue.path.join(".") : "";
          return `${path === "" ? "(the answer)" : path}: ${issue.message ?? "invalid"}`;
        })
        .join("; ");
      return new PtcMcpError(
        "PTC_MCP_PROTOCOL_ERROR",
        `${this.name}: the server's tools/list answer is not valid MCP (${described}${issues.length > 5 ? `; and ${issues.length - 5} more` : ""}); the server must be fixed, or left out of the config`,
        { details, cause: error },
      );
    }
    if (error instanceof SdkMcpError && error.code === ErrorCode.RequestTimeout) {
      return new PtcMcpError(
        "PTC_MCP_TIMEOUT",
        `${this.name}: no answer to tools/list within ${timeoutMs} ms; raise connectTimeoutMs if the server is slow to list its tools.${session === undefined ? "" : this.strayOutputNote(session.transport)}`,
        { details: { ...details, timeoutMs }, cause: error },
      );
    }
    if (
      session !== undefined &&
      (session.ended || (error instanceof SdkMcpError && error.code === ErrorCode.ConnectionClosed))
    ) {
      return new PtcMcpError(
        "PTC_MCP_CONNECTION_CLOSED",
        `${this.name}: the tools could not be listed: ${this.endDescription(session.transport)}`,
        { details, cause: error },
      );
    }
    return new PtcMcpError("PTC_MCP_PROTOCOL_ERROR", `${this.name}: tools/list failed: ${errorText(error)}`, {
      details,
      cause: error,
    });
  }

  /**
   * A `tools/list_changed` notice. Notices that arrive while the list is being read again are
   * one more reading, not one each: a server that sends a burst of them (or a hostile one that
   * never stops) costs one listing at a time, and the host's clients one notice per reading.
   */
  private listChanged(session: Session): void {
    this.listChangedAgain = true;
    if (this.relisting) return;
    this.relisting = true;
    void (async () => {
      try {
        while (this.listChangedAgain && this.session === session && !this.closed) {
          this.listChangedAgain = false;
          await this.refreshTools().catch(() => undefined);
        }
      } finally {
        this.relisting = false;
      }
    })();
  }

  onToolsChanged(listener: (tools: Readonly<Record<string, McpTool>>) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private call(
    origin: McpToolOrigin,
    args: Record<string, unknown>,
    options: ToolExecutionOptions & { readonly timeoutMs: number | undefined },
  ): Promise<unknown> {
    const { signal } = options;
    return this.limiter
      .run(async () => {
        const session = await this.ensureSession();
        const controller = new AbortController();
        const onAbort = () =>
          controller.abort(
            new PtcMcpError(
              "PTC_MCP_ABORTED",
              `${this.name}: the call of tool "${origin.tool}" was aborted (and cancelled on the server)`,
              {
                details: { server: this.name, tool: origin.tool },
              },
            ),
          );
        // Through the fan-out: a host may send many calls at once on one signal.
        let unsubscribe = () => {};
        if (signal?.aborted) onAbort();
        else if (signal !== undefined) unsubscribe = subscribeAbort(signal, onAbort);
        const entry: InFlight = { controller, tool: origin.tool };
        this.inFlight.add(entry);
        const timeoutMs = options.timeoutMs ?? this.settings.timeoutMs ?? DEFAULT_CALL_TIMEOUT_MS;
        try {
          const result = await session.client.callTool({ name: origin.tool, arguments: args }, undefined, {
            signal: controller.signal,
            timeout: timeoutMs,
          });
          const bytes = Buffer.byteLength(JSON.stringify(result));
          if (bytes > this.maxResultBytes) {
            throw new PtcMcpError(
              "PTC_MCP_RESULT_TOO_LARGE",
              `${this.name}: tool "${origin.tool}" answered with ${bytes} bytes, over the cap of ${this.maxResultBytes} bytes; ask for less (a filter, a smaller page) or raise maxResultBytes`,
              {
                details: { server: this.name, tool: origin.tool, bytes, maxResultBytes: this.maxResultBytes },
              },
            );
          }
          const unwrapped = unwrapToolResult(result as ToolResultEnvelope, { raw: origin.raw });
          if (!unwrapped.ok) {
            throw new PtcMcpError("PTC_MCP_TOOL_ERROR", unwrapped.message, {
              details: { server: this.name, tool: origin.tool },
            });
          }
          return unwrapped.value;
        } catch (error) {
          // The SDK turns an abort into a "timeout" error; the reason we aborted with says what happened.
          if (controller.signal.aborted && controller.signal.reason instanceof PtcMcpError) {
            throw controller.signal.reason;
          }
          throw this.explain(error, origin.tool, session, timeoutMs);
        } finally {
          unsubscribe();
          this.inFlight.delete(entry);
        }
      }, signal)
      .catch((error: unknown) => {
        // Aborted while waiting for a turn: never sent, so there is nothing to cancel.
        if (error instanceof PtcMcpError) throw error;
        throw new PtcMcpError(
          "PTC_MCP_ABORTED",
          `${this.name}: the call of tool "${origin.tool}" was aborted before it was sent`,
          {
            details: { server: this.name, tool: origin.tool },
            cause: error,
          },
        );
      });
  }

  private explain(error: unknown, tool: string, session: Session, timeoutMs: number): PtcMcpError {
    if (error instanceof PtcMcpError) return error;
    const details = { server: this.name, tool };
    if (error instanceof AnswerTooLargeError) {
      return new PtcMcpError(
        "PTC_MCP_RESULT_TOO_LARGE",
        `${this.name}: tool "${tool}" answered with more than ${error.bytes} bytes, over the cap of ${this.maxResultBytes} bytes; ask for less (a filter, a smaller page) or raise maxResultBytes`,
        { details: { ...details, bytes: error.bytes, maxResultBytes: this.maxResultBytes }, cause: error },
      );
    }
    if (error instanceof SdkMcpError) {
      if (error.code === ANSWER_TOO_LARGE_CODE) {
        const data = (error.data as { bytes?: unknown } | undefined)?.bytes;
        const bytes = typeof data === "number" ? data : this.maxResultBytes;
        return new PtcMcpError(
          "PTC_MCP_RESULT_TOO_LARGE",
          `${this.name}: tool "${tool}" answered with more than ${bytes} bytes, over the cap of ${this.maxResultBytes} bytes; ask for less (a filter, a smaller page) or raise maxResultBytes`,
          { details: { ...details, bytes, maxResultBytes: this.maxResultBytes }, cause: error },
        );
      }
      if (error.code === ErrorCode.RequestTimeout) {
        return new PtcMcpError(
          "PTC_MCP_TIMEOUT",
          `${this.name}: tool "${tool}" did not answer within ${timeoutMs} ms, so the call was cancelled; retry with less work, or raise timeoutMs for this server.${this.strayOutputNote(session.transport)}`,
          { details: { ...details, timeoutMs }, cause: error },
        );
      }
      if (error.code === ErrorCode.ConnectionClosed || session.ended) {
        const code: McpErrorCode = this.closed ? "PTC_MCP_CLOSED" : "PTC_MCP_CONNECTION_CLOSED";
        const what = this.closed
          ? "the host closed the connection"
          : `${this.endDescription(session.transport)}. The next call starts the server again`;
        return new PtcMcpError(code, `${this.name}: tool "${tool}" did not finish: ${what}`, {
          details,
          cause: error,
        });
      }
      return new PtcMcpError(
        "PTC_MCP_PROTOCOL_ERROR",
        `${this.name}: tool "${tool}" failed with MCP error ${error.code}: ${error.message}`,
        { details: { ...details, mcpCode: error.code }, cause: error },
      );
    }
    if (error instanceof RangeError && /call stack/i.test(error.message)) {
      // JSON.parse reads any depth, but the SDK's checks and the conversion walk it recursively.
      return new PtcMcpError(
        "PTC_MCP_PROTOCOL_ERROR",
        `${this.name}: tool "${tool}" answered with a value nested too deeply to read (deeper than the host's stack); ask it for a flatter answer`,
        { details, cause: error },
      );
    }
    return new PtcMcpError(
      "PTC_MCP_PROTOCOL_ERROR",
      `${this.name}: tool "${tool}" failed: ${errorText(error)}`,
      {
        details,
        cause: error,
      },
    );
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const entry of this.inFlight) {
      entry.controller.abort(
        new PtcMcpError(
          "PTC_MCP_CLOSED",
          `${this.name}: tool "${entry.tool}" did not finish: the host closed the connection`,
          {
            details: { server: this.name, tool: entry.tool },
          },
        ),
      );
    }
    const starting = this.starting;
    if (starting !== undefined) await starting.catch(() => undefined);
    const session = this.session;
    this.session = undefined;
    if (session !== undefined) {
      session.ended = true;
      await session.client.close().catch(() => undefined);
      // The SDK's close may leave the transport to us when the client never finished connecting.
      await session.transport.close().catch(() => undefined);
    }
  }
}

/**
 * Starts (or reaches) one MCP server and lists its tools. Throws `PtcMcpError`
 * (`PTC_MCP_INVALID_CONFIG`, `PTC_MCP_UNAVAILABLE`) when the config is wrong or the server does
 * not come up; the returned connection's tools never throw anything but `PtcMcpError` either.
 */
export async function connectMcpServer(
  name: string,
  config: McpServerConfig,
  options: ConnectOptions = {},
): Promise<McpConnection> {
  checkServerName(name);
  const checked = parseServerConfig(`server "${name}"`, config);
  const { ptc, ...transport } = checked;
  const settings = { ...options.defaults, ...ptc, ...options.settings };
  const connection = new Connection(
    name,
    transport as StdioServerConfig | HttpServerConfig,
    settings,
    options,
  );
  try {
    await connection.start();
  } catch (error) {
    await connection.close();
    throw error;
  }
  return connection;
}
