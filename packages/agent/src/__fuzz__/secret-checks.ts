/**
 * The metadata policy seen from the model's side (docs/combined-mode.md, "Previews": the metadata
 * preview shows "`result_count`, a JSON-Schema-like `schema`, `sample_keys`; no values at all").
 * A value of a tool under that policy may reach the model only through a program: the answer to a
 * `lisp_eval` call, which is where a program's prints and value come back. So the secret marker,
 * which only such tools' results hold (never their keys, never their errors), may appear in a
 * request only inside a tool message answering a `lisp_eval` call; never in the system prompt, a
 * user message, or the answer to a native call.
 */
import type { ModelRequest } from "../index.js";
import { BoundaryBroken } from "./boundary-checks.js";
import { SECRET } from "./hostile-value.js";

export function expectSecretKept(requests: readonly ModelRequest[]): void {
  for (const [index, request] of requests.entries()) {
    const where = `request ${index + 1}`;
    if (request.system.includes(SECRET))
      throw new BoundaryBroken(`${where}: the system prompt holds the secret`);
    // Which tool each call id names, from the assistant messages of this request.
    const toolOfCall = new Map<string, string>();
    for (const message of request.messages) {
      for (const call of message.toolCalls ?? []) toolOfCall.set(call.id, call.name);
    }
    for (const [position, message] of request.messages.entries()) {
      if (!message.content.includes(SECRET)) continue;
      const answered = message.toolCallId === undefined ? undefined : toolOfCall.get(message.toolCallId);
      if (message.role === "tool" && answered === "lisp_eval") continue;
      throw new BoundaryBroken(
        `${where}, message ${position + 1} (${message.role}${answered === undefined ? "" : `, answering ${answered}`}) holds the secret: ${excerpt(message.content)}`,
      );
    }
  }
}

function excerpt(text: string): string {
  const at = text.indexOf(SECRET);
  return JSON.stringify(text.slice(Math.max(0, at - 300), at + SECRET.length + 100));
}
