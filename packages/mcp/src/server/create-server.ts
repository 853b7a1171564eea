/**
 * `ptc-mcp` in code: PTC-Lisp served over MCP. `createPtcMcpServer(options)` holds what all
 * clients share (the tools, the limits, the gate on concurrent evaluations); `connect(transport)`
 * serves one client on one transport, with that client's own tool cache and Lisp sessions.
 *
 * What a client sees:
 * - `lisp_eval` (always): a program, an optional `context` and an optional `output_schema`. Its
 *   description is the PTC-Lisp reference card listing the tools programs can call.
 * - `lisp_session_*` (with `sessions`): `def`s and `*1` that last across calls.
 * - Tools exposed natively (combined mode): listed beside `lisp_eval`, answered with previews
 *   when cached, sharing the cache with programs.
 * - The card as a prompt (`ptc_lisp_reference`) and a resource (`ptc://reference-card`).
 *
 * Nothing here writes to stdout or stderr: the command decides what to log.
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  type CallToolRequest,
  CallToolRequestSchema,
  type CallToolResult,
  GetPromptRequestSchema,
  type Tool as ListedMcpTool,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import type { Limits, Session } from "@ptc/lisp";
import { LISP_EVAL_TOOL_NAME, wellFormedText, wellFormedValue } from "@ptc/protocol";
import type { AnyToolDefinition, Tool } from "@ptc/tool";
import type { McpServerGroup } from "../client/server-group.js";
import { PtcMcpError } from "../errors.js";
import { PACKAGE_VERSION } from "../version.js";
import { createEvaluationGate, type EvaluationGate } from "./evaluation-gate.js";
import { type EvalLimits, evaluateProgram } from "./lisp-eval.js";
import { DEFAULT_SESSION_LIMITS, LispSessionStore, type SessionLimits } from "./lisp-sessions.js";
import { callNativeTool } from "./native-call.js";
import { cachedProgramTools } from "./program-tools.js";
import {
  lispEvalDescription,
  REFERENCE_PROMPT_NAME,
  REFERENCE_RESOURCE_URI,
  referenceCard,
} from "./reference.js";
import { SESSION_TOOL_NAMES, type SessionToolName } from "./session-tool-names.js";
import { callSessionTool, sessionToolDefinitions } from "./session-tools.js";
import { DEFAULT_CACHE_LIMIT_BYTES, SharedToolCache } from "./shared-cache.js";
import type { CatalogMode } from "./tool-catalog.js";
import { unknownToolResult } from "./tool-results.js";
import { buildToolSet, type ToolSet } from "./tool-set.js";

export interface PtcMcpServerOptions {
  /** Host tools programs can call (what `--tools module.mjs` exports). */
  readonly tools?: Readonly<Record<string, AnyToolDefinition | Tool>>;
  /** Upstream MCP servers, connected: their tools join the host tools and follow list changes. */
  readonly upstreams?: McpServerGroup;
  /**
   * Where a tool that declares no `expose` may be called from: `"ptc_lisp"` (programs only, the
   * default) or `"both"` (programs, and natively beside `lisp_eval`: combined mode).
   */
  readonly expose?: "ptc_lisp" | "both";
  /** Offer the `lisp_session_*` tools (`true`, or their limits). Default false. */
  readonly sessions?: boolean | Partial<SessionLimits>;
  /** Program limits per call. Default: 10 s and 100 MB with tools, 1 s and 64 MB without. */
  readonly limits?: Partial<Limits>;
  /** Largest `context`, in bytes of JSON. Default 4 MiB. */
  readonly maxContextBytes?: number;
  /** Evaluations running at once across all clients; more are answered `busy`. Default 4. */
  readonly maxConcurrentEvaluations?: number;
  /** Bytes of results each client's cache keeps (combined mode). Default 64 MiB. */
  readonly cacheLimitBytes?: number;
  /**
   * Declare an output schema on `lisp_eval` and answer with `structuredContent` (the payload as
   * an object) beside the text. Default false: text only, which every client reads.
   */
  readonly structuredContent?: boolean;
  /**
   * How `lisp_eval`'s card describes the tools programs can call: `"full"` descriptions,
   * `"summary"` (signatures and first sentences), `"names"` (names by server), the last two with
   * `describe_tool` for the rest; `"auto"` (the default): full up to 8 tools, summary up to 40,
   * names beyond.
   */
  readonly catalog?: CatalogMode;
  /** The server's name in the MCP handshake. Default "ptc-mcp". */
  readonly name?: string;
}

/** One client's connection to the server. */
export interface ClientConnection {
  /** The SDK server serving this client, for hosts that need more than this package offers. */
  readonly server: Server;
  /** Ends the connection and the client's sessions. */
  close(): Promise<void>;
}

export interface PtcMcpServer {
  /** Serves one client on `transport` (stdio, an HTTP session, an in-memory pair in tests). */
  connect(transport: Transport): Promise<ClientConnection>;
  /** The tools as they are now: every tool, the program-callable ones, the native ones. */
  readonly toolSet: ToolSet;
  /** Ends every client connection. Upstream servers are the caller's to close. */
  close(): Promise<void>;
}

const DEFAULT_MAX_CONTEXT_BYTES = 4 * 1024 * 1024;
const DEFAULT_MAX_CONCURRENT_EVALUATIONS = 4;
/** Programs that call tools wait on them; the reference gives them ten times the time, too. */
const LIMITS_WITH_TOOLS: Partial<Limits> = { timeoutMs: 10_000, maxMemoryBytes: 100_000_000 };
const LIMITS_WITHOUT_TOOLS: Partial<Limits> = { timeoutMs: 1000 };

function positiveOption(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0) {
    throw new PtcMcpError("PTC_MCP_INVALID_OPTION", `${name} must be a positive number, got ${value}`, {
      details: { option: name },
    });
  }
  return value;
}

export function createPtcMcpServer(options: PtcMcpServerOptions = {}): PtcMcpServer {
  const expose = options.expose ?? "ptc_lisp";
  if (expose !== "ptc_lisp" && expose !== "both") {
    throw new PtcMcpError(
      "PTC_MCP_INVALID_OPTION",
      `expose must be "ptc_lisp" or "both", got ${JSON.stringify(expose)}`,
      {
        details: { option: "expose" },
      },
    );
  }
  const hostTools = options.tools ?? {};
  const catalog = options.catalog ?? "auto";
  if (catalog !== "auto" && catalog !== "full" && catalog !== "summary" && catalog !== "names") {
    throw new PtcMcpError(
      "PTC_MCP_INVALID_OPTION",
      `catalog must be "auto", "full", "summary" or "names", got ${JSON.stringify(catalog)}`,
      {
        details: { option: "catalog" },
      },
    );
  }
  let toolSet = buildToolSet(hostTools, options.upstreams?.tools ?? {}, expose, catalog);
  const hasTools = () => toolSet.programTools.size > 0 || options.upstreams !== undefined;
  const programLimits: Partial<Limits> = {
    ...(hasTools() ? LIMITS_WITH_TOOLS : LIMITS_WITHOUT_TOOLS),
    ...options.limits,
  };
  const evalLimits: EvalLimits = {
    program: programLimits,
    maxContextBytes: positiveOption("maxContextBytes", options.maxContextBytes, DEFAULT_MAX_CONTEXT_BYTES),
    maxProgramBytes: programLimits.maxProgramBytes ?? 64 * 1024,
  };
  const gate: EvaluationGate = createEvaluationGate(
    positiveOption(
      "maxConcurrentEvaluations",
      options.maxConcurrentEvaluations,
      DEFAULT_MAX_CONCURRENT_EVALUATIONS,
    ),
  );
  const sessionLimits: SessionLimits | undefined =
    options.sessions === undefined || options.sessions === false
      ? undefined
      : { ...DEFAULT_SESSION_LIMITS, ...(options.sessions === true ? {} : options.sessions) };
  const cacheLimitBytes = positiveOption(
    "cacheLimitBytes",
    options.cacheLimitBytes,
    DEFAULT_CACHE_LIMIT_BYTES,
  );
  const failures = options.upstreams?.failures ?? {};
  const clients = new Set<ClientConnection>();

  const listTools = (): ListedMcpTool[] => {
    const tools: ListedMcpTool[] = [
      {
        name: LISP_EVAL_TOOL_NAME,
        title: "Run a PTC-Lisp program",
        description: lispEvalDescription(toolSet, {
          failures,
          sessions: sessionLimits !== undefined,
          catalog,
        }),
        inputSchema: {
          type: "object",
          properties: {
            program: {
              type: "string",
              description: "PTC-Lisp source code. Call tools as (tool/name {:arg value}).",
            },
            context: {
              type: "object",
              additionalProperties: true,
              description: "Data for the program: each key is readable as data/<key>.",
            },
            output_schema: {
              type: "object",
              description:
                "A JSON Schema the program's value must satisfy; the checked JSON value comes back as `validated`.",
            },
          },
          required: ["program"],
        },
        ...(options.structuredContent === true ? { outputSchema: PAYLOAD_SCHEMA } : {}),
        annotations: hasTools()
          ? { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true }
          : { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      },
    ];
    if (sessionLimits !== undefined) tools.push(...sessionToolDefinitions());
    for (const tool of toolSet.nativeTools.values()) {
      const annotations =
        "mcp" in tool
          ? (tool as { mcp: { annotations: ListedMcpTool["annotations"] } }).mcp.annotations
          : undefined;
      tools.push({
        name: tool.name,
        ...(tool.description === undefined ? {} : { description: tool.description }),
        inputSchema: tool.parametersJsonSchema as ListedMcpTool["inputSchema"],
        ...(annotations === undefined ? {} : { annotations }),
      });
    }
    return tools;
  };

  const unsubscribe = options.upstreams?.onToolsChanged((upstreamTools) => {
    try {
      toolSet = buildToolSet(hostTools, upstreamTools, expose, catalog);
    } catch {
      // A change that would clash keeps the tools as they were; calls still reach the servers.
      return;
    }
    for (const client of clients) client.server.sendToolListChanged().catch(() => undefined);
  });

  async function connect(transport: Transport): Promise<ClientConnection> {
    const cache = new SharedToolCache(cacheLimitBytes);
    const sessions = sessionLimits === undefined ? undefined : new LispSessionStore(sessionLimits);
    const server = new Server(
      { name: options.name ?? "ptc-mcp", version: PACKAGE_VERSION },
      {
        capabilities: { tools: { listChanged: true }, prompts: {}, resources: {} },
        instructions:
          "Run PTC-Lisp programs (a small Clojure subset) with lisp_eval: call tools from the program, filter and aggregate their results, and return only what matters.",
      },
    );
    let programTools: { source: ToolSet; tools: ReadonlyMap<string, Tool> } | undefined;
    const currentProgramTools = () => {
      if (programTools?.source !== toolSet) {
        programTools = { source: toolSet, tools: cachedProgramTools(toolSet.programTools, cache) };
      }
      return programTools.tools;
    };
    const render = (outcome: { ok: boolean; text: string }): CallToolResult => ({
      content: [{ type: "text", text: outcome.text }],
      ...(outcome.ok ? {} : { isError: true }),
      ...(options.structuredContent === true
        ? { structuredContent: JSON.parse(outcome.text) as Record<string, unknown> }
        : {}),
    });

    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: wellFormedValue(listTools()) }));
    const callTool = async (
      request: CallToolRequest,
      extra: { readonly signal: AbortSignal },
    ): Promise<CallToolResult> => {
      const name = request.params.name;
      const args = (request.params.arguments ?? {}) as Record<string, unknown>;
      if (name === LISP_EVAL_TOOL_NAME) {
        return render(
          await gate.run(() =>
            evaluateProgram(args, currentProgramTools(), evalLimits, { signal: extra.signal }),
          ),
        );
      }
      if (sessions !== undefined && (SESSION_TOOL_NAMES as readonly string[]).includes(name)) {
        return render(
          await callSessionTool(name as SessionToolName, args, sessions, (session: Session) =>
            gate.run(() =>
              evaluateProgram(args, currentProgramTools(), evalLimits, { session, signal: extra.signal }),
            ),
          ),
        );
      }
      const native = toolSet.nativeTools.get(name);
      if (native !== undefined) return callNativeTool(native, args, cache, extra.signal);
      return unknownToolResult(
        name,
        listTools().map((tool) => tool.name),
      );
    };
    // What a client gets is well-formed Unicode: a lone surrogate from a program or a tool would
    // make its model's provider refuse every later request (docs/protocol.md, "Well-formed text").
    server.setRequestHandler(CallToolRequestSchema, async (request, extra) =>
      wellFormedValue(await callTool(request, extra)),
    );
    server.setRequestHandler(ListPromptsRequestSchema, () => ({
      prompts: [
        {
          name: REFERENCE_PROMPT_NAME,
          description:
            "The PTC-Lisp reference card: how to write programs for lisp_eval, and the tools they can call.",
        },
      ],
    }));
    server.setRequestHandler(GetPromptRequestSchema, (request) => {
      if (request.params.name !== REFERENCE_PROMPT_NAME) {
        throw new PtcMcpError(
          "PTC_MCP_INVALID_OPTION",
          `unknown prompt ${JSON.stringify(request.params.name)}; this server has "${REFERENCE_PROMPT_NAME}"`,
        );
      }
      return {
        description: "The PTC-Lisp reference card.",
        // The card lists the tools' descriptions: a client's model reads it like a tool result.
        messages: [{ role: "user", content: { type: "text", text: wellFormedText(referenceCard(toolSet)) } }],
      };
    });
    server.setRequestHandler(ListResourcesRequestSchema, () => ({
      resources: [
        {
          uri: REFERENCE_RESOURCE_URI,
          name: "ptc-lisp-reference-card",
          title: "PTC-Lisp reference card",
          mimeType: "text/markdown",
        },
      ],
    }));
    server.setRequestHandler(ReadResourceRequestSchema, (request) => {
      if (request.params.uri !== REFERENCE_RESOURCE_URI) {
        throw new PtcMcpError(
          "PTC_MCP_INVALID_OPTION",
          `unknown resource ${JSON.stringify(request.params.uri)}; this server has ${REFERENCE_RESOURCE_URI}`,
        );
      }
      return {
        contents: [
          {
            uri: REFERENCE_RESOURCE_URI,
            mimeType: "text/markdown",
            text: wellFormedText(referenceCard(toolSet)),
          },
        ],
      };
    });

    const connection: ClientConnection = {
      server,
      async close() {
        clients.delete(connection);
        sessions?.closeAll();
        await server.close();
      },
    };
    server.onclose = () => {
      clients.delete(connection);
      sessions?.closeAll();
    };
    clients.add(connection);
    await server.connect(transport);
    return connection;
  }

  return {
    connect,
    get toolSet() {
      return toolSet;
    },
    async close() {
      unsubscribe?.();
      await Promise.all([...clients].map((client) => client.close()));
    },
  };
}

/** The payload's schema, declared only with `structuredContent` (a declared schema requires it). */
const PAYLOAD_SCHEMA = {
  type: "object" as const,
  properties: {
    status: { type: "string", enum: ["ok", "error"] },
    result: { type: "string" },
    prints: { type: "array", items: { type: "string" } },
    feedback: { type: "string" },
    reason: { type: "string" },
    message: { type: "string" },
  },
  required: ["status"],
};
