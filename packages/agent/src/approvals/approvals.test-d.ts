import { expectTypeOf } from "vitest";
import {
  type ChatReply,
  createAgent,
  type PausedRunState,
  type PendingApproval,
  type RunResult,
  resume,
  type Step,
} from "../index.js";

// needsApproval: true, false, or a function of the arguments and the context, sync or async.
createAgent({
  prompt: "p",
  tools: {
    a: { execute: () => 1, needsApproval: true },
    b: { execute: (args: { amount: number }) => args.amount, needsApproval: (args) => args.amount > 10 },
    c: {
      execute: () => 1,
      needsApproval: async (_args, context) => {
        expectTypeOf(context.layer).toEqualTypeOf<"native" | "ptc_lisp">();
        expectTypeOf(context.turn).toEqualTypeOf<number>();
        return context.toolName === "c";
      },
    },
  },
});

// A run's result narrows on `ok`, then on `paused`.
declare const result: RunResult;
if (result.paused) {
  expectTypeOf(result.ok).toEqualTypeOf<false>();
  expectTypeOf(result.pending).toEqualTypeOf<readonly PendingApproval[]>();
  expectTypeOf(result.state).toEqualTypeOf<PausedRunState>();
} else if (result.ok) {
  expectTypeOf(result.step).toEqualTypeOf<Step>();
  // @ts-expect-error only a paused result has pending calls
  result.pending;
} else {
  // @ts-expect-error a failed result has no state to resume
  result.state;
}

// The pending layer is one of two; resume resolves like run.
declare const pending: PendingApproval;
expectTypeOf(pending.layer).toEqualTypeOf<"native" | "ptc_lisp">();
expectTypeOf(resume).returns.toEqualTypeOf<Promise<RunResult>>();

// A chat reply narrows the same way.
declare const reply: ChatReply;
if (reply.paused) expectTypeOf(reply.state.paused).toEqualTypeOf<PausedRunState>();
