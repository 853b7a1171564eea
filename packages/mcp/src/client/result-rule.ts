/**
 * The one rule that turns an MCP tool result (the `{content, structuredContent, isError}`
 * envelope) into the value a program or a model works with. In order:
 *
 * 1. `isError: true`: the call fails; the error's message is the server's text.
 * 2. `structuredContent` is present: it is the value, as the server shaped it.
 * 3. No content: nil.
 * 4. Only text items: each text is parsed as JSON when it parses and kept as the string when not;
 *    one item gives its value, several give a vector of their values.
 * 5. Anything else (images, audio, resources, links, or these mixed with text): a map with a
 *    vector per kind present, `text` (values as in 4), `images` and `audio` (`{mimeType, data}`),
 *    `resources` (`{uri, mimeType, text}` or `{uri, mimeType, blob}`) and `links`
 *    (`{uri, name, description, mimeType}`), fields absent from the item left out.
 *
 * A host that wants the envelope itself sets `raw` (per server or per tool): the value is then
 * the envelope, minus `_meta`, and an error result is still an error.
 */

import { textHead } from "../text-head.js";

/** The fields of a tool result this rule reads; anything else the server sends is ignored. */
export interface ToolResultEnvelope {
  readonly content?: readonly unknown[] | undefined;
  readonly structuredContent?: unknown;
  readonly isError?: boolean | undefined;
}

export type UnwrappedResult =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly message: string };

const ERROR_TEXT_MAX_CHARS = 2000;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A text item's value: its JSON when the text is JSON, else the text itself. */
export function textValue(text: string): unknown {
  const trimmed = text.trim();
  if (trimmed === "") return text;
  try {
    return JSON.parse(trimmed);
  } catch {
    return text;
  }
}

function picked(item: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of keys) if (item[key] !== undefined) out[key] = item[key];
  return out;
}

/** The texts of an error result, joined and cut, for the message a program and a model read. */
function errorMessage(content: readonly unknown[]): string {
  const texts = content
    .filter((item): item is { type: "text"; text: string } => isRecord(item) && item.type === "text")
    .map((item) => String(item.text));
  const joined = texts.join("\n").trim();
  if (joined === "") return "the tool reported an error and gave no message";
  return joined.length > ERROR_TEXT_MAX_CHARS
    ? `${textHead(joined, ERROR_TEXT_MAX_CHARS)}... (cut at ${ERROR_TEXT_MAX_CHARS} characters)`
    : joined;
}

function mixedContent(content: readonly unknown[]): Record<string, unknown[]> {
  const kinds: Record<string, unknown[]> = {};
  const add = (kind: string, value: unknown) => {
    kinds[kind] ??= [];
    kinds[kind].push(value);
  };
  for (const item of content) {
    if (!isRecord(item)) continue;
    switch (item.type) {
      case "text":
        add("text", textValue(String(item.text)));
        break;
      case "image":
        add("images", picked(item, ["mimeType", "data"]));
        break;
      case "audio":
        add("audio", picked(item, ["mimeType", "data"]));
        break;
      case "resource":
        if (isRecord(item.resource))
          add("resources", picked(item.resource, ["uri", "mimeType", "text", "blob"]));
        break;
      case "resource_link":
        add("links", picked(item, ["uri", "name", "description", "mimeType"]));
        break;
      default:
        // A content type newer than this rule: kept whole, so nothing the server sent is lost.
        add("other", item);
    }
  }
  return kinds;
}

export function unwrapToolResult(
  envelope: ToolResultEnvelope,
  options: { raw?: boolean } = {},
): UnwrappedResult {
  const content = Array.isArray(envelope.content) ? envelope.content : [];
  if (envelope.isError === true) return { ok: false, message: errorMessage(content) };
  if (options.raw === true) {
    const raw: Record<string, unknown> = { content };
    if (envelope.structuredContent !== undefined) raw.structuredContent = envelope.structuredContent;
    return { ok: true, value: raw };
  }
  if (envelope.structuredContent !== undefined && envelope.structuredContent !== null) {
    return { ok: true, value: envelope.structuredContent };
  }
  if (content.length === 0) return { ok: true, value: null };
  if (content.every((item) => isRecord(item) && item.type === "text")) {
    const values = content.map((item) => textValue(String((item as { text: unknown }).text)));
    return { ok: true, value: values.length === 1 ? values[0] : values };
  }
  return { ok: true, value: mixedContent(content) };
}
