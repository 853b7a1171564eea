/**
 * The host's environment variables, where the platform has them (Node, Bun, Deno's Node mode).
 * Browsers, Cloudflare Workers and other edge runtimes have no `process`: the lookup goes through
 * `globalThis`, so this package's code never names a Node global (scripts/check-edge-safe.mjs
 * checks the built entries) and no bundler is tempted to polyfill one.
 */
export function environmentVariable(name: string): string | undefined {
  const host = globalThis as { process?: { env?: Readonly<Record<string, string | undefined>> } };
  return host.process?.env?.[name];
}
