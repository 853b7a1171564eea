// The packages' builds minify identifiers; keep-class-names.mjs must give each class its name back
// without moving any position before the end of the class (the source maps rely on it).
import { build } from "esbuild";
import { describe, expect, test } from "vitest";
import { keepClassNames, withClassNames } from "./keep-class-names.mjs";

describe("withClassNames", () => {
  test.each([
    ["export class Keyword {", "Keyword"],
    ["class Printer {", "Printer"],
    ["export abstract class TableVersion<T> extends Base<{ a: T }> implements X {", "TableVersion"],
    ["export default class Session {", "Session"],
  ])("names %s", (line, name) => {
    const out = withClassNames(`${line}\n  x = 1;\n}\nconst after = 1;\n`);
    expect(out.split("\n")).toEqual([
      line,
      "  x = 1;",
      `} Object.defineProperty(${name}, "name", { value: "${name}" });`,
      "const after = 1;",
      "",
    ]);
  });

  test("an empty body, and a declaration over several lines", () => {
    expect(withClassNames("class Invalid extends Error {}")).toBe(
      'class Invalid extends Error {} Object.defineProperty(Invalid, "name", { value: "Invalid" });',
    );
    expect(withClassNames("export class Long\n  extends Base\n{\n}\n")).toBe(
      'export class Long\n  extends Base\n{\n} Object.defineProperty(Long, "name", { value: "Long" });\n',
    );
  });

  test("leaves alone what is not a top-level class declaration", () => {
    const text = [
      "const Thing = class {",
      "  method() {",
      "    class Inner {",
      "    }",
      "  }",
      "};",
      "// class Commented {",
      "const s = 'class Quoted {';",
      "declare class Ambient {}",
    ].join("\n");
    expect(withClassNames(text)).toBe(text);
  });
});

describe("keepClassNames in a minified build", () => {
  test("classes keep their names, functions and locals are renamed", async () => {
    const source = [
      "export class LongClassName extends Error {}",
      "class InternalHelper {",
      "  twice(value: number) {",
      "    return value * 2;",
      "  }",
      "}",
      "export const helper = new InternalHelper();",
      "export function longFunctionName(argumentName: number) { return argumentName + 1; }",
    ].join("\n");
    const result = await build({
      stdin: { contents: "export * from './src/entry.ts';", resolveDir: "/virtual", loader: "ts" },
      bundle: true,
      write: false,
      format: "esm",
      minify: true,
      plugins: [
        {
          name: "virtual-source",
          setup(b) {
            b.onResolve({ filter: /entry\.ts$/ }, () => ({ path: "/virtual/src/entry.ts" }));
          },
        },
        {
          ...keepClassNames,
          setup(b) {
            // The same transform, over the in-memory file instead of one read from disk.
            b.onLoad({ filter: /entry\.ts$/ }, () => ({ contents: withClassNames(source), loader: "ts" }));
          },
        },
      ],
    });
    const text = result.outputFiles[0].text;
    expect(text).not.toContain("argumentName");
    const module = await import(`data:text/javascript,${encodeURIComponent(text)}`);
    expect(module.LongClassName.name).toBe("LongClassName");
    expect(module.helper.constructor.name).toBe("InternalHelper");
    expect(new module.LongClassName("m") instanceof Error).toBe(true);
    // As a class's own name: read-only and not enumerated.
    expect(Object.getOwnPropertyDescriptor(module.LongClassName, "name")).toEqual({
      value: "LongClassName",
      writable: false,
      enumerable: false,
      configurable: true,
    });
  });
});
