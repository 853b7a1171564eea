#!/usr/bin/env node
// Smoke test for published packages: packs each given package directory with `pnpm pack` (which
// rewrites `workspace:` ranges the way a publish does), installs all tarballs together into a
// fresh temporary project with npm, and imports each package by name from plain Node ESM.
//
//   node .ci/smoke-pack.mjs packages/tool packages/protocol packages/lisp
//
// Build the packages first (their `dist/` is what gets packed). @ptc/* dependencies must be among
// the packed directories: they are not on the registry, so npm can only satisfy them from the
// tarballs. After installing, the script lists the @ptc packages present; a package packed alone
// thus also proves it pulls in no other @ptc package. Exits non-zero on the first failure.
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const directories = process.argv.slice(2).filter((argument) => !argument.startsWith("--"));
const keep = process.argv.includes("--keep");
if (directories.length === 0) {
  console.error("usage: node .ci/smoke-pack.mjs <package-dir>... [--keep]");
  process.exit(2);
}

const run = (command, args, cwd) =>
  execFileSync(command, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
const workdir = mkdtempSync(join(tmpdir(), "ptc-smoke-"));
const tarballs = join(workdir, "tarballs");
const project = join(workdir, "project");

try {
  const packages = directories.map((directory) => {
    const root = resolve(directory);
    const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
    if (!existsSync(join(root, "dist")))
      throw new Error(`${manifest.name}: ${directory}/dist is missing; build it first`);
    const before = new Set(existsSync(tarballs) ? readdirSync(tarballs) : []);
    run("pnpm", ["pack", "--pack-destination", tarballs], root);
    const created = readdirSync(tarballs).filter((file) => file.endsWith(".tgz") && !before.has(file));
    if (created.length !== 1)
      throw new Error(`${manifest.name}: expected one new tarball, found ${created.join(", ") || "none"}`);
    console.log(`packed ${manifest.name}@${manifest.version} -> ${created[0]}`);
    return { name: manifest.name, tarball: join(tarballs, created[0]) };
  });

  run("mkdir", ["-p", project]);
  writeFileSync(
    join(project, "package.json"),
    JSON.stringify({ name: "ptc-smoke", private: true, type: "module" }, null, 2),
  );
  run(
    "npm",
    ["install", "--no-audit", "--no-fund", "--ignore-scripts", ...packages.map((entry) => entry.tarball)],
    project,
  );

  const scope = join(project, "node_modules", "@ptc");
  const installed = readdirSync(scope)
    .map((name) => `@ptc/${name}`)
    .sort();
  console.log(`installed @ptc packages: ${installed.join(", ")}`);
  const unexpected = installed.filter((name) => !packages.some((entry) => entry.name === name));
  if (unexpected.length > 0) throw new Error(`unexpected @ptc packages installed: ${unexpected.join(", ")}`);

  for (const { name } of packages) {
    const script = `const m = await import(${JSON.stringify(name)}); const n = Object.keys(m).length; if (n === 0) throw new Error("no exports"); console.log(${JSON.stringify(name)} + ": " + n + " exports");`;
    process.stdout.write(run("node", ["--input-type=module", "-e", script], project));
  }
  // @ptc/lisp must also run a program, through its API and through its command.
  if (packages.some((entry) => entry.name === "@ptc/lisp")) {
    const program = `const { run, format } = await import("@ptc/lisp"); const r = await run("(->> data/xs (map inc) (reduce +))", { context: { xs: [1, 2, 3] } }); if (!r.ok || format(r.value) !== "9") throw new Error("unexpected result " + JSON.stringify(r)); console.log("@ptc/lisp ran a program: " + format(r.value));`;
    process.stdout.write(run("node", ["--input-type=module", "-e", program], project));
    const cli = run(
      join(project, "node_modules", ".bin", "ptc-lisp"),
      ["-e", "(str (+ 40 2))"],
      project,
    ).trim();
    if (cli !== '"42"') throw new Error(`ptc-lisp -e printed ${cli}`);
    console.log(`ptc-lisp -e printed ${cli}`);
  }
  // @ptc/agent must run an agent through its public entry and its testing subpath, and (Node)
  // with its programs in a worker.
  if (packages.some((entry) => entry.name === "@ptc/agent")) {
    const program = [
      'const { createAgent, run } = await import("@ptc/agent");',
      'const { createScriptedModel } = await import("@ptc/agent/testing");',
      "const fence = String.fromCharCode(96).repeat(3);",
      'const model = createScriptedModel([fence + "clojure\\n(return (count (tool/items {})))\\n" + fence]);',
      'const agent = createAgent({ prompt: "Count items", signature: ":int", tools: { items: () => [1, 2, 3] } });',
      "const r = await run(agent, { llm: model.llm });",
      'if (!r.ok || r.step.return !== 3) throw new Error("unexpected step " + JSON.stringify(r.step.fail));',
      'await import("@ptc/agent/openai");',
      'console.log("@ptc/agent ran an agent: " + r.step.return);',
    ].join(" ");
    process.stdout.write(run("node", ["--input-type=module", "-e", program], project));
    // Its Node subpath runs the same agent's program in a worker: @ptc/lisp's worker.js installed.
    const isolated = program
      .replace(
        'const agent = createAgent({ prompt: "Count items",',
        'const { createWorkerIsolation } = await import("@ptc/agent/node"); const agent = createAgent({ isolation: createWorkerIsolation(), prompt: "Count items",',
      )
      .replace("@ptc/agent ran an agent: ", "@ptc/agent ran an agent in a worker: ");
    process.stdout.write(run("node", ["--input-type=module", "-e", isolated], project));
  }
  // @ptc/mcp must serve lisp_eval through its command to the MCP SDK's own client.
  if (packages.some((entry) => entry.name === "@ptc/mcp")) {
    const program = [
      'const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");',
      'const { StdioClientTransport } = await import("@modelcontextprotocol/sdk/client/stdio.js");',
      'const { createPtcMcpServer } = await import("@ptc/mcp");',
      'if (typeof createPtcMcpServer !== "function") throw new Error("createPtcMcpServer is missing");',
      'const client = new Client({ name: "smoke", version: "1.0.0" });',
      'await client.connect(new StdioClientTransport({ command: process.execPath, args: ["node_modules/@ptc/mcp/bin/ptc-mcp.mjs"], stderr: "ignore" }));',
      'const result = await client.callTool({ name: "lisp_eval", arguments: { program: "(reduce + (range 10))" } });',
      "await client.close();",
      'const { unwrapUntrusted } = await import("@ptc/protocol");',
      "const body = JSON.parse(result.content[0].text);",
      // The result field is framed as untrusted data, like every value a program gives the model.
      "const value = unwrapUntrusted(body.result);",
      'if (value !== "user=> 45") throw new Error("unexpected lisp_eval result " + JSON.stringify(body));',
      'console.log("ptc-mcp answered lisp_eval: " + value);',
    ].join(" ");
    process.stdout.write(run("node", ["--input-type=module", "-e", program], project));
  }
  console.log("smoke-pack: ok");
} catch (error) {
  const output = error && typeof error === "object" && "stderr" in error ? String(error.stderr) : "";
  console.error(
    `smoke-pack: failed: ${error instanceof Error ? error.message : String(error)}${output ? `\n${output}` : ""}`,
  );
  process.exitCode = 1;
} finally {
  if (keep) console.log(`kept ${workdir}`);
  else rmSync(workdir, { recursive: true, force: true });
}
