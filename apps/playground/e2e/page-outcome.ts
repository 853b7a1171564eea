/**
 * What the playground shows after a run, read back from the page into the shape no-eval.test.ts
 * records for @ptc/lisp (packages/lisp/src/__fixtures__/no-eval-outcomes.json), so a run in the
 * browser can be compared with what generated code gives in Node.
 */
import type { Page } from "playwright-core";

export async function pageOutcome(page: Page): Promise<Record<string, unknown>> {
  return page.evaluate(() => {
    const text = (id: string) => document.querySelector(`[data-testid="${id}"]`)?.textContent ?? "";
    const output = document.querySelector('[data-testid="output"]') as HTMLElement;
    const prints = output.classList.contains("empty") ? [] : (output.textContent ?? "").split("\n");
    const toolCalls = [...document.querySelectorAll('[data-testid="tool-calls"] li')].map((item) => {
      const [name = "", ...args] = (item.textContent ?? "").split(" ");
      return [name.replace(/^tool\//, ""), JSON.parse(args.join(" "))];
    });
    const error = document.querySelector('[data-testid="error"]') as HTMLElement;
    if (!error.hidden) {
      const position = /^line (\d+), column (\d+)$/.exec(text("error-position"));
      return {
        prints,
        toolCalls,
        error: {
          reason: text("error-reason"),
          message: text("error-message"),
          line: position === null ? null : Number(position[1]),
          column: position === null ? null : Number(position[2]),
        },
      };
    }
    const status = text("status");
    return {
      prints,
      toolCalls,
      // The pane lays long values out over lines; joined, they are format's text (pretty-value.ts).
      value: text("value").replace(/\n */g, " "),
      json: JSON.parse(text("value-json")),
      returned: status.startsWith("Returned"),
    };
  });
}
