/**
 * Upstream servers that misbehave, written by hand (src/__fixtures__/fake-server.mjs): each fault
 * ends in a PtcMcpError that says what happened, nothing hangs, other servers keep serving, and no
 * server process outlives its connection or its host.
 */
import { spawn } from "node:child_process";
import { getEventListeners } from "node:events";
import { run } from "@ptc/lisp";
import { afterAll, describe, expect, it, vi } from "vitest";
import { type BuiltCli, buildLibrary, fixture } from "../__tests__/built-cli.js";
import { processGone } from "../__tests__/processes.js";
import { isPtcMcpError, type PtcMcpError } from "../errors.js";
import { type ConnectOptions, connectMcpServer, type McpConnection } from "./connection.js";
import type { McpServerSettings } from "./server-config.js";
import { connectMcpServers } from "./server-group.js";

// Starting servers and building the command can take a while on a loaded machine.
vi.setConfig({ hookTimeout: 60_000 });

const fake = (mode: string, ...extra: string[]) => ({
  command: process.execPath,
  args: [fixture("fake-server.mjs"), mode, ...extra],
});

interface Opened {
  readonly connection: McpConnection;
  readonly stderr: string[];
}

const opened: McpConnection[] = [];
async function open(mode: string, settings: McpServerSettings = {}, extra: string[] = []): Promise<Opened> {
  const stderr: string[] = [];
  const options: ConnectOptions = { settings, onStderrLine: (line) => stderr.push(line) };
  const connection = await connectMcpServer(mode.replaceAll("-", "_"), fake(mode, ...extra), options);
  opened.push(connection);
  return { connection, stderr };
}

afterAll(async () => {
  const pids = opened.map((connection) => connection.pid);
  await Promise.all(opened.map((connection) => connection.close()));
  for (const pid of pids) if (pid !== undefined) await processGone(pid);
});

async function failure(promise: unknown): Promise<PtcMcpError> {
  try {
    await promise;
  } catch (error) {
    if (isPtcMcpError(error)) return error;
    throw error;
  }
  throw new Error("expected the call to fail");
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe("a server that exits mid-call", () => {
  it("fails the call with the exit code and its last stderr lines, and the next call starts it again", async () => {
    const { connection } = await open("crash");
    const firstPid = connection.pid as number;
    const error = await failure(connection.tools.crash__echo?.execute({ text: "hi" }, {}));
    expect(error.code).toBe("PTC_MCP_CONNECTION_CLOSED");
    expect(error.message).toContain("the server process exited with code 3");
    expect(error.message).toContain("panic: index out of range");
    expect(error.message).toContain("The next call starts the server again");
    expect(await processGone(firstPid)).toBe(true);
    const again = await failure(connection.tools.crash__echo?.execute({ text: "hi" }, {}));
    expect(again.code).toBe("PTC_MCP_CONNECTION_CLOSED");
  });

  it("quotes a long stderr line cut before an emoji, never between its halves", async () => {
    const { connection } = await open("crash-emoji");
    const error = await failure(connection.tools.crash_emoji__echo?.execute({ text: "hi" }, {}));
    expect(error.code).toBe("PTC_MCP_CONNECTION_CLOSED");
    expect(error.message).toContain(`${"e".repeat(499)}`);
    // A lone surrogate (half of the emoji) is not Unicode; encodeURIComponent refuses it.
    expect(() => encodeURIComponent(error.message)).not.toThrow();
  });

  it("fails the program that called it with a tool error, while another server keeps serving", async () => {
    const group = await connectMcpServers({ crash: fake("crash"), well: fake("well") });
    try {
      const crashed = await run('(tool/crash__echo {:text "x"})', {
        tools: group.tools,
        limits: { timeoutMs: 10_000 },
      });
      expect(!crashed.ok && crashed.error.reason).toBe("tool_error");
      expect(!crashed.ok && crashed.error.message).toContain("exited with code 3");
      const fine = await run('(:args (tool/well__echo {:text "still here"}))', {
        tools: group.tools,
        limits: { timeoutMs: 10_000 },
      });
      expect(fine.ok && fine.value).toEqual({ text: "still here" });
    } finally {
      const pids = Object.values(group.connections).map((connection) => connection.pid);
      await group.close();
      for (const pid of pids) if (pid !== undefined) expect(await processGone(pid)).toBe(true);
    }
  });
});

describe("a server that never answers", () => {
  it("times the call out, cancels it on the server, and says so", async () => {
    const { connection, stderr } = await open("hang", { timeoutMs: 200 });
    const error = await failure(connection.tools.hang__echo?.execute({ text: "hi" }, {}));
    expect(error.code).toBe("PTC_MCP_TIMEOUT");
    expect(error.message).toBe(
      'hang: tool "echo" did not answer within 200 ms, so the call was cancelled; retry with less work, or raise timeoutMs for this server.',
    );
    await until(() => stderr.some((line) => line.startsWith("cancelled ")));
  });

  it("is ended by close() even when it ignores the end of stdin and SIGTERM", async () => {
    const { connection } = await open("hang", { timeoutMs: 100 }, ["--stubborn"]);
    const pid = connection.pid as number;
    await connection.close();
    expect(await processGone(pid)).toBe(true);
  });

  it("does not outlive a host that fails mid-call", async () => {
    const library: BuiltCli = await buildLibrary();
    try {
      const script = `
        const { connectMcpServer } = await import(${JSON.stringify(`file://${library.path}`)});
        const connection = await connectMcpServer("hang", ${JSON.stringify(fake("hang", "--stubborn"))});
        console.log(connection.pid);
        connection.tools.hang__echo.execute({ text: "x" }, {}).catch(() => {});
        setTimeout(() => { throw new Error("the host fails"); }, 50);`;
      const host = spawn(process.execPath, ["--input-type=module", "-e", script], {
        stdio: ["ignore", "pipe", "pipe"],
      });
      let stdout = "";
      host.stdout.on("data", (chunk: Buffer) => {
        stdout += chunk.toString();
      });
      const code = await new Promise<number | null>((resolve) =>
        host.once("exit", (exitCode) => resolve(exitCode)),
      );
      expect(code).not.toBe(0);
      const serverPid = Number(stdout.trim());
      expect(serverPid).toBeGreaterThan(0);
      expect(await processGone(serverPid)).toBe(true);
    } finally {
      library.cleanup();
    }
  });
});

describe("a server that writes garbage on stdout", () => {
  it("still connects, and a call it answers with garbage times out with the garbage quoted", async () => {
    const { connection } = await open("garbage", { timeoutMs: 300 });
    const error = await failure(connection.tools.garbage__echo?.execute({ text: "hi" }, {}));
    expect(error.code).toBe("PTC_MCP_TIMEOUT");
    expect(error.message).toContain('not MCP messages (first: "Server starting... (this line is not MCP)")');
    expect(error.message).toContain("must write only JSON-RPC messages on stdout");
  });
});

describe("a server that cannot start", () => {
  it("reports a handshake that never comes, quoting what it printed instead", async () => {
    const error = await failure(
      connectMcpServer("mute", fake("mute"), { settings: { connectTimeoutMs: 300 } }),
    );
    expect(error.code).toBe("PTC_MCP_UNAVAILABLE");
    expect(error.message).toContain("no answer to the MCP handshake within 300 ms");
    expect(error.message).toContain('(first: "Server starting... (this line is not MCP)")');
  });

  it("reports its exit code and stderr", async () => {
    const error = await failure(connectMcpServer("dies", fake("dies-at-start")));
    expect(error.code).toBe("PTC_MCP_UNAVAILABLE");
    expect(error.message).toContain("the server process exited with code 1");
    expect(error.message).toContain("fatal: missing API key FAKE_TOKEN");
  });

  it("gives up on a tool list that never comes within connectTimeoutMs, with a PtcMcpError", async () => {
    const error = await failure(
      // Long enough for the handshake on a loaded machine (spawning the server takes its own time).
      connectMcpServer("list_hangs", fake("list-hangs"), { settings: { connectTimeoutMs: 2500 } }),
    );
    expect(error.code).toBe("PTC_MCP_UNAVAILABLE");
    expect(error.message).toContain("no answer to tools/list within 2500 ms");
  });

  it("reports a tool list that is not MCP with a PtcMcpError that says which entry is wrong", async () => {
    const error = await failure(connectMcpServer("bad_list", fake("bad-list")));
    expect(error.code).toBe("PTC_MCP_UNAVAILABLE");
    expect(error.message).toContain("tools/list answer is not valid MCP");
    expect(error.message).toContain("tools.3.inputSchema.type");
  });
});

describe("tool names that Object.prototype also has", () => {
  it("keep the tools objects plain, and each such tool callable under its name", async () => {
    const { connection } = await open("proto-names", { prefix: "" });
    const tools = connection.tools;
    expect(Object.getPrototypeOf(tools)).toBe(Object.prototype);
    const names = Object.keys(tools);
    expect(names).toContain("constructor");
    expect(names).toContain("toString");
    // "__proto__" would set the prototype of every object built by assignment: it gets a hash.
    const proto = names.find((name) => name.startsWith("__proto__"));
    expect(proto).toMatch(/^__proto___[0-9a-f]{8}$/);
    expect(await tools[proto as string]?.execute({}, {})).toEqual({ tool: "__proto__", args: {} });
    const constructorName: string = "constructor";
    expect(await tools[constructorName]?.execute({}, {})).toEqual({ tool: "constructor", args: {} });

    const group = await connectMcpServers({ a: fake("proto-names") }, { defaults: { prefix: "" } });
    try {
      expect(Object.getPrototypeOf(group.tools)).toBe(Object.prototype);
      expect(Object.keys(group.tools)).toContain(proto);
    } finally {
      await group.close();
    }
  });
});

describe("limits", () => {
  it("refuses a result over the size cap, before decoding it", async () => {
    const { connection } = await open("big", { maxResultBytes: 100_000 });
    const error = await failure(connection.tools.big__echo?.execute({ text: "hi" }, {}));
    expect(error.code).toBe("PTC_MCP_RESULT_TOO_LARGE");
    expect(error.message).toContain("over the cap of 100000 bytes");
  });

  it("reports an answer nested too deeply to read as such, and the connection goes on", async () => {
    const { connection } = await open("deep");
    const tool = connection.tools.deep__echo;
    const error = await failure(tool?.execute({ text: "hi" }, {}));
    expect(error.code).toBe("PTC_MCP_PROTOCOL_ERROR");
    expect(error.message).toBe(
      'deep: tool "echo" answered with a value nested too deeply to read (deeper than the host\'s stack); ask it for a flatter answer',
    );
    // Through a program: a tool error it can catch, not a crash.
    const result = await run('(tool/deep__echo {:text "hi"})', { tools: connection.tools });
    expect(result.ok).toBe(false);
  });

  it("refuses the answer over the cap, not another call's, when several are in flight", async () => {
    const { connection } = await open("big-one", { maxResultBytes: 100_000, timeoutMs: 5000 });
    const slow = connection.tools.big_one__slow?.execute({ ms: 300 }, {});
    const error = await failure(connection.tools.big_one__huge?.execute({}, {}));
    expect(error.code).toBe("PTC_MCP_RESULT_TOO_LARGE");
    expect(error.message).toContain('tool "huge" answered with more than');
    expect(await slow).toEqual({ slept: 300 });
  });

  it("sends many large calls at once without warnings on the host's stderr", async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on("warning", onWarning);
    try {
      const { connection } = await open("well", { maxConcurrency: 16 });
      const text = "y".repeat(200_000);
      const answers = await Promise.all(
        Array.from({ length: 16 }, () => connection.tools.well__echo?.execute({ text }, {})),
      );
      expect(answers).toHaveLength(16);
      expect(answers[15]).toEqual({ tool: "echo", args: { text } });
      // Node emits warnings on the next tick.
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings).toEqual([]);
    } finally {
      process.off("warning", onWarning);
    }
  });

  it("keeps at most maxConcurrency calls in flight for a pmap over a tool", async () => {
    const { connection, stderr } = await open("well", { maxConcurrency: 2 });
    const result = await run("(count (pmap (fn [i] (tool/well__slow {:ms 30})) (range 6)))", {
      tools: connection.tools,
      limits: { timeoutMs: 10_000 },
    });
    expect(result.ok && result.value).toBe(6);
    const most = Math.max(...stderr.map((line) => Number(/most: (\d+)/.exec(line)?.[1] ?? 0)));
    expect(most).toBe(2);
  });

  it("cancels the call on the server when its caller aborts", async () => {
    const { connection, stderr } = await open("well");
    const direct = new AbortController();
    const call = connection.tools.well__slow?.execute({ ms: 60_000 }, { signal: direct.signal });
    await until(() => stderr.some((line) => line.startsWith("in flight: 1")));
    direct.abort();
    const error = await failure(call);
    expect(error.code).toBe("PTC_MCP_ABORTED");
    await until(() => stderr.some((line) => line.startsWith("cancelled ")));
  });

  it("puts one listener on a signal that 50 calls at once share, and a cancel still reaches each", async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on("warning", onWarning);
    try {
      const { connection, stderr } = await open("well");
      const controller = new AbortController();
      const { signal } = controller;
      const listeners = () => getEventListeners(signal, "abort").length;
      const echo = (i: number) => connection.tools.well__echo?.execute({ text: `t${i}` }, { signal });
      // 4 in flight and 46 waiting their turn (maxConcurrency is 4).
      const echoes = Array.from({ length: 50 }, (_, i) => echo(i));
      expect(listeners()).toBeLessThanOrEqual(1);
      expect(await Promise.all(echoes)).toHaveLength(50);
      expect(listeners()).toBe(0);
      const slow = () => connection.tools.well__slow?.execute({ ms: 60_000 }, { signal });
      const calls = Array.from({ length: 50 }, () =>
        Promise.resolve(slow()).catch((error: unknown) => error),
      );
      await until(() => stderr.some((line) => line.startsWith("in flight: 4")));
      expect(listeners()).toBeLessThanOrEqual(1);
      const reason = new Error("host shutting down");
      controller.abort(reason);
      const errors = (await Promise.all(calls)) as PtcMcpError[];
      // The calls in flight are cancelled on the server; the ones still waiting their turn were
      // never sent. All fail as aborted, as one call does.
      expect(errors.map((error) => error.code)).toEqual(Array(50).fill("PTC_MCP_ABORTED"));
      const messages = errors.map((error) => error.message.replace(/^well: the call of tool "slow" /, ""));
      expect(messages.filter((m) => m === "was aborted (and cancelled on the server)")).toHaveLength(4);
      expect(messages.filter((m) => m === "was aborted before it was sent")).toHaveLength(46);
      expect(errors.filter((error) => error.cause === reason)).toHaveLength(46);
      expect(listeners()).toBe(0);
      // A signal that has already fired sends nothing.
      expect((await failure(slow())).cause).toBe(reason);
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.filter((warning) => warning.name === "MaxListenersExceededWarning")).toEqual([]);
    } finally {
      process.off("warning", onWarning);
    }
  });

  it("cancels the call on the server when the run is aborted", async () => {
    const { connection, stderr } = await open("well");
    const controller = new AbortController();
    const pending = run("(tool/well__slow {:ms 60000})", {
      tools: connection.tools,
      signal: controller.signal,
      limits: { timeoutMs: 120_000 },
    });
    await until(() => stderr.some((line) => line.startsWith("in flight: 1")));
    controller.abort();
    const result = await pending;
    expect(!result.ok && result.error.reason).toBe("aborted");
    await until(() => stderr.some((line) => line.startsWith("cancelled ")));
  });
});

describe("tool lists", () => {
  it("lists the tools once more, not once per notice, when a server says its list changed many times", async () => {
    const { connection, stderr } = await open("flood");
    let changes = 0;
    connection.onToolsChanged(() => changes++);
    await connection.tools.flood__flood?.execute({}, {});
    const listings = () => Math.max(...stderr.map((line) => Number(/^listed (\d+)/.exec(line)?.[1] ?? 0)));
    await until(() => changes > 0);
    // Stragglers would come within a few round trips; give them ample time to show up.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(listings()).toBeLessThanOrEqual(3);
    expect(changes).toBeLessThanOrEqual(2);
  });

  it("holds structured content to the output schema of a tool on any page of the list", async () => {
    const { connection } = await open("typed-pages");
    for (const name of ["typed_pages__first", "typed_pages__second"]) {
      const error = await failure(connection.tools[name]?.execute({}, {}));
      expect(error.code).toBe("PTC_MCP_PROTOCOL_ERROR");
      expect(error.message).toContain("does not match the tool's output schema");
    }
  });

  it("names a tool listed twice by the rule, once", async () => {
    const { connection } = await open("dup-list");
    expect(Object.keys(connection.tools).sort()).toEqual([
      "dup_list__echo",
      "dup_list__slow",
      "dup_list__work",
    ]);
    const result = await run('(tool/dup_list__echo {:text "hi"})', { tools: connection.tools });
    expect(result.ok && result.value).toEqual({ tool: "echo", args: { text: "hi" } });
  });

  it("reads every page, and follows tools/list_changed", async () => {
    const { connection } = await open("paged");
    expect(Object.keys(connection.tools).sort()).toEqual([
      "paged__grow",
      "paged__one",
      "paged__three",
      "paged__two",
    ]);
    const changed = new Promise<string[]>((resolve) =>
      connection.onToolsChanged((tools) => resolve(Object.keys(tools))),
    );
    await connection.tools.paged__grow?.execute({}, {});
    expect(await changed).toContain("paged__grown4");
    expect(connection.tools.paged__grown4?.mcp.tool).toBe("grown4");
  });
});
