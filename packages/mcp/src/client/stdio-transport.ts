/**
 * MCP over a child process's stdin and stdout, one JSON-RPC message per line. It is ours rather
 * than the SDK's because a host needs more than messages from a server it started:
 *
 * - the exit code and the last lines of stderr, to say why a server stopped;
 * - the lines on stdout that are not MCP (a server that logs to stdout), to say why it seems deaf;
 * - a cap on one line, so a runaway answer cannot fill the host's memory;
 * - a close that always ends the process: end of stdin, then SIGTERM, then SIGKILL, sent to the
 *   server's whole process group, so a launcher (`npx`, a shell script) takes its child with it.
 *
 * It never writes to the host's stdout or stderr; the owner decides what to show.
 */
import { type ChildProcess, spawn } from "node:child_process";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { type JSONRPCMessage, JSONRPCMessageSchema } from "@modelcontextprotocol/sdk/types.js";
import { PtcMcpError } from "../errors.js";
import { textHead } from "../text-head.js";
import { trackChildProcess, untrackChildProcess } from "./child-processes.js";
import { ANSWER_TOO_LARGE_CODE, classifyOversizedLine, OVERSIZED_END_BYTES } from "./oversized-answer.js";
import type { StdioServerConfig } from "./server-config.js";

/** What a server inherits from the host: enough to run, no secrets unless the config names them. */
const INHERITED_ENV =
  process.platform === "win32"
    ? [
        "APPDATA",
        "HOMEDRIVE",
        "HOMEPATH",
        "LOCALAPPDATA",
        "PATH",
        "PATHEXT",
        "SYSTEMDRIVE",
        "SYSTEMROOT",
        "TEMP",
        "USERNAME",
        "USERPROFILE",
        "PROGRAMFILES",
      ]
    : ["HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER", "LANG", "TMPDIR"];

const STDERR_TAIL_LINES = 20;
const NON_PROTOCOL_KEPT = 5;
const CLOSE_GRACE_MS = 2000;

export interface StdioTransportOptions {
  /** Longest line accepted on stdout, in bytes; a longer one is dropped and reported. */
  readonly maxLineBytes: number;
  /** Each line the server writes on stderr. */
  readonly onStderrLine?: (line: string) => void;
  /**
   * A line on stdout longer than `maxLineBytes` was dropped, and it could not be told whose
   * answer it was. (An answer that names its request is answered here instead: its request
   * fails with a JSON-RPC error of code `ANSWER_TOO_LARGE_CODE`, `data: {bytes}`.)
   */
  readonly onOversizedLine?: (bytes: number) => void;
}

export interface ProcessExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

function inheritedEnvironment(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const key of INHERITED_ENV) {
    const value = process.env[key];
    // A value starting with "()" is a shell function export, a known injection route.
    if (value !== undefined && !value.startsWith("()")) env[key] = value;
  }
  return env;
}

export class StdioTransport implements Transport {
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: ((message: JSONRPCMessage) => void) | undefined;

  /** The last lines the server wrote on stderr, oldest first. */
  readonly stderrTail: string[] = [];
  /** The first lines on stdout that were not MCP messages. */
  readonly nonProtocolLines: string[] = [];
  nonProtocolCount = 0;
  exit: ProcessExit | undefined;

  private child: ChildProcess | undefined;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** The line being dropped for its size: its first bytes, its last bytes so far, its length. */
  private oversized: { head: string; tail: Buffer; bytes: number; reported: boolean } | undefined;
  private stderrPartial = "";
  /** Resolves when the server's stdin takes writes again; set while it is full. */
  private drained: Promise<void> | undefined;
  private readonly exited: Promise<void>;
  private markExited!: () => void;

  constructor(
    private readonly config: StdioServerConfig,
    private readonly options: StdioTransportOptions,
  ) {
    this.exited = new Promise((resolve) => {
      this.markExited = resolve;
    });
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  start(): Promise<void> {
    if (this.child !== undefined) throw new Error("StdioTransport.start called twice");
    return new Promise((resolve, reject) => {
      const child = spawn(this.config.command, [...(this.config.args ?? [])], {
        env: { ...inheritedEnvironment(), ...this.config.env },
        ...(this.config.cwd === undefined ? {} : { cwd: this.config.cwd }),
        stdio: ["pipe", "pipe", "pipe"],
        // Its own process group on POSIX, so closing can signal the server and its children.
        detached: process.platform !== "win32",
        windowsHide: true,
        shell: false,
      });
      this.child = child;
      child.once("error", (error: NodeJS.ErrnoException) => {
        const message =
          error.code === "ENOENT"
            ? `command not found: ${JSON.stringify(this.config.command)} (not on PATH and not a file${this.config.cwd === undefined ? "" : ` relative to ${this.config.cwd}`})`
            : `could not start ${JSON.stringify(this.config.command)}: ${error.message}`;
        const failure = new PtcMcpError("PTC_MCP_UNAVAILABLE", message, { cause: error });
        reject(failure);
        this.onerror?.(failure);
      });
      child.once("spawn", () => {
        if (child.pid !== undefined) trackChildProcess(child.pid);
        resolve();
      });
      child.once("close", (code, signal) => {
        this.exit = { code, signal };
        if (child.pid !== undefined) untrackChildProcess(child.pid);
        this.markExited();
        this.onclose?.();
      });
      child.stdin?.on("error", () => {
        // Writing to a server that has exited: the close event reports it.
      });
      child.stdout?.on("data", (chunk: Buffer) => this.readStdout(chunk));
      child.stderr?.on("data", (chunk: Buffer) => this.readStderr(chunk));
    });
  }

  private readStdout(chunk: Buffer): void {
    let start = 0;
    for (;;) {
      const newline = chunk.indexOf(0x0a, start);
      const end = newline === -1 ? chunk.length : newline;
      const piece = chunk.subarray(start, end);
      if (this.oversized !== undefined) {
        this.oversized.bytes += piece.length;
        this.oversized.tail = Buffer.concat([
          this.oversized.tail,
          piece.subarray(-OVERSIZED_END_BYTES),
        ]).subarray(-OVERSIZED_END_BYTES);
      } else {
        this.pending.push(piece);
        this.pendingBytes += piece.length;
        if (this.pendingBytes > this.options.maxLineBytes) {
          // Dropped before it is decoded: a runaway answer costs at most the cap in memory.
          const head = Buffer.concat(this.pending).subarray(0, OVERSIZED_END_BYTES).toString("utf8");
          this.oversized = { head, tail: Buffer.alloc(0), bytes: this.pendingBytes, reported: false };
          // An id at the start is known now; one at the end waits for the end of the line.
          this.reportOversized(false);
          this.pending = [];
          this.pendingBytes = 0;
        }
      }
      if (newline === -1) return;
      if (this.oversized !== undefined) this.reportOversized(true);
      else this.readLine(Buffer.concat(this.pending).toString("utf8"));
      this.oversized = undefined;
      this.pending = [];
      this.pendingBytes = 0;
      start = newline + 1;
    }
  }

  /** Fails the request a dropped line answered, once its id is known (or the line ended). */
  private reportOversized(lineEnded: boolean): void {
    const line = this.oversized;
    if (line === undefined || line.reported) return;
    const seen = classifyOversizedLine(line.head, lineEnded ? line.tail.toString("utf8") : "");
    if (seen.kind === "unknown" && !lineEnded) return;
    line.reported = true;
    if (seen.kind === "answer") {
      this.onmessage?.({
        jsonrpc: "2.0",
        id: seen.id,
        error: {
          code: ANSWER_TOO_LARGE_CODE,
          message: `the answer is over ${this.options.maxLineBytes} bytes and was dropped`,
          data: { bytes: line.bytes },
        },
      });
    } else if (seen.kind === "unknown") {
      this.options.onOversizedLine?.(line.bytes);
    }
    // A request or notification from the server that is too large is dropped; no call waits on it.
  }

  private readLine(raw: string): void {
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    if (line.trim() === "") return;
    let message: JSONRPCMessage;
    try {
      message = JSONRPCMessageSchema.parse(JSON.parse(line));
    } catch {
      this.nonProtocolCount++;
      if (this.nonProtocolLines.length < NON_PROTOCOL_KEPT) this.nonProtocolLines.push(textHead(line, 200));
      return;
    }
    this.onmessage?.(message);
  }

  private readStderr(chunk: Buffer): void {
    const text = this.stderrPartial + chunk.toString("utf8");
    const lines = text.split("\n");
    this.stderrPartial = lines.pop() ?? "";
    for (const line of lines) {
      const clean = line.endsWith("\r") ? line.slice(0, -1) : line;
      this.stderrTail.push(textHead(clean, 500));
      if (this.stderrTail.length > STDERR_TAIL_LINES) this.stderrTail.shift();
      this.options.onStderrLine?.(clean);
    }
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (stdin === undefined || stdin === null || this.exit !== undefined || stdin.destroyed) {
      return Promise.reject(
        new PtcMcpError(
          "PTC_MCP_CONNECTION_CLOSED",
          "the server process is not running; it cannot be sent a message",
        ),
      );
    }
    if (stdin.write(`${JSON.stringify(message)}\n`)) return Promise.resolve();
    // Every message sent while the pipe is full waits for the same drain: one listener, however
    // many calls are in flight (a listener each made Node warn on the host's stderr past ten).
    this.drained ??= new Promise((resolve) => {
      stdin.once("drain", () => {
        this.drained = undefined;
        resolve();
      });
    });
    return this.drained;
  }

  private signal(signal: NodeJS.Signals): void {
    const pid = this.child?.pid;
    if (pid === undefined || this.exit !== undefined) return;
    try {
      if (process.platform === "win32") this.child?.kill(signal);
      else process.kill(-pid, signal);
    } catch {
      // The group is already gone.
    }
  }

  private async waitForExit(ms: number): Promise<boolean> {
    if (this.exit !== undefined) return true;
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), ms);
    });
    const done = await Promise.race([this.exited.then(() => true as const), timedOut]);
    clearTimeout(timer);
    return done;
  }

  /** Ends the server: end of input first, then SIGTERM, then SIGKILL; resolves once it has exited. */
  async close(): Promise<void> {
    const child = this.child;
    if (child === undefined) return;
    if (this.exit === undefined) {
      child.stdin?.end();
      if (!(await this.waitForExit(CLOSE_GRACE_MS))) {
        this.signal("SIGTERM");
        if (!(await this.waitForExit(CLOSE_GRACE_MS))) {
          this.signal("SIGKILL");
          await this.waitForExit(CLOSE_GRACE_MS);
        }
      }
    }
    // Children the server left in its group (a launcher's child) go too.
    this.signalGroupRemainder();
  }

  private signalGroupRemainder(): void {
    const pid = this.child?.pid;
    if (pid === undefined || process.platform === "win32") return;
    try {
      process.kill(-pid, "SIGKILL");
    } catch {
      // No process left in the group: the usual case.
    }
  }
}
