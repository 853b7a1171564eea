/** The package's version, read from its package.json (next to dist/, or two levels above src/cli/). */
import { readFileSync } from "node:fs";

export function packageVersion(): string {
  for (const relative of ["../package.json", "../../package.json"]) {
    try {
      const manifest = JSON.parse(readFileSync(new URL(relative, import.meta.url), "utf8")) as {
        name?: unknown;
        version?: unknown;
      };
      if (manifest.name === "@ptc/lisp" && typeof manifest.version === "string") return manifest.version;
    } catch {
      // Not here; try the next place.
    }
  }
  return "unknown";
}
