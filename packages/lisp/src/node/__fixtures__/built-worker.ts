/**
 * The isolation worker built once per test run by vitest.global-setup.ts (workers cannot load
 * TypeScript): its directory holds index.js and worker.js side by side, as in the package.
 */
import { inject } from "vitest";

declare module "vitest" {
  export interface ProvidedContext {
    isolationWorker: { directory: string; workerUrl: string; indexUrl: string };
  }
}

export function builtWorker(): { directory: string; workerUrl: URL; indexUrl: string } {
  const built = inject("isolationWorker");
  return { directory: built.directory, workerUrl: new URL(built.workerUrl), indexUrl: built.indexUrl };
}
