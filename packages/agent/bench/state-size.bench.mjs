#!/usr/bin/env node
// How large a paused run's state is, by what the run did before it paused. Run after `pnpm build`
// (it loads the built packages):
//   node packages/agent/bench/state-size.bench.mjs
// Each line pauses one run with a scripted model and prints the state's size as JSON text (the
// characters a host stores) and where those characters are. See docs/approvals.md ("How large the
// state is") for the figures and what they mean.
const { createAgent, run } = await import("@ptc/agent");
const { createScriptedModel } = await import("@ptc/agent/testing");

const fence = (program) => `\`\`\`clojure\n${program}\n\`\`\``;
const row = (id) => ({ id, customer: `customer-${id % 97}`, status: "delivered", total: 100 + (id % 50) });

function agentWith(rowsPerCall) {
  return createAgent({
    prompt: "Refund what needs refunding",
    tools: {
      orders: {
        signature: "(page :int) -> [:map]",
        execute: ({ page }) =>
          Array.from({ length: rowsPerCall }, (_, index) => row(page * rowsPerCall + index)),
      },
      refund: {
        signature: "(id :int) -> :map",
        needsApproval: true,
        execute: ({ id }) => ({ refunded: id }),
      },
    },
  });
}

/** Pauses a run whose turns before the last ran `earlier` programs, and returns its state's sizes. */
async function measure({ calls, rows, earlierTurns = 0, secret }) {
  const agent = agentWith(rows);
  const script = [];
  for (let turn = 0; turn < earlierTurns; turn++) script.push(fence(`(def n${turn} ${turn})`));
  script.push(
    fence(
      calls === 0
        ? "(tool/refund {:id 1})"
        : `(def pages (mapv #(tool/orders {:page %}) (range ${calls})))\n(tool/refund {:id (:id (first (first pages)))})`,
    ),
  );
  const model = createScriptedModel(script);
  const result = await run(agent, {
    llm: model.llm,
    ...(secret ? { stateSecret: secret } : {}),
  });
  if (!result.paused) throw new Error(`did not pause: ${JSON.stringify(result.step.fail)}`);
  const size = (value) => JSON.stringify(value ?? null).length;
  const { run: body } = result.state;
  return {
    total: size(result.state),
    ledger: size(body.pausedTurn.ledger),
    records: size(body.pausedTurn.records),
    turns: size(body.loop.turns),
    messages: size(body.loop.messages) + size(body.pausedTurn.at.messages ?? []),
    prompts: size(body.loop.firstSystemPrompt) + size(body.pausedTurn.at.system ?? ""),
  };
}

const kb = (chars) => `${(chars / 1024).toFixed(1)} KB`.padStart(10);
const print = (label, figures) =>
  console.log(
    `${label.padEnd(34)}${kb(figures.total)}  ledger ${kb(figures.ledger)}  records ${kb(figures.records)}  turns ${kb(figures.turns)}  messages ${kb(figures.messages)}  prompts ${kb(figures.prompts)}`,
  );

console.log("calls before the pause (1 row each)");
for (const calls of [0, 1, 10, 100, 1000]) print(`  ${calls} calls`, await measure({ calls, rows: 1 }));
console.log("rows returned before the pause (1 call)");
for (const rows of [10, 100, 1000, 10000]) print(`  ${rows} rows`, await measure({ calls: 1, rows }));
console.log("calls x rows");
for (const [calls, rows] of [
  [10, 100],
  [100, 100],
]) {
  print(`  ${calls} calls x ${rows} rows`, await measure({ calls, rows }));
}
console.log("turns before the paused one (no tool calls in them)");
for (const earlierTurns of [0, 2, 4])
  print(`  ${earlierTurns} earlier turns`, await measure({ calls: 0, rows: 1, earlierTurns }));
console.log("signed (stateSecret) against unsigned");
print("  unsigned, 10 calls", await measure({ calls: 10, rows: 1 }));
print("  signed, 10 calls", await measure({ calls: 10, rows: 1, secret: "x".repeat(32) }));
