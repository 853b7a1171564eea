/**
 * workerd serving bundles on loopback, one socket each. The listening sockets are opened here and
 * handed to workerd as file descriptors (`--socket-fd`), so the ports are known before workerd
 * starts and connections wait in each socket's backlog until it accepts them: no port race, no
 * polling.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer, type Server } from "node:net";
import { basename, dirname, join } from "node:path";

/** The binary the `workerd` package carries (in its platform package, e.g. @cloudflare/workerd-linux-64). */
export function workerdBinary(): string {
  const workerd = createRequire(import.meta.url)("workerd") as { default: string };
  return workerd.default;
}

export interface WorkerdProcess {
  /** Each service's http://127.0.0.1:<port>, by name. */
  readonly urls: Readonly<Record<string, string>>;
  /** What workerd wrote to stdout and stderr so far (for failure messages). */
  output(): string;
  stop(): Promise<void>;
}

export interface WorkerService {
  readonly name: string;
  /** An ES module bundle; every bundle must be in the same folder. */
  readonly bundle: string;
}

function config(services: readonly WorkerService[], compatibilityDate: string): string {
  const list = services
    .map((service) => `(name = "${service.name}", worker = .${service.name}Worker)`)
    .join(", ");
  const sockets = services
    .map((service) => `(name = "${service.name}", http = (), service = "${service.name}")`)
    .join(", ");
  const workers = services
    .map(
      (service) => `const ${service.name}Worker :Workerd.Worker = (
  modules = [ (name = "${basename(service.bundle)}", esModule = embed "${basename(service.bundle)}") ],
  compatibilityDate = "${compatibilityDate}",
);`,
    )
    .join("\n\n");
  return `using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [ ${list} ],
  sockets = [ ${sockets} ],
);

${workers}
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
  services: readonly WorkerService[],
  compatibilityDate = "2025-09-01",
): Promise<WorkerdProcess> {
  const directory = dirname((services[0] as WorkerService).bundle);
  writeFileSync(join(directory, "config.capnp"), config(services, compatibilityDate));
  const servers = await Promise.all(services.map(() => listen()));
  const urls: Record<string, string> = {};
  const args = ["serve", "config.capnp"];
  // The descriptors of the listening sockets: Node exposes them only on its internal handles.
  const descriptors = servers.map((server) => (server as unknown as { _handle: { fd: number } })._handle.fd);
  for (const [index, service] of services.entries()) {
    const address = (servers[index] as Server).address();
    if (address === null || typeof address === "string")
      throw new Error("no TCP address for a workerd socket");
    urls[service.name] = `http://127.0.0.1:${address.port}`;
    args.push("--socket-fd", `${service.name}=${index + 3}`);
  }
  let output = "";
  const child: ChildProcess = spawn(workerdBinary(), args, {
    cwd: directory,
    stdio: ["ignore", "pipe", "pipe", ...descriptors],
  });
  child.stdout?.on("data", (chunk) => {
    output += String(chunk);
  });
  child.stderr?.on("data", (chunk) => {
    output += String(chunk);
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  // workerd holds its own copies of the sockets now.
  for (const server of servers) server.close();
  return {
    urls,
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
