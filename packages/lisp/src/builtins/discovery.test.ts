import { describe, expect, test } from "vitest";
import { createSession, run } from "../index.js";
import { evaluate } from "../test-support.js";

describe("discovery forms", () => {
  test("doc describes a builtin from its registry record", async () => {
    const text = await evaluate("(doc sort-by)");
    expect(text).toContain("sort-by");
    expect(text).toContain("(sort-by");
    expect(await evaluate("(doc no-such-thing)")).toBe("nil");
  });

  test("apropos finds builtins by part of their name", async () => {
    const found = await evaluate('(apropos "parse-")');
    expect(found).toContain('"parse-long"');
    expect(found).toContain('"parse-double"');
  });

  test("dir lists a namespace's members", async () => {
    const members = await evaluate("(dir 'clojure.string)");
    expect(members).toContain('"join"');
    expect(members).toContain('"split"');
  });

  test("meta gives a builtin's record as a map", async () => {
    expect(await evaluate("(:name (meta 'inc))")).toBe('"inc"');
  });
});

describe("journaling forms", () => {
  test("task reuses a value across programs of a session; failures are not kept", async () => {
    const session = createSession();
    let calls = 0;
    const tools = {
      load: () => {
        calls++;
        return { rows: calls };
      },
    };
    expect(await evaluate('(task "load" (:rows (tool/load)))', { session, tools })).toBe("1");
    expect(await evaluate('(task "load" (:rows (tool/load)))', { session, tools })).toBe("1");
    expect(calls).toBe(1);
    expect(await evaluate('(task-reset "load") (task "load" (:rows (tool/load)))', { session, tools })).toBe(
      "2",
    );
  });

  test("without a session, task simply evaluates", async () => {
    expect(await evaluate('(task "x" (+ 1 2))')).toBe("3");
  });

  test("step-done returns its summary", async () => {
    const result = await run('(step-done "fetch" "fetched 3 rows")');
    expect(result.ok && result.value).toBe("fetched 3 rows");
  });
});
