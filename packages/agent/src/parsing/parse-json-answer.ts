/**
 * Finds the JSON value in a text-mode model answer. Models wrap
 * JSON in a ```json fence, put prose before or after it, or send it bare; this looks in that
 * order: the first ```json or bare ``` fence, then text that starts with `{` or `[`, then the
 * first `{` or `[` inside prose.
 *
 * It only parses. It must never throw, never check the value's shape against a signature (the
 * caller does that), and never try a later candidate once one has been chosen: a malformed first
 * candidate is an `invalid_json` answer the model is asked to fix.
 */

export type ParseJsonAnswerResult =
  | { readonly ok: true; readonly value: unknown }
  | {
      readonly ok: false;
      readonly reason: "no_json_found" | "invalid_json";
      readonly message: string;
    };

const NO_JSON: ParseJsonAnswerResult = {
  ok: false,
  reason: "no_json_found",
  message: "No valid JSON found in response",
};
const INVALID_JSON: ParseJsonAnswerResult = {
  ok: false,
  reason: "invalid_json",
  message: "JSON parse error",
};

const FENCE = "```";
/** A fence that starts its line (only spaces or tabs before it). */
const OPENING_FENCE = /^[ \t]*```/gm;
const FENCE_LANGUAGE = /[\w+.#-]*/y;

function decode(text: string): ParseJsonAnswerResult {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return INVALID_JSON;
  }
}

/**
 * Index of the fence that closes a block whose body starts at `from`, or -1. Backticks inside a
 * JSON string (`{"md": "use ``` fences"}`) do not close it; a newline ends any string, since JSON
 * strings cannot hold one, so a stray quote in prose cannot hide the real closing fence.
 */
function findClosingFence(text: string, from: number): number {
  let inString = false;
  for (let index = from; index < text.length; index++) {
    const char = text[index];
    if (char === "\n") inString = false;
    else if (inString && char === "\\") index++;
    else if (char === '"') inString = !inString;
    else if (!inString && text.startsWith(FENCE, index)) return index;
  }
  return -1;
}

/**
 * The body of the first ```json (any case) or bare ``` fence, or null when there is none. Fences
 * tagged with another language are passed over. An opening fence must start its line, so
 * backticks inside a bare JSON answer are not taken for a fence.
 */
function firstJsonFenceBody(text: string): string | null {
  OPENING_FENCE.lastIndex = 0;
  for (let opener = OPENING_FENCE.exec(text); opener !== null; opener = OPENING_FENCE.exec(text)) {
    const afterFence = opener.index + opener[0].length;
    FENCE_LANGUAGE.lastIndex = afterFence;
    const language = FENCE_LANGUAGE.exec(text)?.[0] ?? "";
    const bodyStart = afterFence + language.length;
    if (language === "" || language.toLowerCase() === "json") {
      const close = findClosingFence(text, bodyStart);
      return close === -1 ? null : text.slice(bodyStart, close);
    }
    const close = text.indexOf(FENCE, bodyStart);
    if (close === -1) return null;
    OPENING_FENCE.lastIndex = close + FENCE.length;
  }
  return null;
}

/**
 * The text from `start` through the bracket that balances the one at `start`, or null. Only the
 * bracket kind found at `start` is counted, and brackets inside strings are ignored, so
 * `{"a": "}"}` and `[{"b": [1]}]` come out whole.
 */
function balancedPrefix(text: string, start: number): string | null {
  const open = text[start];
  const close = open === "{" ? "}" : "]";
  let depth = 0;
  let inString = false;
  for (let index = start; index < text.length; index++) {
    const char = text[index];
    if (inString) {
      if (char === "\\") index++;
      else if (char === '"') inString = false;
    } else if (char === '"') {
      inString = true;
    } else if (char === open) {
      depth++;
    } else if (char === close) {
      depth--;
      if (depth === 0) return text.slice(start, index + 1);
    }
  }
  return null;
}

function decodeBalanced(text: string, start: number): ParseJsonAnswerResult {
  const json = balancedPrefix(text, start);
  return json === null ? NO_JSON : decode(json);
}

function firstBracket(text: string): number {
  const brace = text.indexOf("{");
  const bracket = text.indexOf("[");
  if (brace === -1) return bracket;
  if (bracket === -1) return brace;
  return Math.min(brace, bracket);
}

/** Parses the JSON value a model answered with, or says why there is none. */
export function parseJsonAnswer(content: string): ParseJsonAnswerResult {
  const fenced = firstJsonFenceBody(content);
  if (fenced !== null && fenced.trim() !== "") return decode(fenced.trim());

  const trimmed = content.trim();
  if (trimmed.startsWith("{") || trimmed.startsWith("[")) return decodeBalanced(trimmed, 0);

  const start = firstBracket(content);
  return start === -1 ? NO_JSON : decodeBalanced(content, start);
}
