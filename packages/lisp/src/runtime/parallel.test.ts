import { describe, expect, test } from "vitest";
import { createSession, format, run } from "../index.js";
import { evaluate, failure } from "../test-support.js";

/** A tool that waits for a moment and records how many calls overlapped. */
function slowTool() {
  let running = 0;
  let peak = 0;
  const calls: unknown[] = [];
  const tool = async (args: Record<string, unknown>) => {
    running++;
    peak = Math.max(peak, running);
    calls.push(args.id);
    await new Promise((resolve) => setTimeout(resolve, 5));
    running--;
    return { id: args.id, name: `item ${String(args.id)}` };
  };
  return { tool, peak: () => peak, calls };
}

describe("pmap and pcalls", () => {
  test("tool calls in branches overlap, and results keep input order", async () => {
    const { tool, peak } = slowTool();
    const result = await run("(pmap (fn [id] (:name (tool/fetch {:id id}))) [3 1 2 5 4])", {
      tools: { fetch: tool },
    });
    expect(result.ok && format(result.value)).toBe('["item 3" "item 1" "item 2" "item 5" "item 4"]');
    expect(peak()).toBeGreaterThan(1);
    expect(result.toolCalls).toHaveLength(5);
  });

  test("at most parallelConcurrency branches wait at once", async () => {
    const { tool, peak } = slowTool();
    const result = await run("(pmap #(tool/fetch {:id %}) (range 12))", {
      tools: { fetch: tool },
      limits: { parallelConcurrency: 3 },
    });
    expect(result.ok).toBe(true);
    expect(peak()).toBe(3);
  });

  test("pcalls runs zero-argument functions", async () => {
    expect(await evaluate('(pcalls #(+ 1 1) (fn [] :b) #(str "c"))')).toBe('[2 :b "c"]');
    expect(await evaluate("(pcalls)")).toBe("[]");
  });

  test("a branch sees the defs of its program but not another branch's; its own defs are dropped", async () => {
    const session = createSession();
    await evaluate("(def base 10)", { session });
    const value = await evaluate("(pmap (fn [x] (def mine x) [base mine (if (= x 1) :one :two)]) [1 2])", {
      session,
    });
    expect(value).toBe("[[10 1 :one] [10 2 :two]]");
    expect(session.names()).toEqual(["base"]);
  });

  test("prints inside branches are dropped, as in the reference", async () => {
    const result = await run(
      '(println "before") (pmap (fn [x] (println "in branch" x) x) [1 2]) (println "after")',
    );
    expect(result.prints).toEqual(["before", "after"]);
  });

  test("a failing branch fails the call with that branch's own error", async () => {
    const error = await failure("(pmap (fn [x] (/ 10 x)) [1 0 2])");
    expect(error.reason).toBe("arithmetic_error");
    const toolError = await failure("(pmap #(tool/flaky {:id %}) [1 2])", {
      tools: {
        flaky: async (args: Record<string, unknown>) => {
          if (args.id === 2) throw new Error("boom");
          return args;
        },
      },
    });
    expect(toolError.reason).toBe("tool_error");
    expect(toolError.message).toContain("boom");
  });

  test("return inside a branch is refused", async () => {
    expect((await failure("(pmap (fn [x] (return x)) [1])")).reason).toBe("pmap_error");
  });

  test("one deadline covers the whole parallel operation", async () => {
    const error = await failure("(pmap #(tool/hang {:id %}) [1 2])", {
      tools: { hang: () => new Promise(() => undefined) },
      limits: { parallelTimeoutMs: 30, timeoutMs: 5000 },
    });
    expect(error.reason).toBe("timeout");
    expect(error.message).toContain("30ms");
  });
});
