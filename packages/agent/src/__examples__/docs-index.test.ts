import { readdirSync, readFileSync } from "node:fs";
import { expect, test } from "vitest";

const docs = new URL("../../../../docs/", import.meta.url);

test("docs/README.md lists every page of docs/, and links only pages that exist", () => {
  const index = readFileSync(new URL("README.md", docs), "utf8");
  const pages = readdirSync(docs).filter((file) => file.endsWith(".md") && file !== "README.md");
  const linked = [...index.matchAll(/\]\(([a-z-]+\.md)\)/g)].map((match) => match[1]);
  expect([...new Set(linked)].sort()).toEqual(pages.sort());
});
