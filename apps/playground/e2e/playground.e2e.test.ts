/**
 * The built playground in a real browser (Debian's Chromium, chromium.ts), served from dist/ on
 * loopback: with no Content-Security-Policy, and with one that forbids 'unsafe-eval' and reports
 * violations. Screenshots of the main states go to the folder printed at the start.
 *
 * Run `pnpm --filter @ptc/playground build` first; then
 * `pnpm --filter @ptc/playground test:browser`.
 */
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { ConsoleMessage, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type CorpusEntry, corpus } from "../../../packages/lisp/src/__fixtures__/no-eval-corpus.mjs";
import { startStaticServer } from "../scripts/static-server.mjs";
import { encodeState } from "../src/share/share-state.js";
import { type Chromium, launchChromium } from "./chromium.js";
import { pageOutcome } from "./page-outcome.js";

const here = fileURLToPath(new URL(".", import.meta.url));
const dist = join(here, "..", "dist");
const screenshots =
  process.env.PLAYGROUND_SCREENSHOTS ?? join(here, "..", "..", "..", ".ci", "tmp", "playground-screenshots");
const expected = JSON.parse(
  readFileSync(
    new URL("../../../packages/lisp/src/__fixtures__/no-eval-outcomes.json", import.meta.url),
    "utf8",
  ),
) as Record<string, unknown>;

/** A strict policy: scripts and workers from the site only, no 'unsafe-eval', violations reported. */
const STRICT_CSP =
  "default-src 'self'; script-src 'self'; worker-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; report-uri /csp-report";

type Server = Awaited<ReturnType<typeof startStaticServer>>;

let chromium: Chromium | undefined;
let plain: Server | undefined;
let strict: Server | undefined;

beforeAll(async () => {
  if (!existsSync(join(dist, "index.html")))
    throw new Error("the playground is not built: run `pnpm --filter @ptc/playground build` first");
  mkdirSync(screenshots, { recursive: true });
  console.log(`playground screenshots: ${screenshots}`);
  plain = await startStaticServer({ directory: dist });
  strict = await startStaticServer({ directory: dist, csp: STRICT_CSP });
  chromium = await launchChromium();
});

afterAll(async () => {
  await chromium?.close();
  await plain?.close();
  await strict?.close();
});

interface OpenPage {
  readonly page: Page;
  /** Console errors, uncaught page errors and failed requests, as they happen. */
  readonly problems: string[];
}

async function open(url: string): Promise<OpenPage> {
  const page = await (chromium as Chromium).context.newPage();
  const problems: string[] = [];
  page.on("console", (message: ConsoleMessage) => {
    if (message.type() === "error") problems.push(`console: ${message.text()}`);
  });
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  page.on("requestfailed", (request) => problems.push(`request failed: ${request.url()}`));
  await page.goto(url);
  await page.waitForSelector("body[data-ready=true]");
  return { page, problems };
}

const counter = (page: Page, name: "runs" | "loads") =>
  page.evaluate((key) => Number(document.body.dataset[key] ?? 0), name);

/** Clicks Run (found by its accessible name, as the contract says) and waits for the outcome. */
async function run(page: Page): Promise<void> {
  const before = await counter(page, "runs");
  await page.getByRole("button", { name: "Run", exact: true }).click();
  await page.waitForFunction((count) => Number(document.body.dataset.runs ?? 0) > count, before);
}

async function shoot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(screenshots, name), fullPage: true });
}

const codeLink = (server: Server | undefined, program: string, query = "") =>
  `${(server as Server).url}/?${query}${query === "" ? "" : "&"}code=${encodeURIComponent(program)}`;

async function openLimits(page: Page): Promise<void> {
  const limits = page.locator("details", { has: page.locator("summary", { hasText: "Limits" }) });
  if ((await limits.getAttribute("open")) === null) await limits.locator("summary").click();
}

/** Loads one corpus program (with its context, tools and limits) through a share hash, runs it. */
async function runEntry(page: Page, entry: CorpusEntry): Promise<Record<string, unknown>> {
  const hash = await encodeState({
    program: entry.program,
    context: JSON.stringify(entry.context ?? {}),
    tools: Object.entries(entry.tools ?? {}).map(([name, result]) => ({
      name,
      result: JSON.stringify(result),
    })),
  });
  const loads = await counter(page, "loads");
  await page.evaluate((value) => {
    location.hash = value;
  }, hash);
  await page.waitForFunction((count) => Number(document.body.dataset.loads ?? 0) > count, loads);
  await openLimits(page);
  await page.fill("#limit-iterations", String(entry.limits?.maxIterations ?? 1_000_000));
  await page.fill("#limit-memory", String((entry.limits?.maxMemoryBytes ?? 64_000_000) / 1_000_000));
  await page.fill("#limit-depth", String(entry.limits?.maxDepth ?? 1000));
  await run(page);
  return pageOutcome(page);
}

async function corpusMismatches(page: Page): Promise<string[]> {
  const mismatches: string[] = [];
  for (const entry of corpus) {
    const outcome = await runEntry(page, entry);
    if (JSON.stringify(outcome) !== JSON.stringify(expected[entry.name]))
      mismatches.push(
        `${entry.name}:\n  page:     ${JSON.stringify(outcome)}\n  expected: ${JSON.stringify(expected[entry.name])}`,
      );
  }
  return mismatches;
}

describe("the playground", () => {
  test("loads with no console error, the examples and the reference card", async () => {
    const { page, problems } = await open(`${plain?.url}/`);
    await expect.poll(() => page.locator("#examples option:not([disabled])").count()).toBe(6);
    await expect.poll(() => page.locator("#reference-card").textContent()).toContain("lisp_eval");
    await run(page);
    expect(await page.getByTestId("value").textContent()).toContain(':customer "Globex"');
    await shoot(page, "01-loaded-and-run.png");
    expect(problems).toEqual([]);
    await page.close();
  });

  test("runs a program from a ?code= link: its value as PTC-Lisp and JSON, its output and what it used", async () => {
    const program = '(let [xs [1 2 3]]\n  (println "sum" (reduce + xs))\n  {:total (reduce + xs) :items xs})';
    const { page, problems } = await open(codeLink(plain, program));
    await run(page);
    expect(await page.getByTestId("value").textContent()).toBe("{:items [1 2 3] :total 6}");
    expect(JSON.parse((await page.getByTestId("value-json").textContent()) ?? "")).toEqual({
      items: [1, 2, 3],
      total: 6,
    });
    expect(await page.getByTestId("output").textContent()).toBe("sum 6");
    const usage = await page
      .locator("[data-testid=usage] tr")
      .evaluateAll((rows) => rows.map((row) => row.getAttribute("data-limit")));
    expect(usage).toEqual(["time", "iterations", "memory", "println lines", "tool calls", "program size"]);
    expect(await page.getByTestId("error").isHidden()).toBe(true);
    await shoot(page, "02-value.png");
    expect(problems).toEqual([]);
    await page.close();
  });

  test("Mod-Enter in the editor runs the program", async () => {
    const { page } = await open(codeLink(plain, "(* 6 7)"));
    await page.locator(".cm-content").click();
    const before = await counter(page, "runs");
    await page.keyboard.press("Control+Enter");
    await page.waitForFunction((count) => Number(document.body.dataset.runs ?? 0) > count, before);
    expect(await page.getByTestId("value").textContent()).toBe("42");
    await page.close();
  });

  test("a syntax error shows its reason and position and marks its line until the text changes", async () => {
    const { page } = await open(codeLink(plain, "(def xs [1 2 3])\n\n(map inc xs]\n"));
    await run(page);
    expect(await page.getByTestId("error-reason").textContent()).toBe("parse_error");
    expect(await page.getByTestId("error-position").textContent()).toMatch(/^line 3, column \d+$/);
    await expect.poll(() => page.locator(".cm-error-line").getAttribute("data-error-line")).toBe("3");
    expect(await page.locator(".cm-error-mark").count()).toBe(1);
    expect(await page.getByTestId("value").textContent()).toBe("");
    await shoot(page, "03-syntax-error.png");
    await page.locator(".cm-content").click();
    await page.keyboard.press("End");
    await page.keyboard.type(" ");
    await expect.poll(() => page.locator(".cm-error-line").count()).toBe(0);
    await page.close();
  });

  test("a share link opens the same program, context and tools", async () => {
    const program = "(->> (tool/lookup {}) (map :n) (reduce +) (+ (count data/xs)))";
    const { page } = await open(codeLink(plain, program));
    await page.fill("#context", '{"xs": [1, 2]}');
    await page.getByRole("button", { name: "Add a tool" }).click();
    await page.getByRole("textbox", { name: "Tool name" }).fill("lookup");
    await page.getByRole("textbox", { name: "Result of lookup" }).fill('[{"n": 5}, {"n": 7}]');
    await run(page);
    expect(await page.getByTestId("value").textContent()).toBe("14");
    await page.getByRole("button", { name: "Share" }).click();
    // The link is written once the state is compressed.
    await expect.poll(() => page.locator("#share-link").inputValue()).toMatch(/#v1\.[A-Za-z0-9_-]+$/);
    const link = await page.locator("#share-link").inputValue();
    expect(new URL(link).searchParams.has("code")).toBe(false);
    await page.close();

    const shared = await open(link);
    expect(await shared.page.locator(".cm-content").textContent()).toBe(program);
    expect(await shared.page.inputValue("#context")).toBe('{"xs": [1, 2]}');
    expect(await shared.page.getByRole("textbox", { name: "Tool name" }).inputValue()).toBe("lookup");
    expect(await shared.page.getByRole("textbox", { name: "Result of lookup" }).inputValue()).toBe(
      '[{"n": 5}, {"n": 7}]',
    );
    await run(shared.page);
    expect(await shared.page.getByTestId("value").textContent()).toBe("14");
    await shoot(shared.page, "04-shared-link.png");
    expect(shared.problems).toEqual([]);
    await shared.page.close();
  });

  test("an endless loop stops at the time limit while the page stays responsive, and the next run works", async () => {
    const { page, problems } = await open(codeLink(plain, "(loop [i 0]\n  (recur (inc i)))"));
    await openLimits(page);
    await page.fill("#limit-timeout", "1500");
    await page.fill("#limit-iterations", "1000000000000");
    const before = await counter(page, "runs");
    await page.getByRole("button", { name: "Run", exact: true }).click();
    // The page answers while the program runs: this thread is free.
    expect(await page.evaluate(() => document.querySelector('[data-testid="status"]')?.textContent)).toBe(
      "Running…",
    );
    await page.waitForFunction((count) => Number(document.body.dataset.runs ?? 0) > count, before);
    expect(await page.getByTestId("error-reason").textContent()).toBe("timeout");
    await shoot(page, "05-loop-stopped.png");
    await page.fill("#limit-timeout", "1000");
    await page.locator(".cm-content").click();
    await page.keyboard.press("Control+A");
    await page.keyboard.insertText("(+ 1 2)");
    await run(page);
    expect(await page.getByTestId("value").textContent()).toBe("3");
    expect(problems).toEqual([]);
    await page.close();
  });

  test("a worker that stops answering is terminated at the time limit, and the next run gets a new one", async () => {
    const { page } = await open(codeLink(plain, "(+ 1 2)"));
    await openLimits(page);
    await page.fill("#limit-timeout", "300");
    const worker = page.workers().find((candidate) => candidate.url().endsWith("/run-worker.js"));
    expect(worker).toBeDefined();
    // Busy forever, as a builtin that never yields would be: only terminate() ends it.
    void worker
      ?.evaluate(() => {
        for (;;) {}
      })
      .catch(() => undefined);
    await run(page);
    expect(await page.getByTestId("error-reason").textContent()).toBe("timeout");
    expect(await page.getByTestId("error-message").textContent()).toMatch(
      /past its time limit \(300 ms\), so the page stopped it/,
    );
    expect(await page.getByTestId("status").textContent()).toMatch(/^Stopped after \d+/);
    await shoot(page, "06-worker-stopped.png");
    await run(page);
    expect(await page.getByTestId("value").textContent()).toBe("3");
    await page.close();
  });

  test("the corpus gives what generated code gives in Node", async () => {
    const { page, problems } = await open(`${plain?.url}/`);
    expect(await corpusMismatches(page)).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  });

  test("the replay view replays the demo's combined-mode conversation, with its token table", async () => {
    const { page, problems } = await open(`${plain?.url}/`);
    await page.getByRole("tab", { name: "Replay: combined mode" }).click();
    await page.getByTestId("token-table").waitFor({ timeout: 60_000 });
    expect(await page.getByTestId("replay-turn").count()).toBe(4);
    expect(await page.getByTestId("replay-answer").textContent()).toMatch(
      /^There were \d+ errors with code 42 in the last hour\./,
    );
    const read = Number((await page.getByTestId("tokens-read").textContent())?.replace(/,/g, ""));
    const inlined = Number((await page.getByTestId("tokens-inlined").textContent())?.replace(/,/g, ""));
    expect(read).toBeGreaterThan(0);
    expect(inlined).toBeGreaterThan(read * 10);
    await shoot(page, "07-replay.png");
    expect(problems).toEqual([]);
    await page.close();
  });
});

describe("under a Content-Security-Policy without 'unsafe-eval'", () => {
  test("with code generation switched off up front, the corpus gives generated code's outcomes and nothing is refused", async () => {
    (strict as Server).reports.length = 0;
    const { page, problems } = await open(`${strict?.url}/?codegen=off`);
    expect(await corpusMismatches(page)).toEqual([]);
    await page.getByRole("tab", { name: "Replay: combined mode" }).click();
    await page.getByTestId("token-table").waitFor({ timeout: 60_000 });
    await page.getByRole("tab", { name: "Playground" }).click();
    await shoot(page, "08-csp-codegen-off.png");
    expect(await page.evaluate(() => document.body.dataset.cspViolations)).toBeUndefined();
    expect(problems).toEqual([]);
    // A deliberate violation last: once its report has arrived, an earlier one would have too.
    await page.evaluate(() => {
      const image = new Image();
      image.src = "http://127.0.0.2:9/sentinel.png";
      document.body.append(image);
    });
    await expect.poll(() => (strict as Server).reports.length).toBeGreaterThan(0);
    expect((strict as Server).reports).toEqual([expect.stringContaining("sentinel.png")]);
    await page.close();
  });

  test("left on auto, the one probe is refused and reported, and the corpus still gives the same outcomes", async () => {
    (strict as Server).reports.length = 0;
    const { page, problems } = await open(`${strict?.url}/`);
    expect(await corpusMismatches(page)).toEqual([]);
    expect(await page.getByTestId("status").textContent()).toContain("code generation not allowed here");
    // The probe, and nothing after it: the answer is kept for the worker's life.
    expect(await page.evaluate(() => document.body.dataset.cspViolations)).toBe(
      "script-src eval (run worker)",
    );
    await expect.poll(() => (strict as Server).reports.length).toBe(1);
    expect((strict as Server).reports[0]).toMatch(/"blocked-uri":"eval"/);
    // Chromium logs the refused probe (in the worker); nothing else may go wrong.
    expect(problems.filter((problem) => !/unsafe-eval/.test(problem))).toEqual([]);
    await page.close();
  });
});
