/** Waiting for a process to be gone, for the tests that prove no server outlives its host. */
import { isProcessAlive } from "../client/child-processes.js";

/** Resolves once `pid` no longer names a live process (polls; the test's own timeout bounds it). */
export async function processGone(pid: number): Promise<true> {
  while (isProcessAlive(pid)) await new Promise((resolve) => setTimeout(resolve, 20));
  return true;
}
