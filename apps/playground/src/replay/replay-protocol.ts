/**
 * The replay of the demo's combined-mode conversation as plain data: per turn, what the model saw
 * that it had not seen before, how many context tokens its request held (and would have held with
 * every native result inlined in full), and what it answered; then the token table. Built in a
 * worker (replay-worker.ts), rendered by replay-view.ts.
 */
import type { CodeGenerationStatus } from "@ptc/lisp";

export interface ShownMessage {
  readonly role: "system" | "user" | "assistant" | "tool" | "tools";
  /** "system prompt", "user", "search_logs result", "tool schemas"... */
  readonly label: string;
  readonly content: string;
  readonly tokens: number;
}

export interface ShownCall {
  readonly name: string;
  /** The arguments as indented JSON, or the program of a `lisp_eval` call. */
  readonly text: string;
  readonly isProgram: boolean;
}

export interface ReplayTurn {
  readonly turn: number;
  readonly seen: readonly ShownMessage[];
  readonly tokensRead: number;
  readonly tokensInlined: number;
  readonly reply: { readonly text: string; readonly calls: readonly ShownCall[] };
}

export interface ReplayResult {
  readonly question: string;
  readonly answer: string;
  readonly turns: readonly ReplayTurn[];
  readonly tokensRead: number;
  readonly tokensInlined: number;
  readonly percentSaved: number;
  readonly cacheHits: number;
  readonly nativeCalls: number;
  readonly programCalls: number;
  readonly logLines: number;
  readonly codeGeneration: CodeGenerationStatus;
}

export interface ReplayRequest {
  readonly type: "replay";
  readonly codeGeneration: "auto" | "off";
}

export type ReplayReply =
  | { readonly type: "replayed"; readonly result: ReplayResult }
  | { readonly type: "failed"; readonly message: string }
  | { readonly type: "csp-violation"; readonly directive: string; readonly blockedURI: string };
