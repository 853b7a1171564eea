/**
 * Errors as a compiler shows them: the reason and message, then where, then the source line with
 * a caret under the column.
 *
 *   error[unbound_var]: Undefined variable: totl. ...
 *    --> report.clj:3:12
 *     |
 *   3 |   (sum-by totl orders))
 *     |           ^
 */
import type { RunError } from "../run.js";

export function renderError(error: RunError, source: string, name: string): string {
  const lines = [`error[${error.reason}]: ${error.message}`];
  if (error.line === undefined) return `${lines[0]}\n`;
  const column = error.column ?? 1;
  lines.push(` --> ${name}:${error.line}:${column}`);
  const text = source.split(/\r?\n/)[error.line - 1];
  if (text !== undefined) {
    const number = String(error.line);
    const gutter = " ".repeat(number.length);
    // Tabs stay tabs so the caret lines up however the terminal renders them.
    const indent = Array.from(text.slice(0, Math.max(0, column - 1)), (char) =>
      char === "\t" ? "\t" : " ",
    ).join("");
    lines.push(`${gutter} |`, `${number} | ${text}`, `${gutter} | ${indent}^`);
  }
  return `${lines.join("\n")}\n`;
}
