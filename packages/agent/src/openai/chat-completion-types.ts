/**
 * The wire shapes the adapter sends to Chat Completions. Responses are read from `unknown` with
 * guards instead, because compatible servers differ in what they omit.
 */

export interface ChatToolCall {
  readonly id: string;
  readonly type: "function";
  readonly function: { readonly name: string; readonly arguments: string };
}

export type ChatMessage =
  | { readonly role: "system" | "user"; readonly content: string }
  | {
      readonly role: "assistant";
      readonly content: string | null;
      readonly tool_calls?: readonly ChatToolCall[];
    }
  | { readonly role: "tool"; readonly tool_call_id: string; readonly content: string };

export type ChatCompletionBody = Record<string, unknown>;
