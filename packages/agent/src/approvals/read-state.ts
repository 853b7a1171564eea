/**
 * Reading a paused run's state before `resume` uses any of it: its format, its signature (when
 * the run was given a `stateSecret`, and whenever the state carries one), its expiry, the agent it
 * belongs to, and the shape of what it holds. Anything wrong refuses the whole state with a reason
 * (`invalid_state`, `state_expired`) and a message that says what to do instead; nothing in a
 * refused state reaches a program, a tool or the model.
 */

import { agentIdOf } from "../agent/agent-id.js";
import type { Agent } from "../agent/agent-types.js";
// Not String(): the state is the caller's data, and `{"toString": 1}` is JSON that String() throws on.
import { describe } from "../agent/describe.js";
import { PAUSED_STATE_FORMAT, PAUSED_STATE_VERSION, type PausedRunState } from "../step/step-types.js";
import { type RestoredRun, readSnapshot, SnapshotError } from "./run-snapshot.js";
import { verifyState } from "./state-signature.js";

export type ReadState =
  | { readonly ok: true; readonly restored: RestoredRun; readonly pausedAt: string }
  | { readonly ok: false; readonly reason: "invalid_state" | "state_expired"; readonly message: string };

function invalid(message: string): ReadState {
  return { ok: false, reason: "invalid_state", message };
}

export async function readPausedState(
  agent: Agent,
  state: unknown,
  secret: string | undefined,
  now: number,
): Promise<ReadState> {
  if (typeof state !== "object" || state === null || Array.isArray(state)) {
    return invalid(
      "the state is not an object: pass the `state` of a paused run's result (JSON.parse it if you stored it as text)",
    );
  }
  const given = state as Partial<PausedRunState> & Record<string, unknown>;
  if (given.format !== PAUSED_STATE_FORMAT) {
    return invalid(`the state is not a paused run's state (its format is not "${PAUSED_STATE_FORMAT}")`);
  }
  if (given.version !== PAUSED_STATE_VERSION) {
    return invalid(
      `the state has version ${describe(given.version)}; this @ptc/agent reads version ${PAUSED_STATE_VERSION}: resume it with the version that paused it`,
    );
  }
  const { signature, ...unsigned } = given;
  if (secret !== undefined) {
    if (typeof signature !== "string") {
      return invalid(
        "the state is not signed, but a stateSecret was given: it was not made by a run with that secret",
      );
    }
    let verified = false;
    try {
      verified = await verifyState(unsigned, signature, secret);
    } catch (error) {
      return invalid(`the state's signature could not be checked: ${(error as Error).message}`);
    }
    if (!verified) {
      return invalid(
        "the state's signature does not match: the state was changed after it was made, or it was signed with another stateSecret",
      );
    }
  } else if (signature !== undefined) {
    return invalid("the state is signed: pass the stateSecret it was signed with to resume it");
  }
  if (given.agentId !== agentIdOf(agent)) {
    return invalid(
      `the state was made by another agent (id ${describe(given.agentId)}, this one is ${agentIdOf(agent)}): resume it with the agent definition that paused it`,
    );
  }
  if (given.expiresAt !== undefined) {
    const expires = typeof given.expiresAt === "string" ? Date.parse(given.expiresAt) : Number.NaN;
    if (Number.isNaN(expires)) return invalid("the state's expiresAt is not a date");
    if (now > expires) {
      return {
        ok: false,
        reason: "state_expired",
        message: `the state expired at ${given.expiresAt}: start a new run, or give stateTtlMs room for the time approvals take`,
      };
    }
  }
  if (typeof given.pausedAt !== "string") return invalid("the state's pausedAt is missing");
  try {
    const restored = readSnapshot(given.run);
    if (restored.pausedTurn.waiting.length !== (Array.isArray(given.pending) ? given.pending.length : -1)) {
      return invalid("the state's pending calls do not match the calls its run waits for");
    }
    return { ok: true, restored, pausedAt: given.pausedAt };
  } catch (error) {
    if (error instanceof SnapshotError) return invalid(`the state cannot be read: ${error.message}`);
    throw error;
  }
}
