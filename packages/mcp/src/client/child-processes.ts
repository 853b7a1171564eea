/**
 * Every server process this package started and has not yet seen exit. When the host process
 * exits (normally, through `process.exit`, or after an uncaught error) the ones still alive are
 * killed, so a server that ignores the end of its stdin cannot outlive its host. The hook is
 * registered once, on the first server started, and never keeps the process alive.
 */

const alive = new Set<number>();
let hooked = false;

function killAll(): void {
  for (const pid of alive) {
    try {
      // Each server leads its own process group on POSIX (see stdio-transport.ts).
      process.kill(process.platform === "win32" ? pid : -pid, "SIGKILL");
    } catch {
      // Already gone: nothing to do.
    }
  }
  alive.clear();
}

export function trackChildProcess(pid: number): void {
  alive.add(pid);
  if (!hooked) {
    hooked = true;
    process.on("exit", killAll);
  }
}

export function untrackChildProcess(pid: number): void {
  alive.delete(pid);
}

/** True while `pid` names a live process (signal 0 checks without sending anything). */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
