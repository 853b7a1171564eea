/**
 * The `ptc-mcp` command: reads its flags, loads the tool modules, starts the upstream servers of
 * `--config`, and serves over stdio (the default) or Streamable HTTP until the client leaves or
 * the process is told to stop; then it ends every upstream server before returning.
 *
 * In stdio mode stdout carries MCP messages only: `console.log` and friends are sent to stderr
 * before any tool module is loaded, so a tool that logs cannot corrupt the protocol. Everything
 * the command says goes to stderr, one `ptc-mcp:` line at a time.
 */
import { readFile } from "node:fs/promises";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import type { Readable, Writable } from "node:stream";
import type { Limits } from "@ptc/lisp";
import { isHttpServerConfig, type McpServerConfig, parseServersFile } from "../../client/server-config.js";
import { connectMcpServers, type McpServerGroup } from "../../client/server-group.js";
import { isPtcMcpError } from "../../errors.js";
import { PACKAGE_VERSION } from "../../version.js";
import { createPtcMcpServer } from "../create-server.js";
import { serveHttp } from "../serve-http.js";
import { serveStdio } from "../serve-stdio.js";
import { type CliOptions, parseCliArguments, USAGE, UsageError } from "./arguments.js";
import { loadToolModules } from "./tool-modules.js";

export interface CliIo {
  readonly stdin: Readable;
  readonly stdout: Writable;
  readonly stderr: Writable;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  /** Resolves when the process is told to stop (SIGINT, SIGTERM). */
  readonly stopSignal: Promise<string>;
  /** Called once the server is serving, with where (for HTTP) — tests wait on it. */
  readonly onReady?: (where: string) => void;
}

function programLimits(options: CliOptions): Partial<Limits> {
  return {
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    ...(options.memoryMb === undefined ? {} : { maxMemoryBytes: options.memoryMb * 1_000_000 }),
    ...(options.maxProgramBytes === undefined ? {} : { maxProgramBytes: options.maxProgramBytes }),
  };
}

/**
 * Where a --config path points. A leading `~/` is the home folder: desktop clients start servers
 * without a shell, so nothing else would expand it, and it lets one config serve every user.
 */
export function configPath(path: string, cwd: string): string {
  if (path === "~" || path.startsWith("~/")) return join(homedir(), path.slice(1));
  return resolve(cwd, path);
}

async function readConfig(path: string, cwd: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(configPath(path, cwd), "utf8");
  } catch (error) {
    throw new UsageError(
      `cannot read --config file ${JSON.stringify(path)}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
    );
  }
  try {
    return JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch (error) {
    throw new UsageError(
      `--config file ${JSON.stringify(path)} is not JSON: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

/**
 * How deep in a chain of `ptc-mcp` aggregators this one runs. Each passes its depth on to the
 * servers it starts, so a config that (directly or not) starts `ptc-mcp` with itself stops at
 * `MAX_AGGREGATOR_DEPTH` instead of starting processes forever.
 */
const DEPTH_VARIABLE = "PTC_MCP_DEPTH";
const MAX_AGGREGATOR_DEPTH = 3;

function withDepth(servers: Record<string, McpServerConfig>, depth: number): Record<string, McpServerConfig> {
  const out: Record<string, McpServerConfig> = {};
  for (const [name, config] of Object.entries(servers)) {
    out[name] = isHttpServerConfig(config)
      ? config
      : { ...config, env: { ...config.env, [DEPTH_VARIABLE]: String(depth + 1) } };
  }
  return out;
}

/** Runs the command until it is done; returns the exit status. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const say = (line: string) => io.stderr.write(`ptc-mcp: ${line}\n`);
  let options: CliOptions;
  try {
    options = parseCliArguments(argv, io.env);
  } catch (error) {
    if (error instanceof UsageError) {
      say(error.message);
      return 2;
    }
    throw error;
  }
  if (options.help) {
    io.stderr.write(USAGE);
    return 0;
  }
  if (options.version) {
    io.stderr.write(`ptc-mcp ${PACKAGE_VERSION}\n`);
    return 0;
  }

  let upstreams: McpServerGroup | undefined;
  try {
    const tools = await loadToolModules(options.toolModules, io.cwd);
    if (options.config !== undefined) {
      const depth = Number(io.env[DEPTH_VARIABLE] ?? 0) || 0;
      if (depth >= MAX_AGGREGATOR_DEPTH) {
        throw new UsageError(
          `this ptc-mcp is the ${depth + 1}th in a chain of ptc-mcp aggregators started from each other's --config; a config that starts ptc-mcp with itself would never end, so --config is refused here`,
        );
      }
      const servers = withDepth(
        parseServersFile(await readConfig(options.config, io.cwd), options.config),
        depth,
      );
      upstreams = await connectMcpServers(servers, {
        onStderrLine: (server, line) => io.stderr.write(`[${server}] ${line}\n`),
        ...(options.upstreamTimeoutMs === undefined
          ? {}
          : { defaults: { timeoutMs: options.upstreamTimeoutMs } }),
      });
      for (const [name, connection] of Object.entries(upstreams.connections)) {
        const pid = connection.pid === undefined ? "" : ` (pid ${connection.pid})`;
        say(`upstream ${name}: ${Object.keys(connection.tools).length} tools${pid}`);
      }
      for (const [name, failure] of Object.entries(upstreams.failures)) {
        say(`upstream ${name} did not start (its tools are missing; the others serve): ${failure.message}`);
      }
    }
    const server = createPtcMcpServer({
      tools,
      ...(upstreams === undefined ? {} : { upstreams }),
      expose: options.expose,
      sessions: options.sessions,
      catalog: options.catalog,
      structuredContent: options.structuredContent,
      limits: programLimits(options),
      ...(options.maxConcurrent === undefined ? {} : { maxConcurrentEvaluations: options.maxConcurrent }),
    });
    const toolCount = server.toolSet.programTools.size;
    if (options.http !== undefined) {
      const serving = await serveHttp(server, {
        host: options.http.host,
        port: options.http.port,
        path: options.httpPath,
        ...(options.token === undefined ? {} : { token: options.token }),
        ...(options.allowedOrigins === undefined ? {} : { allowedOrigins: options.allowedOrigins }),
        ...(options.allowedHosts === undefined ? {} : { allowedHosts: options.allowedHosts }),
      });
      say(`serving MCP over HTTP at ${serving.url} (${toolCount} tools for programs)`);
      io.onReady?.(serving.url);
      const signal = await io.stopSignal;
      say(`${signal}: stopping`);
      await serving.close();
    } else {
      const serving = await serveStdio(server, { stdin: io.stdin, stdout: io.stdout });
      say(`serving MCP over stdio (${toolCount} tools for programs)`);
      io.onReady?.("stdio");
      await Promise.race([serving.closed, io.stopSignal]);
      await serving.connection.close();
    }
    await server.close();
    return 0;
  } catch (error) {
    if (error instanceof UsageError || isPtcMcpError(error)) {
      say(error.message);
      return 2;
    }
    throw error;
  } finally {
    await upstreams?.close();
  }
}
