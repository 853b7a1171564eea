import { createAgent, run } from "@ptc/agent";
import { createScriptedModel } from "@ptc/agent/testing";
import { connectMcpServers } from "@ptc/mcp";

// The same entries a desktop client's "mcpServers" config holds; "ptc" says what PTC may do.
const servers = await connectMcpServers({
  memory: {
    command: "npx",
    args: ["-y", "@modelcontextprotocol/server-memory"],
    ptc: { expose: "both", cache: true },
  },
});

const agent = createAgent({
  prompt: "Remember that Ada wrote the first program, then tell me who you know.",
  output: "text",
  ptcTransport: "tool_call", // combined mode: native tool calls and lisp_eval
  tools: servers.tools, // memory__create_entities, memory__read_graph, ...
});

// A scripted model stands in for a real one (see @ptc/agent/openai for OpenAI-compatible servers).
const model = createScriptedModel([
  {
    toolCalls: [
      {
        id: "1",
        name: "memory__create_entities",
        args: {
          entities: [{ name: "Ada", entityType: "person", observations: ["wrote the first program"] }],
        },
      },
    ],
  },
  {
    toolCalls: [
      {
        id: "2",
        name: "lisp_eval",
        args: { program: "(map :name (:entities (tool/memory__read_graph {})))" },
      },
    ],
  },
  "I know Ada.",
]);

export async function main(): Promise<string> {
  try {
    const result = await run(agent, { llm: model.llm });
    if (!result.ok) throw new Error(`${result.step.fail?.reason}: ${result.step.fail?.message}`);
    console.log(result.step.return); // I know Ada.
    return String(result.step.return);
  } finally {
    await servers.close(); // ends every server process, whatever happened
  }
}
