/** Compiled code: a closure from a frame (the current function's locals) to a value or promise. */
export type Code = (frame: unknown[]) => unknown;

export function isTruthy(value: unknown): boolean {
  return value !== null && value !== false && value !== undefined;
}
