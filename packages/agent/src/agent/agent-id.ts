/**
 * A short, stable id for an agent definition, so events from many runs of one agent can be
 * grouped: 8 hex characters of a 32-bit FNV-1a hash over its name, prompt, signature, tool names
 * and output mode. (The reference hashes similar fields with SHA-256; any stable hash serves.)
 */
import type { Agent } from "./agent-types.js";

export function agentIdOf(agent: Agent): string {
  const text = [
    agent.name ?? "",
    agent.prompt,
    agent.signature ?? "",
    Object.keys(agent.tools).sort().join(","),
    agent.output,
    agent.ptcTransport,
  ].join("\u0000");
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, "0");
}
