import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

// @ptc/tool must stay usable on its own (users with their own loop install only it), so neither
// its manifest nor its sources may reach for another @ptc package. scripts/check-isolation.mjs
// checks the built output the same way.
const packageRoot = join(import.meta.dirname, "..");

describe("@ptc/tool isolation", () => {
  it("declares no @ptc/* dependency of any kind", () => {
    const manifest = JSON.parse(readFileSync(join(packageRoot, "package.json"), "utf8")) as Record<
      string,
      unknown
    >;
    const names = ["dependencies", "peerDependencies", "optionalDependencies", "devDependencies"].flatMap(
      (field) => Object.keys((manifest[field] as Record<string, string> | undefined) ?? {}),
    );
    expect(names.filter((name) => name.startsWith("@ptc/"))).toEqual([]);
  });

  it("imports no @ptc/* module from its sources", () => {
    const sources = readdirSync(join(packageRoot, "src"), { recursive: true, encoding: "utf8" }).filter(
      (path) => path.endsWith(".ts"),
    );
    expect(sources.length).toBeGreaterThan(10);
    const offending = sources.filter((path) =>
      /from\s+["']@ptc\//.test(readFileSync(join(packageRoot, "src", path), "utf8")),
    );
    expect(offending).toEqual([]);
  });
});
