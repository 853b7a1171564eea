/**
 * The PTC-Lisp sessions of one MCP client (`--sessions`): `def`s and `*1 *2 *3` that last across
 * `lisp_session_eval` calls. Each client has its own store (a stdio process has one client; over
 * HTTP each MCP session has one), so no client can read or close another's sessions. A session
 * unused for longer than the idle timeout is dropped when the store is next touched; the number
 * of sessions per client is bounded. A failed program leaves its session as it was.
 */
import { randomBytes } from "node:crypto";
import { createSession, preview, type Session } from "@ptc/lisp";

export interface SessionLimits {
  /** Sessions one client may hold at once. Default 16. */
  readonly maxSessions: number;
  /** A session not used for this long is dropped. Default 15 minutes. */
  readonly idleTimeoutMs: number;
}

export const DEFAULT_SESSION_LIMITS: SessionLimits = { maxSessions: 16, idleTimeoutMs: 15 * 60 * 1000 };

export interface SessionEntry {
  readonly id: string;
  readonly title: string | undefined;
  readonly createdAt: number;
  updatedAt: number;
  turn: number;
  running: boolean;
  session: Session;
}

export type SessionLookup =
  | { readonly ok: true; readonly entry: SessionEntry }
  | { readonly ok: false; readonly reason: string; readonly message: string };

const PREVIEW_CHARS = 200;

export class LispSessionStore {
  private readonly entries = new Map<string, SessionEntry>();
  /** Ids of sessions that were closed or expired, to tell "closed" from "never existed". */
  private readonly ended = new Map<string, "closed" | "expired">();

  constructor(private readonly limits: SessionLimits = DEFAULT_SESSION_LIMITS) {}

  private sweep(now: number): void {
    for (const [id, entry] of this.entries) {
      if (!entry.running && now - entry.updatedAt > this.limits.idleTimeoutMs) {
        this.entries.delete(id);
        this.remember(id, "expired");
      }
    }
  }

  private remember(id: string, how: "closed" | "expired"): void {
    this.ended.set(id, how);
    // Bounded: the oldest tombstones go first.
    if (this.ended.size > 1024) this.ended.delete(this.ended.keys().next().value as string);
  }

  start(title: string | undefined): SessionLookup {
    const now = Date.now();
    this.sweep(now);
    if (this.entries.size >= this.limits.maxSessions) {
      return {
        ok: false,
        reason: "session_limit",
        message: `this client already holds ${this.limits.maxSessions} sessions, the most allowed; close one with lisp_session_close (lisp_session_list shows them)`,
      };
    }
    const id = `ptcs_${randomBytes(18).toString("base64url")}`;
    const entry: SessionEntry = {
      id,
      title,
      createdAt: now,
      updatedAt: now,
      turn: 0,
      running: false,
      session: createSession(),
    };
    this.entries.set(id, entry);
    return { ok: true, entry };
  }

  get(id: unknown): SessionLookup {
    this.sweep(Date.now());
    if (typeof id !== "string" || id === "") {
      return {
        ok: false,
        reason: "args_error",
        message: "`session_id` must be the non-empty string lisp_session_start returned",
      };
    }
    const entry = this.entries.get(id);
    if (entry !== undefined) return { ok: true, entry };
    const ended = this.ended.get(id);
    return ended === undefined
      ? {
          ok: false,
          reason: "session_not_found",
          message: `no session ${JSON.stringify(id)}; start one with lisp_session_start (lisp_session_list shows yours)`,
        }
      : {
          ok: false,
          reason: "session_closed",
          message: `session ${JSON.stringify(id)} was ${ended === "closed" ? "closed" : `dropped after ${Math.round(this.limits.idleTimeoutMs / 1000)} s unused`}; start a new one with lisp_session_start`,
        };
  }

  touch(entry: SessionEntry): void {
    entry.updatedAt = Date.now();
  }

  list(): SessionEntry[] {
    this.sweep(Date.now());
    return [...this.entries.values()].sort((a, b) => b.updatedAt - a.updatedAt);
  }

  close(entry: SessionEntry): void {
    this.entries.delete(entry.id);
    this.remember(entry.id, "closed");
  }

  /** Drops bindings by name, keeping the rest and the history; returns the names removed. */
  forget(entry: SessionEntry, names: readonly string[] | undefined): string[] {
    const bindings = entry.session.bindings();
    const removed = names === undefined ? Object.keys(bindings) : names.filter((name) => name in bindings);
    const kept: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(bindings)) if (!removed.includes(name)) kept[name] = value;
    entry.session = createSession({
      bindings: kept,
      history: entry.session.history(),
      journal: entry.session.journalEntries(),
    });
    return removed;
  }

  closeAll(): void {
    for (const entry of this.entries.values()) this.remember(entry.id, "closed");
    this.entries.clear();
  }
}

/** A short Clojure preview of a value, for listings. */
export function previewValue(value: unknown): string {
  return preview(value, { maxChars: PREVIEW_CHARS, maxItems: 20, maxTotalChars: PREVIEW_CHARS }).text;
}

export function summary(entry: SessionEntry): Record<string, unknown> {
  return {
    session_id: entry.id,
    ...(entry.title === undefined ? {} : { title: entry.title }),
    turn: entry.turn,
    created_at: new Date(entry.createdAt).toISOString(),
    updated_at: new Date(entry.updatedAt).toISOString(),
    eval_status: entry.running ? "running" : "idle",
    binding_count: entry.session.names().length,
  };
}
