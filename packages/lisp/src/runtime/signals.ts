/**
 * `(return v)` and `(fail v)` end the whole program from any depth. They travel as thrown signals
 * (not errors) up to the run, which turns them into its result.
 */
export class ReturnSignal {
  constructor(readonly value: unknown) {}
}

export class FailSignal {
  constructor(readonly value: unknown) {}
}

/** Returned (never thrown) by `recur` to the loop or function it jumps to. Never a value. */
export const RECUR: unique symbol = Symbol("recur");
