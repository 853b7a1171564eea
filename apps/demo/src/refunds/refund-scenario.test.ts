import { Readable } from "node:stream";
import { describe, expect, test } from "vitest";
import { main } from "../main.js";
import { LATE_DAYS, refundOrders } from "./refund-orders.js";

function buffer() {
  const chunks: string[] = [];
  return {
    output: { write: (text: string) => chunks.push(text), isTTY: false },
    text: () => chunks.join(""),
  };
}

/** The late orders, found straight from the data, without any code under demonstration. */
const late = refundOrders().filter((order) => order.status === "delivered" && order.days_late > LATE_DAYS);

describe("the refunds scenario", () => {
  test("--yes approves every refund: each is made once, and the answer lists them", async () => {
    const { output, text } = buffer();
    const { exitCode, step } = await main(["--scenario", "refunds", "--yes"], { stdout: output, env: {} });
    expect(late.length).toBe(4);
    expect(exitCode).toBe(0);
    const refunds = step?.toolCalls.filter((call) => call.name === "refund") ?? [];
    expect(refunds.map((call) => [call.args, call.approval])).toEqual(
      late.map((order) => [{ order_id: order.id, amount: order.total }, "approved"]),
    );
    expect(step?.return).toContain(`Refunded ${late.length}`);
    expect(text()).toContain("the run paused: 4 refunds wait for approval");
    expect(text()).toMatch(/R-1022 {2}A-1022 {2}\$164\.01/);
  });

  test("asks y/n for each refund, makes the approved ones, and the model reads the rejections", async () => {
    const { output, text } = buffer();
    const answers = ["y", "n", "yes", "Y"];
    const asked: string[] = [];
    const { exitCode, step } = await main(["--scenario", "refunds"], {
      stdout: output,
      env: {},
      ask: async (question) => {
        asked.push(question);
        return answers.shift();
      },
    });
    expect(exitCode).toBe(0);
    expect(asked.map((question) => question.match(/refund (A-\d+)/)?.[1])).toEqual(
      late.map((order) => order.id),
    );
    const made = step?.toolCalls.filter((call) => call.name === "refund" && call.result !== undefined) ?? [];
    expect(made.map((call) => (call.args as { order_id: string }).order_id)).toEqual([
      "A-1022",
      "A-1043",
      "A-1058",
    ]);
    expect(step?.return).toContain("Not refunded: A-1037: not approved: declined by the operator");
    expect(text()).toContain("resuming: 3 approved, 1 rejected");
  });

  test("reads answers piped to its input, and declines when the input ends", async () => {
    const { output, text } = buffer();
    const { step } = await main(["--scenario", "refunds"], {
      stdout: output,
      env: {},
      input: Readable.from(["n\ny\n"]),
    });
    const made = step?.toolCalls.filter((call) => call.name === "refund" && call.result !== undefined) ?? [];
    expect(made.map((call) => (call.args as { order_id: string }).order_id)).toEqual(["A-1037"]);
    expect(text()).toContain("approve? [y/n] n\n");
    expect(text()).toContain("no answer (the input ended): declined");
  });

  test("refuses flags that belong to the other scenario", async () => {
    const { output, text } = buffer();
    expect((await main(["--yes"], { stdout: output, env: {} })).exitCode).toBe(2);
    expect(text()).toContain("--yes approves refunds: add --scenario refunds");
    expect((await main(["--scenario", "nope"], { stdout: output, env: {} })).exitCode).toBe(2);
  });
});
