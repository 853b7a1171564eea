/**
 * workerd serving one bundle on loopback. The listening socket is opened here and handed to
 * workerd as a file descriptor (`--socket-fd`), so the port is known before workerd starts and
 * connections wait in the socket's backlog until it accepts them: no port race, no polling.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer, type Server } from "node:net";
import { basename, join } from "node:path";

/** The binary the `workerd` package carries (in its platform package, e.g. @cloudflare/workerd-linux-64). */
export function workerdBinary(): string {
  const workerd = createRequire(import.meta.url)("workerd") as { default: string; compatibilityDate: string };
  return workerd.default;
}

export interface WorkerdProcess {
  /** http://127.0.0.1:<port> */
  readonly url: string;
  /** What workerd wrote to stdout and stderr so far (for failure messages). */
  output(): string;
  stop(): Promise<void>;
}

function config(bundle: string, compatibilityDate: string): string {
  return `using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [ (name = "main", worker = .worker) ],
  sockets = [ (name = "http", http = (), service = "main") ],
);

const worker :Workerd.Worker = (
  modules = [ (name = "worker.js", esModule = embed "${basename(bundle)}") ],
  compatibilityDate = "${compatibilityDate}",
);
`;
}

function listen(): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve(server));
  });
}

export async function startWorkerd(
  bundle: string,
  compatibilityDate = "2025-09-01",
): Promise<WorkerdProcess> {
  const directory = join(bundle, "..");
  writeFileSync(join(directory, "config.capnp"), config(bundle, compatibilityDate));
  const server = await listen();
  const address = server.address();
  if (address === null || typeof address === "string")
    throw new Error("no TCP address for the workerd socket");
  // The descriptor of the listening socket: Node exposes it only on its internal handle.
  const fd = (server as unknown as { _handle: { fd: number } })._handle.fd;
  let output = "";
  const child: ChildProcess = spawn(workerdBinary(), ["serve", "config.capnp", "--socket-fd", "http=3"], {
    cwd: directory,
    stdio: ["ignore", "pipe", "pipe", fd],
  });
  child.stdout?.on("data", (chunk) => {
    output += String(chunk);
  });
  child.stderr?.on("data", (chunk) => {
    output += String(chunk);
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  // workerd holds its own copy of the socket now.
  server.close();
  return {
    url: `http://127.0.0.1:${address.port}`,
    output: () => output,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGTERM");
        const killer = setTimeout(() => child.kill("SIGKILL"), 5000);
        await exited;
        clearTimeout(killer);
      }
    },
  };
}
