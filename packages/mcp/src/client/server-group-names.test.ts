/**
 * Tool names from different servers of one group must not meet: the group merges the servers'
 * tools by name, so a name two servers give would leave one tool unreachable and send the calls
 * meant for it to the other. Server `a` (prefix `a__`) with a tool `b__echo`, and server `a__b`
 * (prefix `a__b__`) with a tool `echo` both give `a__b__echo`: a group whose prefixes start one
 * with the other is refused before any server starts, saying which servers and what to rename.
 */
import { describe, expect, it } from "vitest";
import { fixture } from "../__tests__/built-cli.js";
import { isPtcMcpError, type PtcMcpError } from "../errors.js";
import type { McpServerConfig } from "./server-config.js";
import { type ConnectServersOptions, connectMcpServers } from "./server-group.js";

const fake = (mode: string, ptc?: McpServerConfig["ptc"]): McpServerConfig => ({
  command: process.execPath,
  args: [fixture("fake-server.mjs"), mode],
  ...(ptc === undefined ? {} : { ptc }),
});

async function refusal(
  servers: Record<string, McpServerConfig>,
  options: ConnectServersOptions = {},
): Promise<PtcMcpError> {
  let group: Awaited<ReturnType<typeof connectMcpServers>> | undefined;
  try {
    group = await connectMcpServers(servers, options);
  } catch (error) {
    if (isPtcMcpError(error)) return error;
    throw error;
  }
  const names = Object.keys(group.tools).sort();
  await group.close();
  throw new Error(`expected the group to be refused; it connected with tools ${names.join(", ")}`);
}

describe("tool names across the servers of a group", () => {
  it("refuses servers whose prefixes start one with the other", { timeout: 60_000 }, async () => {
    const error = await refusal({ a: fake("nested"), a__b: fake("well") });
    expect(error.code).toBe("PTC_MCP_INVALID_CONFIG");
    expect(error.message).toContain('servers "a" and "a__b"');
    expect(error.message).toContain('begin with "a__b__", which starts with "a__"');
    expect(error.message).toContain('"ptc.prefix"');
    expect(error.details).toMatchObject({ servers: ["a", "a__b"], prefixes: ["a__", "a__b__"] });
  });

  it("compares prefixes as names are written (other characters become _)", async () => {
    const error = await refusal({ "a.b": fake("well"), a_b: fake("well") });
    expect(error.message).toContain('servers "a.b" and "a_b"');
  });

  it("refuses a bare prefix next to any other server", async () => {
    const error = await refusal({ bare: fake("nested", { prefix: "" }), a: fake("well") });
    expect(error.message).toContain('servers "a" and "bare"');
  });

  it("counts the group's default prefix as the prefix of a server without its own", async () => {
    const error = await refusal({ one: fake("well"), two: fake("well") }, { defaults: { prefix: "" } });
    expect(error.message).toContain('servers "one" and "two"');
    expect(error.message).toContain('the names of both servers\' tools begin with ""');
  });

  it("connects servers whose prefixes are apart, and a renamed one", { timeout: 60_000 }, async () => {
    const group = await connectMcpServers({ a: fake("nested"), a__b: fake("well", { prefix: "ab__" }) });
    try {
      expect(Object.keys(group.failures)).toEqual([]);
      expect(Object.keys(group.tools)).toContain("a__b__echo");
      expect(Object.keys(group.tools)).toContain("ab__echo");
      expect(group.tools.a__b__echo?.mcp).toMatchObject({ server: "a", tool: "b__echo" });
      expect(group.tools.ab__echo?.mcp).toMatchObject({ server: "a__b", tool: "echo" });
    } finally {
      await group.close();
    }
  });
});
