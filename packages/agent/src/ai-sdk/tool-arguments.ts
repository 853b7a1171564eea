/**
 * Reads the JSON text of a tool call's input into the arguments object the loop works with.
 * It never throws: a model that writes broken JSON gets `{}` plus an `argsError` the loop hands
 * back to it, so one bad call cannot fail the whole turn.
 */

export interface ToolArguments {
  readonly args: Readonly<Record<string, unknown>>;
  readonly argsError?: string;
}

export function parseToolArguments(raw: unknown): ToolArguments {
  // V3 says JSON text; a hand-written model may hand over the object itself, or anything else.
  if (isPlainObject(raw)) return { args: raw };
  if (typeof raw !== "string") {
    return {
      args: {},
      argsError: `Tool arguments must be JSON text, got ${raw === null ? "null" : typeof raw}`,
    };
  }
  // Providers send "" for a call without arguments; the AI SDK reads that as {} too.
  if (raw.trim() === "") return { args: {} };
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return { args: {}, argsError: `Invalid JSON arguments: ${raw}` };
  }
  if (!isPlainObject(value)) {
    return { args: {}, argsError: `Tool arguments must be a JSON object, got: ${raw}` };
  }
  return { args: value };
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
