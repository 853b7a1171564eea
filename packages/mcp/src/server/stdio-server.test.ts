/**
 * `ptc-mcp` over stdio, spawned as a desktop client spawns it, with the SDK's own client: listing
 * and calling lisp_eval, a program over the tools of two upstream servers, the session tools,
 * the card as prompt and resource, and no process left behind.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type BuiltCli, buildCli, fixture } from "../__tests__/built-cli.js";
import { processGone } from "../__tests__/processes.js";
import { type ReferenceServers, referenceServers } from "../__tests__/reference-servers.js";
import { unframed } from "../__tests__/unframed.js";

// Starting servers and building the command can take a while on a loaded machine.
vi.setConfig({ hookTimeout: 60_000 });

let cli: BuiltCli;
let servers: ReferenceServers;

beforeAll(async () => {
  cli = await buildCli();
  servers = referenceServers();
});
afterAll(() => {
  cli.cleanup();
  servers.cleanup();
});

interface Started {
  readonly client: Client;
  readonly transport: StdioClientTransport;
  readonly stderr: () => string;
}

async function start(args: string[]): Promise<Started> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cli.path, ...args],
    stderr: "pipe",
  });
  let stderr = "";
  (transport.stderr as Readable).on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const client = new Client({ name: "test-client", version: "1.0.0" });
  await client.connect(transport);
  return { client, transport, stderr: () => stderr };
}

function payload(result: unknown): Record<string, unknown> {
  const content = (result as { content: { type: string; text: string }[] }).content;
  return unframed(JSON.parse(content[0]?.text ?? "null"));
}

describe("ptc-mcp over stdio, no tools", () => {
  let started: Started;
  beforeAll(async () => {
    started = await start([]);
  });
  afterAll(async () => {
    await started.client.close();
  });

  it("lists lisp_eval, its description the reference card", async () => {
    const { tools } = await started.client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(["lisp_eval"]);
    expect(tools[0]?.description).toContain("<ptc_lisp_reference>");
    expect(tools[0]?.description).toContain("No app tools inside");
    expect(tools[0]?.inputSchema.required).toEqual(["program"]);
  });

  it("runs a program and answers with what @ptc/protocol renders", async () => {
    const result = await started.client.callTool({ name: "lisp_eval", arguments: { program: "(+ 1 2)" } });
    expect(result.isError).toBeUndefined();
    expect(payload(result)).toMatchObject({ status: "ok", result: "user=> 3" });
    expect(result.structuredContent).toBeUndefined();
  });

  it("reads context as data/ and checks the value against output_schema", async () => {
    const result = await started.client.callTool({
      name: "lisp_eval",
      arguments: {
        program: "{:total (reduce + (map :amount data/orders)) :n (count data/orders)}",
        context: { orders: [{ amount: 5 }, { amount: 7 }] },
        output_schema: {
          type: "object",
          properties: { total: { type: "integer" }, n: { type: "integer" } },
          required: ["total", "n"],
        },
      },
    });
    expect(payload(result)).toMatchObject({ status: "ok", validated: { total: 12, n: 2 } });
    const wrong = await started.client.callTool({
      name: "lisp_eval",
      arguments: {
        program: '{:total "twelve"}',
        output_schema: { type: "object", properties: { total: { type: "integer" } } },
      },
    });
    expect(wrong.isError).toBe(true);
    expect(payload(wrong)).toMatchObject({ status: "error", reason: "validation_error" });
    expect(payload(wrong).message).toContain("return.total: expected integer, got string");
  });

  it("answers bad arguments, failing programs and unknown tools with errors a model can act on", async () => {
    const missing = await started.client.callTool({ name: "lisp_eval", arguments: {} });
    expect(payload(missing)).toMatchObject({
      reason: "args_error",
      message: "lisp_eval requires a non-empty `program` string argument.",
    });
    const badContext = await started.client.callTool({
      name: "lisp_eval",
      arguments: { program: "1", context: { "a/b": 1 } },
    });
    expect(payload(badContext).message).toContain('without "/"');
    const failed = await started.client.callTool({
      name: "lisp_eval",
      arguments: { program: '(fail {:why "no data"})' },
    });
    expect(payload(failed)).toMatchObject({ reason: "fail", result: '{:why "no data"}' });
    const parse = await started.client.callTool({ name: "lisp_eval", arguments: { program: "(+ 1" } });
    expect(payload(parse)).toMatchObject({ reason: "parse_error" });
    const unknown = await started.client.callTool({ name: "lisp_evaluate", arguments: {} });
    expect(unknown.isError).toBe(true);
    expect(payload(unknown)).toMatchObject({
      reason: "unknown_tool",
      message: "unknown tool: lisp_evaluate",
    });
    expect(payload(unknown).feedback).toContain("This server's tools are: lisp_eval");
  });

  it("offers the card as a prompt and as a resource", async () => {
    const { prompts } = await started.client.listPrompts();
    expect(prompts.map((prompt) => prompt.name)).toEqual(["ptc_lisp_reference"]);
    const prompt = await started.client.getPrompt({ name: "ptc_lisp_reference" });
    expect((prompt.messages[0]?.content as { text?: string } | undefined)?.text).toContain(
      "<ptc_lisp_reference>",
    );
    const resource = await started.client.readResource({ uri: "ptc://reference-card" });
    expect((resource.contents[0] as { text: string }).text).toContain("<ptc_lisp_reference>");
  });
});

describe("ptc-mcp over stdio as an aggregator", () => {
  it("calls the tools of two upstream servers in one program and gets data, then leaves no process behind", async () => {
    const config = join(servers.folder, "servers.json");
    writeFileSync(
      config,
      JSON.stringify({ mcpServers: { memory: servers.memory, filesystem: servers.filesystem } }),
    );
    writeFileSync(join(servers.folder, "team.json"), JSON.stringify(["Ada", "Grace"]));
    const started = await start(["--config", config, "--tools", fixture("tools.mjs")]);
    const serverPid = started.transport.pid as number;
    try {
      const { tools } = await started.client.listTools();
      // Programs-only by default: upstream tools are not listed natively, the card lists them;
      // the module's search_logs declares expose "both" itself, so it is listed too.
      expect(tools.map((tool) => tool.name)).toEqual(["lisp_eval", "search_logs"]);
      expect(tools[0]?.description).toContain("- tool/memory__search_nodes");
      expect(tools[0]?.description).toContain("- tool/filesystem__read_text_file");

      const program = `
        (def team (json/parse-string (:content (tool/filesystem__read_text_file {:path "${join(servers.folder, "team.json")}"}))))
        (tool/memory__create_entities {:entities (mapv (fn [n] {:name n :entityType "engineer" :observations []}) team)})
        (tool/noisy {})
        (->> (tool/memory__read_graph {}) :entities (filter #(= (:entityType %) "engineer")) (map :name) sort)`;
      const result = await started.client.callTool({ name: "lisp_eval", arguments: { program } });
      expect(payload(result)).toMatchObject({ status: "ok", result: 'user=> ["Ada" "Grace"]' });
      // What the noisy tool printed went to stderr, not into the protocol.
      expect(started.stderr()).toContain("noisy tool says hello");
    } finally {
      await started.client.close();
    }
    const upstreamPids = [...started.stderr().matchAll(/upstream \w+: \d+ tools \(pid (\d+)\)/g)].map(
      (match) => Number(match[1]),
    );
    expect(upstreamPids).toHaveLength(2);
    for (const pid of [serverPid, ...upstreamPids]) expect(await processGone(pid)).toBe(true);
  });

  it("reports an upstream that fails to start, on stderr and in the description, and serves the others", async () => {
    const config = join(servers.folder, "partly-broken.json");
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: {
          memory: servers.memory,
          broken: { command: "/no/such/server" },
          off: { command: "x", disabled: true },
        },
      }),
    );
    const started = await start(["--config", config]);
    try {
      const { tools } = await started.client.listTools();
      expect(tools[0]?.description).toContain(
        "Upstream MCP servers that did not start (their tools are missing): broken (broken: could not start",
      );
      expect(started.stderr()).toContain("upstream broken did not start");
      const result = await started.client.callTool({
        name: "lisp_eval",
        arguments: { program: "(count (:entities (tool/memory__read_graph {})))" },
      });
      expect(payload(result)).toMatchObject({ status: "ok" });
    } finally {
      await started.client.close();
    }
  });
});

describe("a config that starts ptc-mcp with itself", () => {
  it("stops the chain a few levels down instead of starting processes forever", async () => {
    const config = join(servers.folder, "self.json");
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: { self: { command: process.execPath, args: [cli.path, "--config", config] } },
      }),
    );
    const started = await start(["--config", config]);
    try {
      const { tools } = await started.client.listTools();
      // The first level serves its upstream ptc-mcp's lisp_eval; the chain ends three levels down.
      expect(tools[0]?.description).toContain("- tool/self__lisp_eval");
      expect(started.stderr()).toContain("a chain of ptc-mcp aggregators");
    } finally {
      await started.client.close();
    }
  });
});

describe("session tools over stdio", () => {
  it("keeps defs and *1 across calls, and a failed program changes nothing", async () => {
    const started = await start(["--sessions"]);
    const call = async (name: string, args: Record<string, unknown>) =>
      payload(await started.client.callTool({ name, arguments: args }));
    try {
      const names = (await started.client.listTools()).tools.map((tool) => tool.name);
      expect(names).toEqual([
        "lisp_eval",
        "lisp_session_start",
        "lisp_session_eval",
        "lisp_session_list",
        "lisp_session_inspect",
        "lisp_session_forget",
        "lisp_session_close",
      ]);
      const started1 = await call("lisp_session_start", { title: "sums" });
      const id = started1.session_id as string;
      expect(id).toMatch(/^ptcs_[A-Za-z0-9_-]{24}$/);
      expect(
        await call("lisp_session_eval", { session_id: id, program: "(def xs [1 2 3]) (reduce + xs)" }),
      ).toMatchObject({
        status: "ok",
        result: "user=> 6",
        memory: { stored_keys: ["xs"] },
        session: { session_id: id, turn: 1 },
      });
      expect(await call("lisp_session_eval", { session_id: id, program: "(+ *1 (count xs))" })).toMatchObject(
        { result: "user=> 9" },
      );
      expect(
        await call("lisp_session_eval", { session_id: id, program: "(def xs [99]) (undefined-fn)" }),
      ).toMatchObject({
        status: "error",
        session: { turn: 2 },
      });
      // (fail v) is a failure too: its def is not kept (the reference committed it).
      expect(
        await call("lisp_session_eval", { session_id: id, program: '(def kept 1) (fail "no")' }),
      ).toMatchObject({
        reason: "fail",
      });
      expect(await call("lisp_session_eval", { session_id: id, program: "kept" })).toMatchObject({
        status: "error",
      });
      expect(await call("lisp_session_inspect", { session_id: id })).toMatchObject({
        bindings: { xs: "[1 2 3]" },
        history: [
          { name: "*1", preview: "9" },
          { name: "*2", preview: "6" },
        ],
      });
      // lisp_eval stays stateless beside the sessions.
      expect(await call("lisp_eval", { program: "xs" })).toMatchObject({ status: "error" });
      expect(await call("lisp_session_list", {})).toMatchObject({
        count: 1,
        sessions: [{ session_id: id, title: "sums", turn: 2 }],
      });
      expect(await call("lisp_session_forget", { session_id: id, bindings: ["xs"] })).toMatchObject({
        removed: ["xs"],
        stored_keys: [],
      });
      expect(await call("lisp_session_close", { session_id: id })).toMatchObject({ closed: true });
      expect(await call("lisp_session_eval", { session_id: id, program: "1" })).toMatchObject({
        reason: "session_closed",
      });
      expect(await call("lisp_session_eval", { session_id: "ptcs_nope", program: "1" })).toMatchObject({
        reason: "session_not_found",
      });
    } finally {
      await started.client.close();
    }
  });
});
