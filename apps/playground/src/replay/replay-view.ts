/**
 * The second view: the demo's combined-mode conversation replayed in the browser. Each turn shows
 * what the model saw that was new to it (with its size in tokens), what it answered (native calls,
 * programs), and the context tokens of the request; the table at the end compares them with what
 * the same conversation would have cost with every native result inlined in full.
 */
import type { ReplayReply, ReplayResult, ReplayTurn, ShownMessage } from "./replay-protocol.js";

const number = new Intl.NumberFormat("en");

/** Longest message shown open; longer ones are folded, whole, under their first lines. */
const SHOWN_CHARS = 1200;

function make<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  options: { className?: string; text?: string; testId?: string } = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (options.className !== undefined) node.className = options.className;
  if (options.text !== undefined) node.textContent = options.text;
  if (options.testId !== undefined) node.dataset.testid = options.testId;
  node.append(...children);
  return node;
}

function messageBlock(message: ShownMessage): HTMLElement {
  const head = make(
    "div",
    { className: "message-head" },
    make("span", { className: `role role-${message.role}`, text: message.label }),
    make("span", { className: "tokens", text: `${number.format(message.tokens)} tokens` }),
  );
  const block = make("div", { className: "message" }, head);
  if (message.content.length <= SHOWN_CHARS) {
    block.append(make("pre", { className: "message-body", text: message.content }));
  } else {
    // Its first lines, and the whole text on request (the preview hides while it is shown).
    block.append(
      make("pre", { className: "message-body preview", text: `${message.content.slice(0, 400).trimEnd()}…` }),
      make(
        "details",
        {},
        make("summary", { text: `Show all ${number.format(message.content.length)} characters` }),
        make("pre", { className: "message-body", text: message.content }),
      ),
    );
  }
  return block;
}

function turnBlock(turn: ReplayTurn): HTMLElement {
  const section = make("section", { className: "turn", testId: "replay-turn" });
  section.append(
    make(
      "h3",
      {},
      `Turn ${turn.turn}`,
      make("span", {
        className: "turn-tokens",
        text: `${number.format(turn.tokensRead)} context tokens (inlined: ${number.format(turn.tokensInlined)})`,
      }),
    ),
  );
  const seen = make("div", { className: "seen" }, make("h4", { text: "What the model saw (new this turn)" }));
  for (const message of turn.seen) seen.append(messageBlock(message));
  const reply = make("div", { className: "reply" }, make("h4", { text: "What the model did" }));
  if (turn.reply.text !== "") reply.append(make("p", { className: "reply-text", text: turn.reply.text }));
  for (const call of turn.reply.calls) {
    reply.append(
      make(
        "div",
        { className: "call" },
        make("code", {
          className: "call-name",
          text: call.isProgram ? "lisp_eval program" : `${call.name} (native call)`,
        }),
        make("pre", { className: call.isProgram ? "program" : "args", text: call.text }),
      ),
    );
  }
  section.append(make("div", { className: "turn-body" }, seen, reply));
  return section;
}

function tokenTable(result: ReplayResult): HTMLTableElement {
  const table = make("table", { className: "token-table", testId: "token-table" });
  table.append(
    make(
      "thead",
      {},
      make(
        "tr",
        {},
        make("th", { text: "turn" }),
        make("th", { text: "context tokens read" }),
        make("th", { text: "with native results inlined" }),
      ),
    ),
  );
  const body = make("tbody");
  for (const turn of result.turns) {
    body.append(
      make(
        "tr",
        {},
        make("td", { text: String(turn.turn) }),
        make("td", { text: number.format(turn.tokensRead) }),
        make("td", { text: number.format(turn.tokensInlined) }),
      ),
    );
  }
  table.append(body);
  table.append(
    make(
      "tfoot",
      {},
      make(
        "tr",
        {},
        make("th", { text: "total" }),
        make("th", { text: number.format(result.tokensRead), testId: "tokens-read" }),
        make("th", { text: number.format(result.tokensInlined), testId: "tokens-inlined" }),
      ),
    ),
  );
  return table;
}

function render(parent: HTMLElement, result: ReplayResult): void {
  const summary = make(
    "div",
    { className: "replay-summary" },
    make("p", { className: "question", text: result.question }),
    make("p", {
      text: `${number.format(result.logLines)} log lines · ${result.turns.length} turns · ${result.nativeCalls} native calls, ${result.programCalls} from programs, ${result.cacheHits} answered from the cache`,
    }),
  );
  const answer = make(
    "section",
    { className: "answer" },
    make("h3", { text: "Answer" }),
    make("p", { text: result.answer, testId: "replay-answer" }),
  );
  const bill = make(
    "section",
    { className: "bill" },
    make("h3", { text: "Token bill" }),
    tokenTable(result),
    make("p", {
      className: "saved",
      text: `The model read ${number.format(result.tokensRead)} context tokens; inlining the native results would have sent ${number.format(result.tokensInlined)} (${result.percentSaved.toFixed(1)}% saved).`,
    }),
  );
  parent.replaceChildren(summary, ...result.turns.map(turnBlock), answer, bill);
}

/** Replays the conversation once and renders it into `parent`. */
export function showReplay(
  parent: HTMLElement,
  workerUrl: string,
  codeGeneration: "auto" | "off",
  onViolation: (directive: string) => void,
): Promise<void> {
  parent.replaceChildren(
    make("p", { className: "replay-status", text: "Replaying the conversation…", testId: "replay-status" }),
  );
  const worker = new Worker(workerUrl);
  return new Promise((resolve) => {
    worker.addEventListener("message", (event: MessageEvent<ReplayReply>) => {
      const reply = event.data;
      if (reply.type === "csp-violation") {
        onViolation(`${reply.directive} ${reply.blockedURI}`);
        return;
      }
      worker.terminate();
      if (reply.type === "replayed") render(parent, reply.result);
      else parent.replaceChildren(make("p", { className: "replay-status failed", text: reply.message }));
      resolve();
    });
    worker.postMessage({ type: "replay", codeGeneration });
  });
}
