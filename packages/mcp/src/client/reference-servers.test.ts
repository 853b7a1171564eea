import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { run } from "@ptc/lisp";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { processGone } from "../__tests__/processes.js";
import { type ReferenceServers, referenceServers } from "../__tests__/reference-servers.js";
import { isPtcMcpError } from "../errors.js";
import { connectMcpServer, type McpConnection } from "./connection.js";
import { connectMcpServers, type McpServerGroup } from "./server-group.js";

// Starting servers and building the command can take a while on a loaded machine.
vi.setConfig({ hookTimeout: 60_000 });

let servers: ReferenceServers;
let group: McpServerGroup;

beforeAll(async () => {
  servers = referenceServers();
  group = await connectMcpServers({
    memory: servers.memory,
    filesystem: servers.filesystem,
    everything: servers.everything,
  });
});

afterAll(async () => {
  const pids = Object.values(group.connections).map((connection) => connection.pid);
  await group.close();
  for (const pid of pids) if (pid !== undefined) await processGone(pid);
  servers.cleanup();
});

function succeeded(result: Awaited<ReturnType<typeof run>>): unknown {
  if (!result.ok) throw new Error(`${result.error.reason}: ${result.error.message}`);
  return result.value;
}

describe("the reference servers' tools as PTC tools", () => {
  it("lists every tool under <server>__<tool>, with a signature from its schemas", () => {
    expect(group.failures).toEqual({});
    const names = Object.keys(group.tools);
    expect(names).toContain("memory__create_entities");
    expect(names).toContain("filesystem__read_text_file");
    // Names that are not symbols stay usable: everything's `get-sum` keeps its hyphen.
    expect(names).toContain("everything__get-sum");
    const search = group.tools.memory__search_nodes;
    expect(search?.signature).toMatch(/^\(query :string\) -> \{entities \[/);
    expect(search?.mcp).toMatchObject({ server: "memory", tool: "search_nodes" });
    expect(group.tools["everything__get-sum"]?.signature).toBe("(a :float, b :float) -> :any");
  });

  it("gives programs structuredContent as data (the memory server)", async () => {
    const result = await run(
      `(tool/memory__create_entities {:entities [{:name "Ada" :entityType "person" :observations ["math"]}
                                                 {:name "Alan" :entityType "person" :observations ["logic"]}]})
       (->> (:entities (tool/memory__read_graph {}))
            (filter #(= (:entityType %) "person"))
            (map :name)
            sort)`,
      { tools: group.tools, limits: { timeoutMs: 10_000 } },
    );
    expect(succeeded(result)).toEqual(["Ada", "Alan"]);
  });

  it("gives text wrapped in structuredContent as the server's map (the filesystem server)", async () => {
    writeFileSync(join(servers.folder, "note.txt"), "hello from a file");
    const path = join(servers.folder, "note.txt");
    const result = await run(`(tool/filesystem__read_text_file {:path "${path}"})`, {
      tools: group.tools,
      limits: { timeoutMs: 10_000 },
    });
    expect(succeeded(result)).toEqual({ content: "hello from a file" });
  });

  it("parses plain text content as JSON when it parses, and keeps it as a string when not", async () => {
    const sum = await run("(tool/everything__get-sum {:a 2 :b 3})", {
      tools: group.tools,
      limits: { timeoutMs: 10_000 },
    });
    expect(succeeded(sum)).toBe("The sum of 2 and 3 is 5.");
    const echoed = await run(`(tool/everything__echo {:message "[1, 2, 3]"})`, {
      tools: group.tools,
      limits: { timeoutMs: 10_000 },
    });
    // echo answers "Echo: [1, 2, 3]", which is not JSON.
    expect(succeeded(echoed)).toBe("Echo: [1, 2, 3]");
  });

  it("turns images and resource links into the documented map", async () => {
    const image = await group.tools["everything__get-tiny-image"]?.execute({}, {});
    expect(image).toMatchObject({
      images: [{ mimeType: "image/png", data: expect.any(String) }],
      text: expect.any(Array),
    });
    const links = (await group.tools["everything__get-resource-links"]?.execute({ count: 2 }, {})) as {
      links: { uri: string; name: string }[];
    };
    expect(links.links).toHaveLength(2);
    expect(links.links[0]).toMatchObject({ uri: expect.any(String), name: expect.any(String) });
  });

  it("reports isError as a tool error with the server's text", async () => {
    const result = await run(`(tool/filesystem__read_text_file {:path "/etc/hostname"})`, {
      tools: group.tools,
      limits: { timeoutMs: 10_000 },
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.reason).toBe("tool_error");
    expect(result.error.message).toContain("Access denied - path outside allowed directories");
  });

  it("checks arguments against the input schema before calling the server", async () => {
    const result = await run("(tool/everything__get-sum {:a 2})", { tools: group.tools });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.reason).toBe("invalid_tool_args");
    expect(result.error.message).toContain("b: missing (a required argument)");
    // The call is recorded as refused; the server never saw it (it would have answered otherwise).
    expect(result.toolCalls.map((call) => "error" in call && call.error)).toEqual([
      expect.stringContaining("do not fit"),
    ]);
    const typed = await run(`(tool/everything__get-sum {:a "two" :b 3})`, { tools: group.tools });
    expect(!typed.ok && typed.error.message).toContain("a: expected number, got string");
  });

  it("suggests the nearest tool for a misspelled name", async () => {
    const result = await run("(tool/memory__read_grahp {})", { tools: group.tools });
    expect(!result.ok && result.error.message).toContain("Did you mean tool/memory__read_graph?");
  });

  it("calls the tools of two servers in one program and gets data from both", async () => {
    writeFileSync(
      join(servers.folder, "people.json"),
      JSON.stringify([{ name: "Grace" }, { name: "Edsger" }]),
    );
    const path = join(servers.folder, "people.json");
    const result = await run(
      `(let [people (:content (tool/filesystem__read_text_file {:path "${path}"}))
             names (map :name (json/parse-string people))]
         (tool/memory__create_entities {:entities (mapv (fn [n] {:name n :entityType "person" :observations []}) names)})
         (->> (tool/memory__search_nodes {:query "person"}) :entities (map :name) sort vec))`,
      { tools: group.tools, limits: { timeoutMs: 10_000 } },
    );
    expect(succeeded(result)).toEqual(expect.arrayContaining(["Edsger", "Grace"]));
  });

  it("gives the host the raw envelope only when it asks", async () => {
    const raw = await connectMcpServer("rawsum", {
      ...servers.everything,
      ptc: { tools: { "get-sum": { raw: true } } },
    });
    try {
      const value = await raw.tools["rawsum__get-sum"]?.execute({ a: 1, b: 1 }, {});
      expect(value).toEqual({ content: [{ type: "text", text: "The sum of 1 and 1 is 2." }] });
      expect(await raw.tools.rawsum__echo?.execute({ message: "x" }, {})).toBe("Echo: x");
    } finally {
      await raw.close();
    }
  });
});

describe("connecting", () => {
  it("reports a server that cannot start with a clear error, and leaves the others serving", async () => {
    const mixed = await connectMcpServers({
      broken: { command: "/definitely/not/a/command" },
      memory: servers.memory,
    });
    try {
      expect(Object.keys(mixed.connections)).toEqual(["memory"]);
      const failure = mixed.failures.broken;
      expect(isPtcMcpError(failure) && failure.code).toBe("PTC_MCP_UNAVAILABLE");
      expect(failure?.message).toContain('command not found: "/definitely/not/a/command"');
      expect(Object.keys(mixed.tools).every((name) => name.startsWith("memory__"))).toBe(true);
    } finally {
      await mixed.close();
    }
  });

  it("ends the server process when the connection closes", async () => {
    const connection: McpConnection = await connectMcpServer("memory", servers.memory);
    const pid = connection.pid;
    expect(pid).toBeTypeOf("number");
    await connection.close();
    expect(await processGone(pid as number)).toBe(true);
    const late: unknown = await Promise.resolve(connection.tools.memory__read_graph?.execute({}, {})).catch(
      (error: unknown) => error,
    );
    expect(isPtcMcpError(late) && late.code).toBe("PTC_MCP_CLOSED");
  });
});
