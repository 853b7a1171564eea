/**
 * The packed packages in a real edge runtime: workerd (Cloudflare Workers' runtime) serving a
 * worker bundled from the tarballs (packed-worker.ts), called over loopback. workerd forbids code
 * generation from strings, as Workers do, so every program here runs on the general evaluator,
 * and must give what generated code gives in Node (packages/lisp/src/__fixtures__).
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { corpus } from "../../../packages/lisp/src/__fixtures__/no-eval-corpus.mjs";
import { type PackedWorker, packedWorker } from "./packed-worker.js";
import { startWorkerd, type WorkerdProcess } from "./workerd-process.js";

const expected = JSON.parse(
  readFileSync(
    new URL("../../../packages/lisp/src/__fixtures__/no-eval-outcomes.json", import.meta.url),
    "utf8",
  ),
) as Record<string, unknown>;

let worker: PackedWorker | undefined;
let workerd: WorkerdProcess | undefined;

beforeAll(async () => {
  worker = await packedWorker();
  workerd = await startWorkerd([
    { name: "main", bundle: worker.bundle },
    { name: "docs", bundle: worker.docsBundle },
  ]);
});

afterAll(async () => {
  await workerd?.stop();
  worker?.remove();
});

async function send(service: string, path: string, body: unknown): Promise<Response> {
  if (workerd === undefined) throw new Error("workerd did not start");
  try {
    return await fetch(`${workerd.urls[service]}${path}`, { method: "POST", body: JSON.stringify(body) });
  } catch (error) {
    throw new Error(`workerd did not answer (${String(error)}); its output:\n${workerd.output()}`);
  }
}

async function post(path: string, body: unknown): Promise<Record<string, unknown>> {
  const response = await send("main", path, body);
  const data = (await response.json()) as Record<string, unknown>;
  if (response.status !== 200)
    throw new Error(`${path} answered ${response.status}: ${JSON.stringify(data)}`);
  return data;
}

describe("a PTC-Lisp program in workerd", () => {
  test("runs, after finding by itself that code generation is forbidden there", async () => {
    const data = await post("/lisp", { program: "(->> [1 2 3] (map inc) (reduce +))" });
    expect(data.outcome).toMatchObject({ value: "9", json: 9 });
    expect(data.codeGeneration).toBe("unavailable");
  });

  test.each(corpus.map((entry) => [entry.name, entry] as const))(
    "%s: the outcome generated code gives in Node",
    async (name, entry) => {
      const data = await post("/lisp", entry);
      expect(data.outcome).toEqual(expected[name]);
    },
  );

  test("switched off up front, it reports so and gives the same values", async () => {
    const data = await post("/lisp", {
      program: "(count (filter #(> (:amount %) 500) data/orders))",
      context: corpus.find((entry) => entry.name === "count filter over many rows")?.context,
      codeGeneration: "off",
    });
    expect(data).toEqual({ outcome: expected["count filter over many rows"], codeGeneration: "off" });
  });
});

describe("an agent in workerd", () => {
  test("runs a turn with the scripted model: the program calls a tool and returns", async () => {
    const data = await post("/agent", {
      prompt: "What did the orders total, and who spent the most?",
      program: [
        "(let [orders (tool/list-orders {})",
        "      by-customer (->> orders (group-by :customer) (map (fn [[c os]] [c (sum-by :amount os)])))]",
        "  (return {:total (sum-by :amount orders) :top (first (last (sort-by second by-customer)))}))",
      ].join("\n"),
    });
    expect(data).toMatchObject({
      ok: true,
      return: { total: 120, top: "ada" },
      fail: null,
      modelCalls: 1,
      toolCalls: ["list_orders"],
    });
  });
});

describe("docs/edge.md's worker", () => {
  test("is shown there verbatim", () => {
    const guide = readFileSync(new URL("../../../docs/edge.md", import.meta.url), "utf8");
    const example = readFileSync(new URL("../src/docs-worker.ts", import.meta.url), "utf8").trim();
    expect(guide).toContain(example);
  });

  test("answers a program with its value, and a failing one with its error", async () => {
    const ok = await send("docs", "/", { program: "(reduce + data/xs)", context: { xs: [1, 2, 3] } });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ value: 6 });
    const failed = await send("docs", "/", { program: "(let [x 1]\n  (inc nope))" });
    expect(failed.status).toBe(422);
    expect(await failed.json()).toMatchObject({ error: { reason: "unbound_var", line: 2, column: 8 } });
  });
});
