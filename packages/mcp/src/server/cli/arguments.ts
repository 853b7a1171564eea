/**
 * The `ptc-mcp` command line: flags into options, with a usage error that says what to write
 * instead for anything it cannot read. Reading flags never starts anything.
 */
import { parseArgs } from "node:util";

export class UsageError extends Error {
  override readonly name = "UsageError";
}

export interface CliOptions {
  readonly help: boolean;
  readonly version: boolean;
  readonly toolModules: readonly string[];
  readonly config: string | undefined;
  readonly expose: "ptc_lisp" | "both";
  readonly sessions: boolean;
  readonly catalog: "auto" | "full" | "summary" | "names";
  readonly structuredContent: boolean;
  readonly http: { readonly host: string; readonly port: number } | undefined;
  readonly httpPath: string;
  readonly token: string | undefined;
  readonly allowedOrigins: readonly string[] | undefined;
  readonly allowedHosts: readonly string[] | undefined;
  readonly timeoutMs: number | undefined;
  readonly memoryMb: number | undefined;
  readonly maxProgramBytes: number | undefined;
  readonly maxConcurrent: number | undefined;
  readonly upstreamTimeoutMs: number | undefined;
}

export const USAGE = `Usage: ptc-mcp [options]

Serves PTC-Lisp over MCP: a lisp_eval tool whose programs call your tools and the tools of
upstream MCP servers. Speaks stdio unless --http is given.

Tools for programs:
  --tools FILE.mjs          an ES module whose exports are tools (repeatable)
  --config FILE.json        upstream MCP servers, in the {"mcpServers": {...}} shape desktop clients use
  --expose ptc_lisp|both    where tools that declare none may be called from: programs only
                            (default) or also natively beside lisp_eval (combined mode)
  --sessions                also offer lisp_session_* tools: defs and *1 persist across calls
  --catalog MODE            how lisp_eval's card describes the tools: full, summary (signatures
                            and first sentences) or names, the last two with a describe_tool for
                            the rest; auto (the default): full up to 8 tools, summary up to 40

Limits per call:
  --timeout-ms N            program wall clock (default 10000 with tools, 1000 without)
  --memory-mb N             program memory (default 100 with tools, 64 without)
  --max-program-bytes N     largest program (default 65536)
  --max-concurrent N        evaluations at once; more are answered "busy" (default 4)
  --upstream-timeout-ms N   one upstream tool call (default 60000)

HTTP:
  --http [HOST:]PORT        serve Streamable HTTP at http://HOST:PORT/mcp (HOST defaults to 127.0.0.1)
  --http-path PATH          the endpoint's path (default /mcp)
  --token TOKEN             require Authorization: Bearer TOKEN (or set PTC_MCP_TOKEN); needed off loopback
  --allowed-origin ORIGIN   a web origin allowed to call the server (repeatable)
  --allowed-host HOST       a Host header value accepted (repeatable)

Output:
  --structured-content      declare lisp_eval's output schema and answer with structuredContent too
  -h, --help                this text
  -v, --version             the version
`;

function positiveInteger(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed <= 0) {
    throw new UsageError(`${flag} takes a positive whole number, got ${JSON.stringify(value)}`);
  }
  return parsed;
}

function parseHttp(value: string | undefined): CliOptions["http"] {
  if (value === undefined) return undefined;
  const match = /^(?:(\[[^\]]+\]|[^:]+):)?(\d+)$/.exec(value);
  if (match === null) {
    throw new UsageError(
      `--http takes PORT or HOST:PORT (such as 7332 or 127.0.0.1:7332), got ${JSON.stringify(value)}`,
    );
  }
  const port = Number(match[2]);
  if (port > 65535) throw new UsageError(`--http port must be at most 65535, got ${port}`);
  const host = (match[1] ?? "127.0.0.1").replace(/^\[(.*)\]$/, "$1");
  return { host, port };
}

export function parseCliArguments(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): CliOptions {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    throw new UsageError(
      `${error instanceof Error ? error.message : String(error)}; run ptc-mcp --help for the options`,
    );
  }
  const { values, positionals } = parsed;
  if (positionals.length > 0) {
    throw new UsageError(
      `unexpected argument ${JSON.stringify(positionals[0])}; ptc-mcp takes only options (see --help)`,
    );
  }
  const expose = values.expose ?? "ptc_lisp";
  if (expose !== "ptc_lisp" && expose !== "both") {
    throw new UsageError(`--expose takes ptc_lisp or both, got ${JSON.stringify(expose)}`);
  }
  const catalog = values.catalog ?? "auto";
  if (catalog !== "auto" && catalog !== "full" && catalog !== "summary" && catalog !== "names") {
    throw new UsageError(`--catalog takes auto, full, summary or names, got ${JSON.stringify(catalog)}`);
  }
  const token = values.token ?? (env.PTC_MCP_TOKEN === "" ? undefined : env.PTC_MCP_TOKEN);
  return {
    help: values.help === true,
    version: values.version === true,
    toolModules: values.tools ?? [],
    config: values.config,
    expose,
    sessions: values.sessions === true,
    catalog,
    structuredContent: values["structured-content"] === true,
    http: parseHttp(values.http),
    httpPath: values["http-path"] ?? "/mcp",
    token,
    allowedOrigins: values["allowed-origin"],
    allowedHosts: values["allowed-host"],
    timeoutMs: positiveInteger("--timeout-ms", values["timeout-ms"]),
    memoryMb: positiveInteger("--memory-mb", values["memory-mb"]),
    maxProgramBytes: positiveInteger("--max-program-bytes", values["max-program-bytes"]),
    maxConcurrent: positiveInteger("--max-concurrent", values["max-concurrent"]),
    upstreamTimeoutMs: positiveInteger("--upstream-timeout-ms", values["upstream-timeout-ms"]),
  };
}

function parse(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    strict: true,
    allowPositionals: true,
    options: {
      help: { type: "boolean", short: "h" },
      version: { type: "boolean", short: "v" },
      tools: { type: "string", multiple: true },
      config: { type: "string" },
      expose: { type: "string" },
      sessions: { type: "boolean" },
      catalog: { type: "string" },
      "structured-content": { type: "boolean" },
      http: { type: "string" },
      "http-path": { type: "string" },
      token: { type: "string" },
      "allowed-origin": { type: "string", multiple: true },
      "allowed-host": { type: "string", multiple: true },
      "timeout-ms": { type: "string" },
      "memory-mb": { type: "string" },
      "max-program-bytes": { type: "string" },
      "max-concurrent": { type: "string" },
      "upstream-timeout-ms": { type: "string" },
    },
  });
}
