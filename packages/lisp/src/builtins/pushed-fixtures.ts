/**
 * Data and the outcome shape shared by the tests of the pushed pipeline loops
 * (pushed-prefix.test.ts, pushed-stages.test.ts): rows with nil fields, and what a run printed,
 * called and answered, to compare paths with.
 */
import { format, type RunResult } from "../index.js";

export const rows = Array.from({ length: 3000 }, (_, i) => ({
  id: i,
  status: ["paid", "pending", "refunded"][i % 3] as string,
  amount: (i * 37) % 1000,
  tags: i % 7 === 0 ? null : [i % 2, i % 5],
}));
export const context = { rows, xs: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, null, 12] };
export const limits = { timeoutMs: 60_000 };

export function outcome(result: RunResult): unknown {
  const common = { prints: result.prints, tools: result.toolCalls.map((call) => [call.name, call.args]) };
  return result.ok ? { ...common, value: format(result.value) } : { ...common, error: result.error.reason };
}
