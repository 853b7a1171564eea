import { readFileSync } from "node:fs";
import { expect, test } from "vitest";
import { main } from "./approvals.js";

test("the approvals example runs as written: the small refund runs at once, the others after approval, each once", async () => {
  const { answer, asked, refunded } = await main();
  expect(asked).toEqual([
    { id: 7, amount: 70 },
    { id: 12, amount: 240 },
  ]);
  expect(answer).toEqual([{ refunded: 7 }, { refunded: 9 }, { refunded: 12 }]);
  // 9 needed no approval: it ran before the pause; 7 and 12 ran once each, after it.
  expect(refunded).toEqual([9, 7, 12]);
});

test("docs/approvals.md shows the example verbatim", () => {
  const guide = readFileSync(new URL("../../../../docs/approvals.md", import.meta.url), "utf8");
  const example = readFileSync(new URL("./approvals.ts", import.meta.url), "utf8").trim();
  expect(guide).toContain(example);
});
