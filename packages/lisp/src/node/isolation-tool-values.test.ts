/**
 * Whatever a host tool throws or returns, an isolated run reads it without throwing on the host:
 * the host serves tool calls from an event handler, where an exception would end the process.
 */
import { describe, expect, it } from "vitest";
import type { RunResult } from "../run.js";
import { builtWorker } from "./__fixtures__/built-worker.js";
import { isolatedRunner, isolatedSessionFactory } from "./isolated.js";

const { workerUrl } = builtWorker();
const runIsolated = isolatedRunner(workerUrl);
const createIsolatedSession = isolatedSessionFactory(workerUrl);

function revoked(): object {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
}

function toolError(result: RunResult): { reason: string; message: string; logged: unknown } {
  if (result.ok) throw new Error("expected the tool call to fail");
  return { reason: result.error.reason, message: result.error.message, logged: result.toolCalls[0]?.error };
}

describe("a tool that throws what cannot be read", () => {
  it("an Error whose message getter throws becomes a tool_error", async () => {
    const tools = {
      broken: () => {
        const error = new TypeError("never read");
        Object.defineProperty(error, "message", {
          get() {
            throw new Error("the getter throws");
          },
        });
        throw error;
      },
    };
    const failure = toolError(await runIsolated("(tool/broken {})", { tools }));
    expect(failure.reason).toBe("tool_error");
    expect(failure.message).toContain("TypeError (its message could not be read)");
    expect(failure.logged).toBe("TypeError (its message could not be read)");
  });

  it("a revoked Proxy thrown becomes a tool_error", async () => {
    const tools = {
      broken: () => {
        throw revoked();
      },
    };
    const failure = toolError(await runIsolated("(tool/broken {})", { tools }));
    expect(failure.reason).toBe("tool_error");
    expect(failure.message).toMatch(/cannot be read/);
  });

  it("a revoked Proxy a promise rejects with becomes a tool_error", async () => {
    const tools = { broken: () => Promise.reject(revoked()) };
    expect(toolError(await runIsolated("(tool/broken {})", { tools })).reason).toBe("tool_error");
  });
});

describe("a tool that returns what cannot be read", () => {
  it("a revoked Proxy becomes a tool_error", async () => {
    const failure = toolError(await runIsolated("(tool/t {})", { tools: { t: () => revoked() } }));
    expect(failure.reason).toBe("tool_error");
    expect(failure.message).toMatch(/revoked/);
  });

  it("an object whose getter throws becomes a tool_error", async () => {
    const tools = {
      t: () => ({
        get total() {
          throw new Error("no total today");
        },
      }),
    };
    const failure = toolError(await runIsolated("(tool/t {})", { tools }));
    expect(failure.message).toMatch(/no total today/);
  });

  it("a value too deep to copy into the worker becomes a tool_error, and the session carries on", async () => {
    let deep: unknown = 1;
    for (let i = 0; i < 20_000; i++) deep = [deep];
    const session = createIsolatedSession();
    try {
      await session.run("(def kept 1)");
      const failure = toolError(await session.run("(def kept 2) (tool/t {})", { tools: { t: () => deep } }));
      expect(failure.reason).toBe("tool_error");
      expect(failure.message).toMatch(/could not be copied into the isolated worker/);
      const kept = await session.run("kept");
      expect(kept.ok && kept.value).toBe(1);
    } finally {
      await session.close();
    }
  });
});

describe("the host keeps serving after such a tool", () => {
  it("runs the next program of the session normally", async () => {
    const tools = {
      broken: () => {
        throw revoked();
      },
      fine: () => 41,
    };
    const session = createIsolatedSession();
    try {
      expect(toolError(await session.run("(tool/broken {})", { tools })).reason).toBe("tool_error");
      const result = await session.run("(inc (tool/fine {}))", { tools });
      expect(result.ok && result.value).toBe(42);
      expect(session.status).toBe("ready");
    } finally {
      await session.close();
    }
  });
});
