/**
 * Every text about the memory limit, in one place. The wordings differ by where they are read,
 * and each is kept as it is because hosts and models already read it: the content transport's
 * run failure and its feedback (which tells the model what to try instead), and the tool message
 * of `lisp_eval` (PTC-Lisp tool-call transport and combined mode), whose text is also the run's
 * failure message there.
 */

/** The step's failure message when the content transport ends a run over the limit. */
export function memoryLimitFailure(size: number, limit: number): string {
  return `Memory limit exceeded: ${size} bytes > ${limit} bytes`;
}

/** The fact, as a `memory_limit` tool message (and the run's failure message) of `lisp_eval`. */
export function memoryLimitToolMessage(size: number, limit: number): string {
  return `Memory limit exceeded (${size} bytes > ${limit} bytes).`;
}

/** The `memory_limit` tool message of `lisp_eval` after a turn was rolled back. */
export function rolledBackToolMessage(size: number, limit: number): string {
  return `${memoryLimitToolMessage(size, limit)} Last turn rolled back.`;
}

/** The content transport's feedback after a turn was rolled back. */
export function rollbackMessage(size: number, limit: number): string {
  return `${memoryLimitToolMessage(size, limit)} Your last turn's memory changes have been rolled back. Try a different strategy to reduce memory usage, for example by using recursion or processing data in smaller batches.`;
}
