/**
 * The parts of a Step that hold what tools and hosts handed the run (tool arguments and results,
 * cached results, turn results, failure details) as JSON-safe data (json/to-json-safe.ts), so
 * that `JSON.stringify(step)` never throws and the host can store the step as JSON, whatever the
 * tools returned. Data that is JSON already is kept as the same objects.
 *
 * The tool cache stays a `Map` (it is one in the API), and writes itself as an object of its
 * entries in JSON, the record the `toolCache` run option and chat state accept back.
 */
import type { JsonValue } from "@ptc/tool";
import type { Message } from "../model/model-types.js";
import type { ToolCache, ToolCacheEntry, ToolCallRecord, Turn } from "./step-types.js";

export type JsonSafe = (value: unknown) => JsonValue;

export function jsonSafeToolCalls(records: readonly ToolCallRecord[], json: JsonSafe): ToolCallRecord[] {
  return records.map((record) => {
    const converted: ToolCallRecord = { ...record, args: json(record.args) };
    return Object.hasOwn(record, "result") ? { ...converted, result: json(record.result) } : converted;
  });
}

export function jsonSafeTurns(turns: readonly Turn[], json: JsonSafe): Turn[] {
  return turns.map((turn) => {
    const converted: Turn = {
      ...turn,
      result: json(turn.result),
      toolCalls: jsonSafeToolCalls(turn.toolCalls, json),
      memory: jsonSafeMemory(turn.memory, json),
    };
    if (turn.messages === undefined) return converted;
    return { ...converted, messages: json(turn.messages) as unknown as readonly Message[] };
  });
}

/**
 * Memory (and the task journal) keep their functions (a chat hands them back to the next run);
 * `JSON.stringify` leaves them out.
 */
export function jsonSafeMemory(
  memory: Readonly<Record<string, unknown>>,
  json: JsonSafe,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(memory)) {
    Object.defineProperty(out, name, {
      value: typeof value === "function" ? value : json(value),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

export function jsonSafeCache(cache: ToolCache, json: JsonSafe): ToolCache {
  const snapshot: ToolCache = new Map();
  for (const [key, entry] of cache) snapshot.set(key, { result: json(entry.result) });
  Object.defineProperty(snapshot, "toJSON", {
    value: (): Record<string, ToolCacheEntry> => Object.fromEntries(snapshot),
    enumerable: false,
  });
  return snapshot;
}
