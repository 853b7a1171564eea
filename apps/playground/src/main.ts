/**
 * The playground page: the editor, the context and mock tools, Run (and Mod-Enter), the results,
 * share links, and the replay view. Programs never run on this thread: runner.ts hands them to a
 * Web Worker and stops it at the time limit.
 *
 * `?codegen=off` switches code generation off in the workers before their first run (for pages
 * served under a Content-Security-Policy without 'unsafe-eval'); without it @ptc/lisp finds out
 * by itself. `?code=<program>` opens a program; a `#v1.` hash opens a shared program, context and
 * tools.
 */
import type { CodeGeneration } from "@ptc/lisp";
import { createProgramEditor } from "./editor/editor.js";
import { EXAMPLES, type Example } from "./examples.js";
import { InputError, InputsPane } from "./panes/inputs-pane.js";
import { renderReferenceCard } from "./panes/reference-card.js";
import { ResultsPane } from "./panes/results-pane.js";
import { Runner } from "./run/runner.js";
import { codeFromQuery, decodeState, encodeState, type PlaygroundState } from "./share/share-state.js";

function element<T extends HTMLElement>(selector: string): T {
  const found = document.querySelector<T>(selector);
  if (found === null) throw new Error(`the page has no ${selector}`);
  return found;
}

const params = new URLSearchParams(location.search);
const codeGeneration: CodeGeneration = params.get("codegen") === "off" ? "off" : "auto";

// Violations of the page's Content-Security-Policy, here and in the workers: counted on <body>,
// where a test (or a curious visitor with devtools) can read them.
const violations: string[] = [];
function noteViolation(what: string): void {
  violations.push(what);
  document.body.dataset.cspViolations = violations.join("\n");
}
document.addEventListener("securitypolicyviolation", (event) =>
  noteViolation(`${event.effectiveDirective} ${event.blockedURI} (page)`),
);

const runner = new Runner({
  workerUrl: "run-worker.js",
  onViolation: (violation) => noteViolation(`${violation.directive} ${violation.blockedURI} (run worker)`),
});
const runButton = element<HTMLButtonElement>("#run");
const stopButton = element<HTMLButtonElement>("#stop");
// Counted on <body> for tests: runs shown, and programs loaded (an example, a link).
let runs = 0;
let loads = 0;
let latest = 0;

const shareLink = element<HTMLInputElement>("#share-link");
const shareStatus = element<HTMLElement>("#share-status");
/** A share link shown is stale once anything it carries changes. */
function forgetShareLink(): void {
  shareLink.hidden = true;
  shareStatus.textContent = "";
}

const editor = createProgramEditor({
  parent: element("#editor"),
  text: "",
  onRun: () => void runProgram(),
  onChange: forgetShareLink,
});
const inputs = new InputsPane(document, forgetShareLink);
inputs.setCodeGeneration(codeGeneration);
const results = new ResultsPane(document, (mark) => editor.focusAt(mark));
renderReferenceCard(element("#reference-card"));

async function runProgram(): Promise<void> {
  const runNumber = ++latest;
  let read: ReturnType<InputsPane["read"]>;
  try {
    read = inputs.read();
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    results.showInputError(error.message);
    editor.markError(null);
    return;
  }
  const program = editor.getText();
  results.running();
  stopButton.hidden = false;
  const outcome = await runner.run({ program, ...read });
  // A run started after this one has the panes now.
  if (runNumber !== latest) return;
  stopButton.hidden = true;
  const mark = results.show(outcome, {
    limits: read.limits,
    programBytes: new TextEncoder().encode(program).length,
  });
  editor.markError(mark ?? null);
  document.body.dataset.runs = String(++runs);
}

function load(state: PlaygroundState): void {
  editor.setText(state.program);
  inputs.setContext(state.context);
  inputs.setTools(state.tools);
  editor.markError(null);
  document.body.dataset.loads = String(++loads);
}

// Examples.
const examples = element<HTMLSelectElement>("#examples");
for (const example of EXAMPLES) {
  const option = document.createElement("option");
  option.value = example.id;
  option.textContent = example.title;
  examples.append(option);
}
examples.addEventListener("change", () => {
  const example = EXAMPLES.find((candidate) => candidate.id === examples.value);
  if (example !== undefined) load(example);
});

runButton.addEventListener("click", () => void runProgram());
stopButton.addEventListener("click", () => runner.stop());

// Sharing.
element<HTMLButtonElement>("#share").addEventListener("click", async () => {
  const { context, tools } = inputs.texts();
  const url = new URL(location.href);
  url.searchParams.delete("code");
  url.hash = await encodeState({ program: editor.getText(), context, tools });
  history.replaceState(null, "", url);
  shareLink.value = url.href;
  shareLink.hidden = false;
  shareLink.select();
  try {
    await navigator.clipboard.writeText(url.href);
    shareStatus.textContent = "Link copied";
  } catch {
    shareStatus.textContent = "Copy the link";
  }
});

async function loadFromLocation(): Promise<void> {
  try {
    const shared = await decodeState(location.hash);
    if (shared !== undefined) {
      load(shared);
      examples.value = "";
      return;
    }
  } catch (error) {
    results.showInputError((error as Error).message);
  }
  const code = codeFromQuery(location.search);
  if (code !== undefined) {
    load({ program: code, context: "{}", tools: [] });
    examples.value = "";
    return;
  }
  const first = EXAMPLES[0] as Example;
  load(first);
  examples.value = first.id;
}
window.addEventListener("hashchange", () => void loadFromLocation());

// Views: the playground and the replay of the demo's conversation (loaded when first opened).
const views = { playground: element("#playground-view"), replay: element("#replay-view") };
let replayShown = false;
for (const tab of document.querySelectorAll<HTMLButtonElement>("[role=tab]")) {
  tab.addEventListener("click", () => {
    const name = tab.dataset.view as keyof typeof views;
    for (const other of document.querySelectorAll<HTMLButtonElement>("[role=tab]"))
      other.setAttribute("aria-selected", String(other === tab));
    views.playground.hidden = name !== "playground";
    views.replay.hidden = name !== "replay";
    if (name === "replay" && !replayShown) {
      replayShown = true;
      void import("./replay/replay-view.js").then(({ showReplay }) =>
        showReplay(element("#replay"), "replay-worker.js", codeGeneration, (what) =>
          noteViolation(`${what} (replay worker)`),
        ),
      );
    }
  });
}

// Mod-Enter works from the context and tools too, not only from the editor.
document.addEventListener("keydown", (event) => {
  // The editor's own Mod-Enter has run the program already (and prevented the default).
  if (event.defaultPrevented) return;
  if (event.key === "Enter" && (event.metaKey || event.ctrlKey) && !views.playground.hidden) {
    event.preventDefault();
    void runProgram();
  }
});

await loadFromLocation();
await runner.warmUp();
document.body.dataset.ready = "true";
