/**
 * The bound on evaluations running at once, across every client of a server. A call over the
 * bound is answered at once with `busy` rather than queued: the client's model can retry, and a
 * queue would only hide an overloaded server behind timeouts.
 */

export interface GateOutcome {
  readonly ok: boolean;
  readonly text: string;
  readonly committed: boolean;
}

export interface EvaluationGate {
  run<T extends GateOutcome>(evaluate: () => Promise<T>): Promise<T | GateOutcome>;
  readonly active: number;
}

export function createEvaluationGate(maxConcurrent: number): EvaluationGate {
  let active = 0;
  return {
    async run(evaluate) {
      if (active >= maxConcurrent) {
        const message = `server busy: ${maxConcurrent} evaluations are already running`;
        return {
          ok: false,
          committed: false,
          text: JSON.stringify({
            status: "error",
            reason: "busy",
            message,
            feedback: `${message}. Wait for your earlier calls to finish, then send this one again unchanged.`,
          }),
        };
      }
      active++;
      try {
        return await evaluate();
      } finally {
        active--;
      }
    },
    get active() {
      return active;
    },
  };
}
