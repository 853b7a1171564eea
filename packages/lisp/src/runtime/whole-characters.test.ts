/**
 * Text cut for a message or a remembered result keeps whole characters. An emoji is two UTF-16
 * units; a cut between them leaves half of it, which is not Unicode: the message would reach the
 * model with a character its provider may refuse the whole request for. Every cut here falls on
 * the emoji's pair boundary either way (a one-unit prefix moves the pairs by one).
 */
import { describe, expect, test } from "vitest";
import { createSession, run } from "../index.js";

const isWellFormed = (text: string) => (text as unknown as { isWellFormed(): boolean }).isWellFormed();
const emojis = (count: number) => "😀".repeat(count);

function expectWholeCharacters(text: string | undefined): void {
  expect(text).toBeDefined();
  expect(isWellFormed(text as string)).toBe(true);
  expect(text).not.toContain("\ufffd");
}

describe.each([
  ["", "pairs from the first unit"],
  ["x", "pairs from the second unit"],
])("prefix %j (%s)", (prefix) => {
  test("a type error quoting a long string", async () => {
    const result = await run(`(+ 1 "${prefix}${emojis(3000)}")`);
    expect(result.ok).toBe(false);
    expect(result.ok ? undefined : result.error.reason).toBe("type_error");
    expectWholeCharacters(result.ok ? undefined : result.error.message);
  });

  test("a tool throwing a long message", async () => {
    const result = await run("(tool/t {})", {
      tools: {
        t: () => {
          throw new Error(`${prefix}${emojis(5000)}`);
        },
      },
    });
    expect(result.ok ? undefined : result.error.reason).toBe("tool_error");
    expectWholeCharacters(result.ok ? undefined : result.error.message);
  });

  test("a date that does not parse", async () => {
    const result = await run(`(.parse java.time.LocalDate "${prefix}${emojis(100)}")`);
    expect(result.ok).toBe(false);
    expectWholeCharacters(result.ok ? undefined : result.error.message);
  });

  test("positional tool arguments, quoted back in the advice", async () => {
    const result = await run(`(tool/t "${prefix}${emojis(100)}")`, { tools: { t: () => 1 } });
    expect(result.ok).toBe(false);
    expectWholeCharacters(result.ok ? undefined : result.error.message);
  });

  test("a long string remembered as *1", async () => {
    const session = createSession();
    const result = await run(`"${prefix}${emojis(2000)}"`, { session });
    expect(result.ok).toBe(true);
    const remembered = session.history()[0];
    expect(typeof remembered).toBe("string");
    expectWholeCharacters(remembered as string);
    expect((remembered as string).endsWith("...")).toBe(true);
  });
});
