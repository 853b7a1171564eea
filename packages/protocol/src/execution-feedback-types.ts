/**
 * What one successful program run looks like to the model, before it is serialized: built by
 * `buildExecutionFeedback`, read by `renderSuccess` and by the agent's content-mode feedback.
 */

export interface ExecutionFeedback {
  /** Preamble plus framed blocks; `""` when there is nothing to show. No turn-budget text. */
  readonly feedback: string;
  /** The printed lines, untruncated. */
  readonly prints: readonly string[];
  /** `"user=> <preview>"`, or null when the program produced no value. */
  readonly result: string | null;
  readonly memory: {
    /** Previews of bindings that are new or changed since the previous program. */
    readonly changed: Readonly<Record<string, string>>;
    /** Every binding name, sorted. */
    readonly storedKeys: readonly string[];
    readonly truncated: boolean;
  };
  /** The result preview or the prints were cut. */
  readonly visibleTruncated: boolean;
  /** Anything was cut, memory previews included. */
  readonly truncated: boolean;
  /**
   * Framed blocks that `feedback` holds and no other field does (the agent's warnings): a
   * rendered `lisp_eval` result keeps these in its `feedback`, and leaves out the blocks its own
   * fields already carry.
   */
  readonly notes?: readonly string[];
}
