/**
 * The fan-out behind every run's abort listener (abort-fanout.ts): one subscriber that throws
 * must neither keep the others from hearing the abort nor end the host process. Every subscriber
 * is this package's own code, so a throw is a bug: it is reported on the console, and the runs
 * sharing the signal all stop. It was rethrown from a microtask, an uncaught exception, which
 * ends a Node host that has no handler for it.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { subscribeAbort } from "./abort-fanout.js";

describe("subscribeAbort", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("calls every subscriber when one throws, and reports the throw on the console", async () => {
    const reported = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const uncaught: unknown[] = [];
    const onUncaught = (error: unknown) => uncaught.push(error);
    process.on("uncaughtException", onUncaught);
    try {
      const controller = new AbortController();
      const heard: string[] = [];
      const bug = new Error("a subscriber's bug");
      subscribeAbort(controller.signal, () => heard.push("first"));
      subscribeAbort(controller.signal, () => {
        heard.push("second");
        throw bug;
      });
      subscribeAbort(controller.signal, (reason) => heard.push(`third: ${String(reason)}`));
      controller.abort("stop");
      // Past any microtask or task a rethrow would use.
      await new Promise((resolve) => setTimeout(resolve, 10));
      expect(heard).toEqual(["first", "second", "third: stop"]);
      expect(uncaught).toEqual([]);
      expect(reported).toHaveBeenCalledTimes(1);
      expect(reported.mock.calls[0]?.[1]).toBe(bug);
      expect(String(reported.mock.calls[0]?.[0])).toMatch(/abort.*bug/i);
    } finally {
      process.off("uncaughtException", onUncaught);
    }
  });

  it("leaves no listener on the signal once every subscriber left", () => {
    const controller = new AbortController();
    const add = vi.spyOn(controller.signal, "addEventListener");
    const remove = vi.spyOn(controller.signal, "removeEventListener");
    const leave = [
      subscribeAbort(controller.signal, () => undefined),
      subscribeAbort(controller.signal, () => undefined),
    ];
    expect(add).toHaveBeenCalledTimes(1);
    for (const unsubscribe of leave) unsubscribe();
    expect(remove).toHaveBeenCalledTimes(1);
  });
});
