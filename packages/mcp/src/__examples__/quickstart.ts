import { format, run } from "@ptc/lisp";
import { connectMcpServer } from "@ptc/mcp";

export async function main(): Promise<string> {
  // Any MCP server: started over stdio here; { url } reaches one over Streamable HTTP.
  const memory = await connectMcpServer("memory", {
    command: "npx",
    args: ["-y", "@modelcontextprotocol/server-memory"],
  });
  try {
    const result = await run(
      `(tool/memory__create_entities {:entities [{:name "Ada" :entityType "person" :observations []}]})
       (->> (:entities (tool/memory__read_graph {})) (map :name))`,
      { tools: memory.tools, limits: { timeoutMs: 10_000 } },
    );
    if (!result.ok) throw new Error(`${result.error.reason}: ${result.error.message}`);
    console.log(format(result.value)); // ["Ada"]: the server's data, not an MCP envelope
    return format(result.value);
  } finally {
    await memory.close(); // ends the server process
  }
}
