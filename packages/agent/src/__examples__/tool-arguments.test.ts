import { readFileSync } from "node:fs";
import { expect, test, vi } from "vitest";
import { main } from "./tool-arguments.js";

test("the tool-arguments example runs as written: the bad call never reaches execute", async () => {
  const log = vi.spyOn(console, "log").mockImplementation(() => undefined);
  try {
    const { answer, received } = await main();
    expect(answer).toBe("Ada");
    expect(received).toEqual([{ id: 9, with_email: false }]);
    const [turn] = log.mock.calls[0] ?? [];
    expect(turn).toMatchObject({ error: { reason: "invalid_tool_args" } });
    expect((turn as { error: { message: string } }).error.message).toContain(
      "id: Invalid input: expected number, received string. Its signature: (id :int, with_email :bool?) -> :any",
    );
  } finally {
    log.mockRestore();
  }
});

test("docs/agents.md shows the example verbatim", () => {
  const guide = readFileSync(new URL("../../../../docs/agents.md", import.meta.url), "utf8");
  const example = readFileSync(new URL("./tool-arguments.ts", import.meta.url), "utf8").trim();
  expect(guide).toContain(example);
});
