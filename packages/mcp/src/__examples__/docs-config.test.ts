/**
 * docs/mcp.md's copy-paste configs, run as written: the desktop client's entry starts `ptc-mcp`
 * with `--config ~/.config/ptc/servers.json`, which holds the documented upstream servers; and the
 * agent example. `npx` and `ptc-mcp` are offline stand-ins first on PATH (src/__tests__/stand-ins.ts).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, expect, test, vi } from "vitest";
import { type BuiltCli, buildCli } from "../__tests__/built-cli.js";
import { processGone } from "../__tests__/processes.js";
import { writeStandIns } from "../__tests__/stand-ins.js";
import { unframed } from "../__tests__/unframed.js";

// Starting servers and building the command can take a while on a loaded machine.
vi.setConfig({ hookTimeout: 60_000 });

const guide = readFileSync(new URL("../../../../docs/mcp.md", import.meta.url), "utf8");

/** The code block right after `<!-- marker -->` in the guide. */
function block(marker: string): string {
  const start = guide.indexOf(`<!-- ${marker} -->`);
  if (start === -1) throw new Error(`docs/mcp.md has no <!-- ${marker} --> block`);
  const match = /```\w*\n([\s\S]*?)```/.exec(guide.slice(start));
  if (match?.[1] === undefined) throw new Error(`no code block after <!-- ${marker} -->`);
  return match[1];
}

let cli: BuiltCli;
let home: string;
let bin: string;

beforeAll(async () => {
  cli = await buildCli();
  home = mkdtempSync(join(tmpdir(), "ptc-mcp-docs-"));
  bin = writeStandIns(home, cli.path);
});
afterAll(() => {
  cli.cleanup();
  rmSync(home, { recursive: true, force: true });
});

test("the desktop config and its servers.json run as written", async () => {
  mkdirSync(join(home, ".config", "ptc"), { recursive: true });
  writeFileSync(join(home, ".config", "ptc", "servers.json"), block("servers-config"));
  const desktop = JSON.parse(block("desktop-config")) as {
    mcpServers: { ptc: { command: string; args: string[] } };
  };
  const entry = desktop.mcpServers.ptc;
  const transport = new StdioClientTransport({
    command: entry.command,
    args: entry.args,
    env: { PATH: `${bin}:${process.env.PATH ?? ""}`, HOME: home },
    stderr: "ignore",
  });
  const client = new Client({ name: "desktop", version: "1.0.0" });
  await client.connect(transport);
  const pid = transport.pid as number;
  try {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(["lisp_eval"]);
    expect(tools[0]?.description).toContain("memory__read_graph");
    expect(tools[0]?.description).toContain("everything__echo");
    const program = `
      (tool/memory__create_entities {:entities [{:name "Ada" :entityType "person" :observations []}]})
      {:people (->> (:entities (tool/memory__read_graph {})) (filter #(= (:entityType %) "person")) (map :name))
       :echo (tool/everything__echo {:message "hi"})}`;
    const result = await client.callTool({ name: "lisp_eval", arguments: { program } });
    const body = JSON.parse((result.content as { text: string }[])[0]?.text ?? "null") as {
      status: string;
      result: string;
    };
    expect(unframed(body)).toMatchObject({
      status: "ok",
      result: 'user=> {:echo "Echo: hi" :people ["Ada"]}',
    });
  } finally {
    await client.close();
  }
  expect(await processGone(pid)).toBe(true);
});

test("the agent example runs as written, and docs/mcp.md shows it verbatim", async () => {
  const example = readFileSync(new URL("./agent-over-mcp.ts", import.meta.url), "utf8").trim();
  expect(block("agent-example").trim()).toBe(example);
  const path = process.env.PATH;
  process.env.PATH = `${bin}:${path ?? ""}`;
  const log = vi.spyOn(console, "log").mockImplementation(() => undefined);
  try {
    const { main } = await import("./agent-over-mcp.js");
    expect(await main()).toBe("I know Ada.");
    expect(log).toHaveBeenCalledWith("I know Ada.");
  } finally {
    log.mockRestore();
    process.env.PATH = path;
  }
});
