import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { evaluate } from "../test-support.js";
import { ALL_BUILTINS } from "./index.js";
import { renderReference, SPECIAL_FORMS } from "./reference.js";

const referencePath = fileURLToPath(new URL("../../../../docs/language-reference.md", import.meta.url));

describe("every documented example does what the reference says", () => {
  const examples = ALL_BUILTINS.flatMap((definition) =>
    (definition.examples ?? []).map((example) => [definition.name, ...example] as const),
  );
  test.each(examples)("%s: %s", async (_name, source, expected) => {
    expect(await evaluate(source)).toBe(expected);
  });

  const exampleEnvironment = {
    tools: { echo: (args: Record<string, unknown>) => args },
    context: { orders: [{ amount: 5 }, { amount: 7 }] },
  };
  test.each(SPECIAL_FORMS.map((form) => [form.name, ...form.example] as const))(
    "%s: %s",
    async (_name, source, expected) => {
      expect(await evaluate(source, exampleEnvironment)).toBe(expected);
    },
  );
});

test("every visible builtin is documented with an example", () => {
  const missing = ALL_BUILTINS.filter(
    (definition) => definition.category !== "Internal" && (definition.examples ?? []).length === 0,
  ).map((d) => d.name);
  expect(missing).toEqual([]);
});

test("docs/language-reference.md is generated from the registry and up to date", () => {
  const generated = `${renderReference(ALL_BUILTINS)}\n`;
  if (process.env.UPDATE_REFERENCE === "1") writeFileSync(referencePath, generated);
  const committed = readFileSync(referencePath, "utf8");
  expect(
    committed,
    "run UPDATE_REFERENCE=1 pnpm vitest run packages/lisp/src/builtins/reference.test.ts",
  ).toBe(generated);
});
