/**
 * @ptc/agent/node: Node-only extras for agents. `createWorkerIsolation()` runs an agent's programs
 * in a worker thread: `createAgent({ ..., isolation: createWorkerIsolation() })`. The root entry
 * never loads this module (it stays free of Node built-ins).
 */
export { createWorkerIsolation, type WorkerIsolationOptions } from "./create-worker-isolation.js";
