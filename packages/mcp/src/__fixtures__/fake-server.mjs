// A tiny MCP server over stdio, written by hand (no SDK), that misbehaves on request. Its first
// argument picks the behaviour of its tools:
//   well       answers everything properly (tools: echo, slow)
//   crash      exits with code 3 in the middle of a tools/call
//   crash-emoji    as crash, after a stderr line of 499 `e`s, an emoji and more (kept lines are
//                  cut at 500 code units, which falls between the emoji's two halves)
//   hang       never answers tools/call (and, with --stubborn, ignores SIGTERM and end of stdin)
//   garbage    prints text that is not MCP on stdout, and answers tools/call with more of it
//   big        answers tools/call with a result of 300 KB
//   paged      lists its tools over three pages; the tool `grow` adds a tool and says so
//   dies-at-start  exits before the handshake, after a line on stderr
//   mute       prints text that is not MCP and never answers anything, the handshake included
//   ids        answers like `well`, but its tools' input schemas name themselves with an `$id`
//   list-hangs     completes the handshake, then never answers tools/list
//   bad-list       lists a tool whose input schema is not an object schema, which MCP forbids
//   dup-list       lists `echo` twice (as a server whose pages overlap does)
//   big-one        answers like `well`, plus a tool `huge` whose answer is 300 KB, written with
//                  its id last, as servers built on the SDK write it
//   flood          answers like `well`, plus a tool `flood` that answers, then says its tool list
//                  changed 200 times in a row; it reports each tools/list on stderr (`listed N`)
//   typed-pages    lists two tools with an output schema, one per page, and answers every call
//                  with structured content that breaks it
//   redos          answers like `well`, but `echo`'s `text` must match `^(a+)+$` (exponential on a
//                  backtracking engine); `guarded` has a lookahead pattern in its input schema;
//                  `typed` answers `{"v": "aaa...a!"}` (40 `a`s) where its output schema says `v`
//                  matches `^(a+)+$`; `peeking` has a lookahead in its output schema
//   proto-names    answers like `well`, and also lists `__proto__`, `constructor` and `toString`
//   reshaping      lists `echo` and `typed` with patterns that change at every tools/list (the
//                  listing's number is in them), as a server that re-lists after list_changed
//                  with new schemas; `typed` answers as in `redos`
//   nested         answers like `well`, but `echo` is listed as `b__echo` (with the prefix
//                  `a__`, it is named as the tool `echo` of a server whose prefix is `a__b__`)
// `slow` answers after the number of milliseconds given in its `ms` argument, and reports on
// stderr each cancellation it receives and the most calls it had in flight at once.
import { createInterface } from "node:readline";

const mode = process.argv[2] ?? "well";
const stubborn = process.argv.includes("--stubborn");
const send = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);
const answer = (id, result) => send({ jsonrpc: "2.0", id, result });

if (mode === "dies-at-start") {
  process.stderr.write("fatal: missing API key FAKE_TOKEN\n");
  process.exit(1);
}
if (stubborn) {
  process.on("SIGTERM", () => process.stderr.write("ignoring SIGTERM\n"));
  // Something to do forever, so the end of stdin does not end the process either.
  setInterval(() => undefined, 60_000);
}
if (mode === "garbage" || mode === "mute") process.stdout.write("Server starting... (this line is not MCP)\n");

const tool = (name, properties = {}) => ({ name, description: `the ${name} tool`, inputSchema: { type: "object", properties } });
let tools =
  mode === "paged"
    ? [tool("one"), tool("two"), tool("three"), tool("grow")]
    : [tool("echo", { text: { type: "string" } }), tool("slow", { ms: { type: "integer" } }), tool("work")];
if (mode === "big-one") tools.push(tool("huge"));
// Tool names that are also the names of Object.prototype's properties.
if (mode === "proto-names") tools.push(tool("__proto__"), tool("constructor"), tool("toString"));
if (mode === "flood") tools.push(tool("flood"));
if (mode === "redos") {
  tools[0].inputSchema.properties.text.pattern = "^(a+)+$";
  tools.push(tool("guarded", { user: { type: "string", pattern: "^(?!admin)" } }));
  const withOutput = (name, pattern) => ({
    ...tool(name),
    outputSchema: { type: "object", properties: { v: { type: "string", pattern } } },
  });
  tools.push(withOutput("typed", "^(a+)+$"), withOutput("peeking", "^(?!a)"));
}
let listed = 0;
if (mode === "nested") tools[0] = { ...tools[0], name: "b__echo" };
function reshaped() {
  listed++;
  const echo = tool("echo", { text: { type: "string", pattern: `^[a-z]+$|^v${listed}$` } });
  const typed = {
    ...tool("typed"),
    outputSchema: { type: "object", properties: { v: { type: "string", pattern: `^(a+)+$|^v${listed}$` } } },
  };
  return [echo, typed];
}
if (mode === "ids") {
  for (const listed of tools) listed.inputSchema.$id = `https://example.com/schemas/${listed.name}.json`;
}

let inFlight = 0;
let mostInFlight = 0;
const pending = new Map();

function callTool(id, name, args) {
  if (mode === "crash") {
    process.stderr.write("panic: index out of range\n");
    process.exit(3);
  }
  if (mode === "crash-emoji") {
    process.stderr.write(`${"e".repeat(499)}\u{1F600} and more\n`);
    process.exit(3);
  }
  if (mode === "hang") return;
  if (mode === "garbage") {
    process.stdout.write("DEBUG handling tools/call\n");
    return;
  }
  if (mode === "typed-pages") return answer(id, { content: [], structuredContent: { count: "many" } });
  if (name === "typed" || name === "peeking") {
    return answer(id, { content: [], structuredContent: { v: `${"a".repeat(40)}!` } });
  }
  if (name === "flood") {
    answer(id, { content: [{ type: "text", text: "flooding" }] });
    for (let i = 0; i < 200; i++) send({ jsonrpc: "2.0", method: "notifications/tools/list_changed" });
    return;
  }
  if (name === "huge") {
    const result = { content: [{ type: "text", text: "x".repeat(300_000) }] };
    return process.stdout.write(`${JSON.stringify({ result, jsonrpc: "2.0", id })}\n`);
  }
  if (mode === "big") return answer(id, { content: [{ type: "text", text: "x".repeat(300_000) }] });
  if (mode === "deep") {
    // structuredContent nested 100,000 deep, written by hand: JSON.stringify itself would overflow.
    const deep = `${"[".repeat(100_000)}${"]".repeat(100_000)}`;
    return process.stdout.write(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"content":[],"structuredContent":{"v":${deep}}}}\n`);
  }
  if (name === "grow") {
    tools = [...tools, tool(`grown${tools.length}`)];
    answer(id, { content: [{ type: "text", text: "grown" }] });
    send({ jsonrpc: "2.0", method: "notifications/tools/list_changed" });
    return;
  }
  if (name === "slow") {
    inFlight++;
    mostInFlight = Math.max(mostInFlight, inFlight);
    process.stderr.write(`in flight: ${inFlight}, most: ${mostInFlight}\n`);
    const timer = setTimeout(() => {
      inFlight--;
      pending.delete(id);
      answer(id, { content: [{ type: "text", text: JSON.stringify({ slept: args.ms ?? 0 }) }] });
    }, args.ms ?? 0);
    pending.set(id, timer);
    return;
  }
  answer(id, { content: [{ type: "text", text: JSON.stringify({ tool: name, args }) }] });
}

const lines = createInterface({ input: process.stdin });
lines.on("line", (line) => {
  if (mode === "mute") return;
  const message = JSON.parse(line);
  if (message.method === "initialize") {
    return answer(message.id, {
      protocolVersion: message.params.protocolVersion,
      capabilities: { tools: { listChanged: true } },
      serverInfo: { name: `fake-${mode}`, version: "0.0.1" },
    });
  }
  if (message.method === "tools/list") {
    if (mode === "flood") process.stderr.write(`listed ${++listed}\n`);
    if (mode === "list-hangs") return;
    if (mode === "reshaping") return answer(message.id, { tools: reshaped() });
    if (mode === "bad-list") return answer(message.id, { tools: [...tools, { name: "loose", inputSchema: {} }] });
    if (mode === "dup-list") return answer(message.id, { tools: [...tools, tool("echo")] });
    if (mode === "typed-pages") {
      const typed = (name) => ({ ...tool(name), outputSchema: { type: "object", properties: { count: { type: "integer" } } } });
      return message.params?.cursor === undefined
        ? answer(message.id, { tools: [typed("first")], nextCursor: "2" })
        : answer(message.id, { tools: [typed("second")] });
    }
    if (mode !== "paged") return answer(message.id, { tools });
    const start = Number(message.params?.cursor ?? 0);
    const next = start + 2 < tools.length ? { nextCursor: String(start + 2) } : {};
    return answer(message.id, { tools: tools.slice(start, start + 2), ...next });
  }
  if (message.method === "tools/call") return callTool(message.id, message.params.name, message.params.arguments ?? {});
  if (message.method === "notifications/cancelled") {
    process.stderr.write(`cancelled ${message.params.requestId}\n`);
    const timer = pending.get(message.params.requestId);
    if (timer !== undefined) {
      clearTimeout(timer);
      pending.delete(message.params.requestId);
      inFlight--;
    }
    return;
  }
  if (message.id !== undefined && message.method === "ping") return answer(message.id, {});
});
if (!stubborn) lines.on("close", () => process.exit(0));
