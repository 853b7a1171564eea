/**
 * What every case must show, whatever its tools and model did (docs/agents.md: `run` "never
 * rejects for a run-time failure"; the step and a chat's `state` are plain JSON; "nothing a tool
 * does after the abort reaches the Step or the events"):
 *
 * - `run` and `chat` settle, with a value, before the watchdog;
 * - no error reaches the process (an unhandled rejection or an uncaught exception);
 * - `JSON.stringify` of the step, of a chat's messages and of its state succeeds;
 * - a failed run names a reason and a message, both strings, and the reason is not
 *   `internal_error`, which the loop gives only when its own handling of a turn threw (a bug);
 * - once `run` has settled, no event arrives and the step does not change.
 *
 * Each check throws an Error saying what broke, so fast-check shrinks to the smallest case.
 */
import type { Scenario, ScenarioOutcome } from "./scenario.js";

export class BoundaryBroken extends Error {
  override readonly name = "BoundaryBroken";
}

/** Text for anything, even a value whose getters or `toString` throw. */
export function show(value: unknown): string {
  try {
    if (value instanceof Error) return `${value.name}: ${value.message}\n${value.stack ?? ""}`;
  } catch {
    // a hostile error: fall through
  }
  try {
    return String(value);
  } catch {
    return Object.prototype.toString.call(value);
  }
}

function broken(message: string): never {
  throw new BoundaryBroken(message);
}

function jsonThrows(value: unknown): string | undefined {
  try {
    JSON.stringify(value);
    return undefined;
  } catch (error) {
    return show(error);
  }
}

export function expectBoundaryHeld(scenario: Scenario, outcome: ScenarioOutcome): void {
  if (outcome.hung !== undefined) broken(`${scenario.entry} hung: ${outcome.hung}`);
  if (outcome.rejected !== undefined) broken(`${scenario.entry} rejected: ${show(outcome.rejected)}`);
  if (outcome.escaped.length > 0) {
    broken(`an error reached the process: ${outcome.escaped.map(show).join("\n---\n")}`);
  }
  const { result } = outcome;
  if (result !== undefined) {
    if (typeof result.ok !== "boolean") broken(`run resolved without ok: ${show(result)}`);
    const fail = result.step.fail;
    if (!result.ok && (typeof fail?.reason !== "string" || typeof fail.message !== "string")) {
      broken(`a failed run without a reason and a message: ${jsonThrows(fail) ?? JSON.stringify(fail)}`);
    }
    if (fail?.reason === "internal_error") broken(`the run ended on an internal error: ${fail.message}`);
    const json = outcome.stepJson;
    if (json === undefined) broken("the step was not read");
    if (json.atEnd.startsWith("JSON.stringify threw")) broken(`the step is not JSON: ${json.atEnd}`);
    if (json.afterLateWork !== json.atEnd) {
      broken(
        `the step changed after run settled:\n at end: ${json.atEnd.slice(0, 2000)}\n later: ${json.afterLateWork.slice(0, 2000)}`,
      );
    }
  }
  for (const [index, reply] of outcome.replies.entries()) {
    const state = jsonThrows(reply.state);
    if (state !== undefined) broken(`chat reply ${index + 1}: its state is not JSON: ${state}`);
    const messages = jsonThrows(reply.messages);
    if (messages !== undefined) broken(`chat reply ${index + 1}: its messages are not JSON: ${messages}`);
    if (!reply.ok && (typeof reply.error?.reason !== "string" || typeof reply.error.message !== "string")) {
      broken(`chat reply ${index + 1} failed without a reason and a message`);
    }
    if (!reply.ok && reply.error.reason === "internal_error") {
      broken(`chat reply ${index + 1} ended on an internal error: ${reply.error.message}`);
    }
  }
  if (outcome.lateEvents.length > 0) {
    broken(`events after the run settled: ${outcome.lateEvents.map((event) => event.type).join(", ")}`);
  }
}
