/**
 * Whose answer a line over the size cap was. The line is never decoded (that is the point of the
 * cap), but a JSON-RPC answer names its request with `id`, and servers put it at one end of the
 * line: first (`{"jsonrpc":"2.0","id":7,"result":...}`, as hand-written servers do) or last
 * (`{"result":...,"jsonrpc":"2.0","id":7}`, as servers built on the SDK do). So the first and last
 * few hundred bytes are enough to fail exactly the call that was answered; without them the only
 * guess was the oldest call in flight, which blamed and cancelled a call that had done nothing
 * wrong and left the real one waiting for its timeout.
 */

/** Bytes kept from each end of an oversized line. */
export const OVERSIZED_END_BYTES = 256;

/**
 * The JSON-RPC error code the transport answers an oversized answer's request with, in the range
 * JSON-RPC leaves to implementations. The connection turns it into `PTC_MCP_RESULT_TOO_LARGE`.
 */
export const ANSWER_TOO_LARGE_CODE = -32_099;

const ID = String.raw`(-?\d+|"(?:[^"\\]|\\.)*")`;
const JSONRPC = String.raw`"jsonrpc"\s*:\s*"2\.0"`;
/** `{"jsonrpc":"2.0","id":7` or `{"id":7` at the very start. */
const ID_FIRST = new RegExp(String.raw`^\s*\{\s*(?:${JSONRPC}\s*,\s*)?"id"\s*:\s*${ID}`);
/** `,"id":7}` or `,"id":7,"jsonrpc":"2.0"}` at the very end: the top-level object's last key. */
const ID_LAST = new RegExp(String.raw`[,{]\s*"id"\s*:\s*${ID}\s*(?:,\s*${JSONRPC}\s*)?\}\s*$`);
/** A request or notification from the server starts with its method (after `jsonrpc`, if any). */
const METHOD_FIRST = new RegExp(String.raw`^\s*\{\s*(?:${JSONRPC}\s*,\s*)?"method"\s*:`);

export type OversizedLine =
  | { readonly kind: "answer"; readonly id: string | number }
  | { readonly kind: "not-an-answer" }
  | { readonly kind: "unknown" };

/** What the two ends of an oversized line say it is; `tail` may be empty while the line runs on. */
export function classifyOversizedLine(head: string, tail: string): OversizedLine {
  if (METHOD_FIRST.test(head)) return { kind: "not-an-answer" };
  const found = ID_FIRST.exec(head) ?? ID_LAST.exec(tail);
  if (found?.[1] === undefined) return { kind: "unknown" };
  return { kind: "answer", id: JSON.parse(found[1]) as string | number };
}
