/**
 * What a thrown value says, read so that reading it cannot throw. A host tool may throw anything:
 * an Error whose `message` is a getter that throws, a revoked Proxy (every operation on it
 * throws, `instanceof` included), an object whose `toString` throws. The isolation host serves
 * tool calls from an event handler, where an exception would take the host process down, so it
 * reads every error through here. This module must never throw.
 */
import { LispError } from "../errors.js";

const UNREADABLE = "the tool threw a value that cannot be read (not an Error, not text)";

function attempt<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch {
    return undefined;
  }
}

/** The text of a thrown value: its message, the text itself, its JSON, or a fixed description. */
export function thrownText(error: unknown): string {
  const isError = attempt(() => error instanceof Error) === true;
  if (isError) {
    const message = attempt(() => (error as Error).message);
    if (typeof message === "string") return message;
    const name = attempt(() => (error as Error).name);
    return `${typeof name === "string" ? name : "Error"} (its message could not be read)`;
  }
  if (typeof error === "string") return error;
  const json = attempt(() => JSON.stringify(error));
  if (typeof json === "string") return json;
  const text = attempt(() => String(error));
  return typeof text === "string" ? text : UNREADABLE;
}

/** The reason of a thrown LispError, when it is one (and can be asked). */
export function thrownReason(error: unknown): LispError["reason"] | undefined {
  return attempt(() => (error instanceof LispError ? error.reason : undefined));
}
