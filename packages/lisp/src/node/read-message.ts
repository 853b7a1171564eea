/**
 * Reads a message from an isolation worker before the host acts on it. The worker is our own
 * code, but it shares its thread with the program, and a message the host misreads inside an
 * event handler would throw there and take the host process down. So the shape is checked
 * (a type the host knows, numeric ids, text where text is due) and anything else is reported as
 * not understood, which the host treats as a broken worker. This module must never throw.
 */
import type { ErrorReason } from "../errors.js";
import type { SessionState, WorkerMessage } from "./protocol.js";

export type ReadMessage = { readonly ok: true; readonly message: WorkerMessage } | { readonly ok: false };

function isId(value: unknown): value is number {
  return typeof value === "number" && Number.isSafeInteger(value);
}

function isState(value: unknown): value is SessionState {
  return typeof value === "object" && value !== null && "bindings" in value && "history" in value;
}

export function readWorkerMessage(data: unknown): ReadMessage {
  if (typeof data !== "object" || data === null) return { ok: false };
  const message = data as Record<string, unknown>;
  if (!isId(message.run)) return { ok: false };
  const run = message.run;
  switch (message.type) {
    case "started":
    case "finished":
      return { ok: true, message: { type: message.type, run } };
    case "tool-call":
      if (!isId(message.call) || typeof message.name !== "string") return { ok: false };
      if (message.position !== undefined && typeof message.position !== "string") return { ok: false };
      return {
        ok: true,
        message:
          message.position === undefined
            ? { type: "tool-call", run, call: message.call, name: message.name, args: message.args }
            : {
                type: "tool-call",
                run,
                call: message.call,
                name: message.name,
                args: message.args,
                position: message.position,
              },
      };
    case "result":
      if (message.state !== undefined && !isState(message.state)) return { ok: false };
      return {
        ok: true,
        message:
          message.state === undefined
            ? { type: "result", run, result: message.result }
            : { type: "result", run, result: message.result, state: message.state },
      };
    case "fault":
      if (typeof message.message !== "string") return { ok: false };
      return {
        ok: true,
        message: {
          type: "fault",
          run,
          reason: typeof message.reason === "string" ? (message.reason as ErrorReason) : undefined,
          message: message.message,
        },
      };
    default:
      return { ok: false };
  }
}
