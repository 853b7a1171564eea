/**
 * A turn of the content transport: read the reply (one fenced program, or a problem fed back),
 * run the program, judge its outcome (judge-program.ts), reply with feedback or end the run
 * (reply-content.ts), and keep what the verdict keeps (keep-verdict.ts).
 */
import type { NormalizedResponse } from "../model/normalize-response.js";
import type { TurnContext, TurnOutcome } from "./drive-turns.js";
import { executeProgram } from "./execute-program.js";
import { judgeProgram, rulesOf } from "./judge-program.js";
import { keepVerdict } from "./keep-verdict.js";
import { readContent } from "./read-content.js";
import { replyContent, replyContentProblem } from "./reply-content.js";
import type { LoopState, Run } from "./run-types.js";

export async function contentTurn(
  run: Run,
  response: NormalizedResponse,
  state: LoopState,
  context: TurnContext,
): Promise<TurnOutcome> {
  const read = readContent(response.content);
  if (read.kind === "problem") return replyContentProblem(run, state, read);
  const outcome = await executeProgram(run, state, read.program, {
    turn: state.turn,
    inventory: [...run.tools.values()],
    parentSpanId: context.spanId,
  });
  if (outcome.pause !== undefined) return { kind: "pause", pause: outcome.pause };
  const verdict = judgeProgram(run, outcome.result, outcome.memory, rulesOf(run, "content", context.type));
  // The reply reads the memory and summaries from before the program: it goes first.
  const reply = replyContent(run, state, read, outcome, verdict);
  keepVerdict(state, outcome, verdict);
  return reply;
}
