/**
 * Offline stand-ins for the commands docs/mcp.md's configs name: `npx` (for the three reference
 * servers only, run from their installed packages with this Node) and `ptc-mcp` (the command
 * built from the sources). Put `folder` first on PATH and the configs run as written.
 */
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { packageEntry } from "./reference-servers.js";

export function writeStandIns(folder: string, cliPath: string): string {
  const bin = join(folder, "bin");
  mkdirSync(bin, { recursive: true });
  const node = JSON.stringify(process.execPath);
  const cases = ["server-memory", "server-filesystem", "server-everything"]
    .map(
      (name) =>
        `  @modelcontextprotocol/${name}) exec ${node} ${JSON.stringify(packageEntry(`@modelcontextprotocol/${name}`))} "$@" ;;`,
    )
    .join("\n");
  writeFileSync(
    join(bin, "npx"),
    `#!/bin/sh
# An offline stand-in for npx, for the reference MCP servers only.
[ "$1" = "-y" ] && shift
package="$1"
shift
export MEMORY_FILE_PATH="\${MEMORY_FILE_PATH:-${join(folder, "memory.jsonl")}}"
case "$package" in
${cases}
  *) echo "npx stand-in: no package $package here" >&2; exit 127 ;;
esac
`,
  );
  writeFileSync(join(bin, "ptc-mcp"), `#!/bin/sh\nexec ${node} ${JSON.stringify(cliPath)} "$@"\n`);
  chmodSync(join(bin, "npx"), 0o755);
  chmodSync(join(bin, "ptc-mcp"), 0o755);
  return bin;
}
