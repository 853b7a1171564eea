/**
 * The worker as a user would deploy it: the built @ptc packages packed with `pnpm pack` (which
 * rewrites `workspace:` ranges as a publish does), installed from the tarballs into an empty
 * project with npm, and src/worker.ts bundled against them by esbuild for workerd (the "workerd",
 * "worker" and "browser" conditions, no Node built-ins). Nothing from the workspace's sources
 * reaches the bundle.
 */
import { execFileSync } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = resolve(fileURLToPath(new URL("../../..", import.meta.url)));
const PACKAGES = ["packages/lisp", "packages/tool", "packages/protocol", "packages/agent"];

export interface PackedWorker {
  /** The folder holding the bundles workerd runs. */
  readonly directory: string;
  /** worker.js, from src/worker.ts. */
  readonly bundle: string;
  /** docs-worker.js, from src/docs-worker.ts: the example of docs/edge.md. */
  readonly docsBundle: string;
  remove(): void;
}

const exec = (command: string, args: readonly string[], cwd: string): string =>
  execFileSync(command, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });

export async function packedWorker(): Promise<PackedWorker> {
  for (const directory of PACKAGES) {
    if (!existsSync(join(root, directory, "dist", "index.js")))
      throw new Error(`${directory}/dist is missing: run \`pnpm build\` before the workerd test`);
  }
  const directory = mkdtempSync(join(tmpdir(), "ptc-workerd-"));
  try {
    const tarballs = join(directory, "tarballs");
    mkdirSync(tarballs);
    for (const entry of PACKAGES) exec("pnpm", ["pack", "--pack-destination", tarballs], join(root, entry));
    const packed = readdirSync(tarballs)
      .filter((file) => file.endsWith(".tgz"))
      .map((file) => join(tarballs, file));
    if (packed.length !== PACKAGES.length)
      throw new Error(`expected ${PACKAGES.length} tarballs, found ${packed.join(", ")}`);
    writeFileSync(
      join(directory, "package.json"),
      JSON.stringify({ name: "ptc-workerd", private: true, type: "module" }),
    );
    exec("npm", ["install", "--no-audit", "--no-fund", "--ignore-scripts", ...packed], directory);
    for (const name of ["worker", "docs-worker"]) {
      copyFileSync(
        fileURLToPath(new URL(`../src/${name}.ts`, import.meta.url)),
        join(directory, `${name}.ts`),
      );
      await build({
        entryPoints: [join(directory, `${name}.ts`)],
        absWorkingDir: directory,
        bundle: true,
        format: "esm",
        platform: "neutral",
        mainFields: ["module", "main"],
        conditions: ["workerd", "worker", "browser"],
        target: "es2022",
        outfile: join(directory, `${name}.js`),
        logLevel: "silent",
      });
    }
    return {
      directory,
      bundle: join(directory, "worker.js"),
      docsBundle: join(directory, "docs-worker.js"),
      remove: () => rmSync(directory, { recursive: true, force: true }),
    };
  } catch (error) {
    rmSync(directory, { recursive: true, force: true });
    throw error;
  }
}
