/**
 * Questions at the terminal, one answer a line: typed at a prompt, or piped in
 * (`printf 'y\nn\n' | pnpm start -- --scenario refunds`). When the input ends, every later
 * question gets no answer, which the refund scenario reads as "no".
 */
import { createInterface } from "node:readline";
import type { Output } from "../view/terminal.js";
import type { Ask } from "./refund-scenario.js";

export function createTerminalAsk(
  input: NodeJS.ReadableStream,
  output: Output,
): { readonly ask: Ask; close(): void } {
  let lines: AsyncIterator<string> | undefined;
  let reader: ReturnType<typeof createInterface> | undefined;
  return {
    async ask(question) {
      output.write(question);
      reader ??= createInterface({ input, terminal: false });
      lines ??= reader[Symbol.asyncIterator]();
      const next = await lines.next();
      const answer = next.done === true ? undefined : next.value;
      // A terminal echoes what was typed; piped answers are shown, so the transcript reads as typed.
      if (answer !== undefined && (input as { isTTY?: boolean }).isTTY !== true) output.write(`${answer}\n`);
      return answer;
    },
    close() {
      reader?.close();
    },
  };
}
