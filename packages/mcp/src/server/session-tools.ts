/**
 * The `lisp_session_*` tools (`--sessions`), in the reference's shape: start a session, run
 * programs in it (`def`s and `*1 *2 *3` persist; a failed program changes nothing), list, inspect,
 * forget bindings, close. Every answer is a `{status, ...}` JSON payload, errors included.
 */
import type { Tool as ListedMcpTool } from "@modelcontextprotocol/sdk/types.js";
import type { Session } from "@ptc/lisp";
import type { EvalOutcome } from "./lisp-eval.js";
import { type LispSessionStore, previewValue, type SessionEntry, summary } from "./lisp-sessions.js";
import type { SessionToolName } from "./session-tool-names.js";
import { errorPayload } from "./tool-results.js";

const SESSION_ID = { type: "string", description: "The id lisp_session_start returned." };

export function sessionToolDefinitions(): ListedMcpTool[] {
  return [
    {
      name: "lisp_session_start",
      description: "Start a PTC-Lisp session: defs and *1 *2 *3 then persist across lisp_session_eval calls.",
      inputSchema: {
        type: "object",
        properties: { title: { type: "string", description: "A name to recognize the session by." } },
        additionalProperties: false,
      },
    },
    {
      name: "lisp_session_eval",
      description:
        "Run a PTC-Lisp program in a session (as lisp_eval, with the session's defs and *1 *2 *3). A program that fails leaves the session as it was.",
      inputSchema: {
        type: "object",
        properties: {
          session_id: SESSION_ID,
          program: { type: "string", description: "PTC-Lisp source code." },
          context: {
            type: "object",
            additionalProperties: true,
            description: "Data readable as data/<key>.",
          },
          output_schema: { type: "object", description: "A JSON Schema the program's value must satisfy." },
        },
        required: ["session_id", "program"],
      },
    },
    {
      name: "lisp_session_list",
      description: "List this client's sessions, most recently used first.",
      inputSchema: { type: "object", properties: {}, additionalProperties: false },
    },
    {
      name: "lisp_session_inspect",
      description: "Show a session's bindings and *1 *2 *3, as short previews.",
      inputSchema: { type: "object", properties: { session_id: SESSION_ID }, required: ["session_id"] },
    },
    {
      name: "lisp_session_forget",
      description: "Remove bindings from a session (all of them when `bindings` is left out).",
      inputSchema: {
        type: "object",
        properties: { session_id: SESSION_ID, bindings: { type: "array", items: { type: "string" } } },
        required: ["session_id"],
      },
    },
    {
      name: "lisp_session_close",
      description: "Close a session and drop its state.",
      inputSchema: { type: "object", properties: { session_id: SESSION_ID }, required: ["session_id"] },
    },
  ];
}

function ok(payload: Record<string, unknown>): EvalOutcome {
  return { ok: true, text: JSON.stringify({ status: "ok", ...payload }), committed: false };
}

function failed(reason: string, message: string): EvalOutcome {
  return { ok: false, text: errorPayload(reason, message), committed: false };
}

export async function callSessionTool(
  name: SessionToolName,
  args: Record<string, unknown>,
  store: LispSessionStore,
  evaluate: (session: Session) => Promise<EvalOutcome>,
): Promise<EvalOutcome> {
  if (name === "lisp_session_start") {
    if (args.title !== undefined && typeof args.title !== "string") {
      return failed("args_error", "lisp_session_start `title` must be a string");
    }
    const started = store.start(args.title as string | undefined);
    if (!started.ok) return failed(started.reason, started.message);
    return ok(summary(started.entry));
  }
  if (name === "lisp_session_list") {
    const sessions = store.list();
    return ok({ count: sessions.length, sessions: sessions.map(summary) });
  }
  const found = store.get(args.session_id);
  if (!found.ok) return failed(found.reason, found.message);
  const entry: SessionEntry = found.entry;
  switch (name) {
    case "lisp_session_eval": {
      if (entry.running) {
        return failed(
          "session_busy",
          "a program is already running in this session; wait for its answer, then send this one",
        );
      }
      entry.running = true;
      try {
        const outcome = await evaluate(entry.session);
        if (outcome.committed) entry.turn++;
        store.touch(entry);
        // The payload gains the session's id and turn, so a model never loses track of them.
        const payload = JSON.parse(outcome.text) as Record<string, unknown>;
        payload.session = { session_id: entry.id, turn: entry.turn };
        return { ...outcome, text: JSON.stringify(payload) };
      } finally {
        entry.running = false;
      }
    }
    case "lisp_session_inspect": {
      store.touch(entry);
      const bindings: Record<string, string> = {};
      for (const [binding, value] of Object.entries(entry.session.bindings()))
        bindings[binding] = previewValue(value);
      const history = entry.session
        .history()
        .map((value, index) => ({ name: `*${index + 1}`, preview: previewValue(value) }));
      return ok({ session: summary(entry), bindings, history });
    }
    case "lisp_session_forget": {
      const names = args.bindings;
      if (names !== undefined && (!Array.isArray(names) || names.some((item) => typeof item !== "string"))) {
        return failed("args_error", "lisp_session_forget `bindings` must be an array of binding names");
      }
      if (entry.running)
        return failed("session_busy", "a program is running in this session; forget after it ends");
      const removed = store.forget(entry, names as string[] | undefined);
      store.touch(entry);
      return ok({ session_id: entry.id, removed, stored_keys: entry.session.names() });
    }
    case "lisp_session_close":
      store.close(entry);
      return ok({ session_id: entry.id, closed: true });
    default:
      return failed("unknown_tool", `unknown session tool ${name}`);
  }
}
