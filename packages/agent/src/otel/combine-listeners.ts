/**
 * One `onEvent` for several observers (tracing next to your own logging). Each listener sees every
 * event in the order given; one that throws must not keep the others from seeing it.
 */
import type { AgentEvent, EventListener } from "@ptc/agent";

/** Calls every listener with every event; `undefined` entries are skipped, errors are dropped. */
export function combineListeners(...listeners: ReadonlyArray<EventListener | undefined>): EventListener {
  const present = listeners.filter((listener): listener is EventListener => listener !== undefined);
  return (event: AgentEvent) => {
    for (const listener of present) {
      try {
        listener(event);
      } catch {
        // An observer's failure is not the run's failure, nor the other observers'.
      }
    }
  };
}
