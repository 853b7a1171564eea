import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { PACKAGE_VERSION } from "../../version.js";
import { parseCliArguments, UsageError } from "./arguments.js";
import { configPath } from "./cli.js";

describe("ptc-mcp's flags", () => {
  it("reads every option, with stdio and programs-only tools by default", () => {
    expect(parseCliArguments([], {})).toMatchObject({
      toolModules: [],
      expose: "ptc_lisp",
      sessions: false,
      catalog: "auto",
      http: undefined,
      httpPath: "/mcp",
    });
    const options = parseCliArguments(
      [
        "--tools",
        "a.mjs",
        "--tools",
        "b.mjs",
        "--config",
        "s.json",
        "--expose",
        "both",
        "--sessions",
        "--http",
        "0.0.0.0:8080",
        "--timeout-ms",
        "5000",
        "--memory-mb",
        "50",
      ],
      { PTC_MCP_TOKEN: "from-env" },
    );
    expect(options).toMatchObject({
      toolModules: ["a.mjs", "b.mjs"],
      config: "s.json",
      expose: "both",
      sessions: true,
      http: { host: "0.0.0.0", port: 8080 },
      token: "from-env",
      timeoutMs: 5000,
      memoryMb: 50,
    });
    expect(parseCliArguments(["--http", "7332"], {}).http).toEqual({ host: "127.0.0.1", port: 7332 });
    expect(parseCliArguments(["--http", "[::1]:7332"], {}).http).toEqual({ host: "::1", port: 7332 });
  });

  it("says what to write instead of a flag it cannot read", () => {
    const message = (argv: string[]) => {
      try {
        parseCliArguments(argv, {});
      } catch (error) {
        expect(error).toBeInstanceOf(UsageError);
        return (error as Error).message;
      }
      throw new Error("expected a usage error");
    };
    expect(message(["--expose", "native"])).toBe('--expose takes ptc_lisp or both, got "native"');
    expect(message(["--http", "localhost"])).toContain("--http takes PORT or HOST:PORT");
    expect(message(["--timeout-ms", "soon"])).toBe('--timeout-ms takes a positive whole number, got "soon"');
    expect(message(["--catalog", "lazy"])).toBe('--catalog takes auto, full, summary or names, got "lazy"');
    expect(message(["--bogus"])).toContain("run ptc-mcp --help for the options");
    expect(message(["servers.json"])).toContain('unexpected argument "servers.json"');
  });

  it("expands a leading ~/ in --config paths", () => {
    expect(configPath("~/.config/ptc/servers.json", "/work")).toMatch(/\/\.config\/ptc\/servers\.json$/);
    expect(configPath("~/.config/ptc/servers.json", "/work").startsWith("~")).toBe(false);
    expect(configPath("servers.json", "/work")).toBe("/work/servers.json");
  });

  it("reports the package's version", () => {
    const manifest = JSON.parse(readFileSync(new URL("../../../package.json", import.meta.url), "utf8")) as {
      version: string;
    };
    expect(PACKAGE_VERSION).toBe(manifest.version);
  });
});
