/**
 * Names the model wrote, quoted back by the renderers: a tool it called that does not exist, the
 * vars its programs stored. Such a name may be half a megabyte (a program may be a megabyte), and
 * a stored var's name is told again on every later turn, so a very long name is quoted by its
 * start and length. Names of ordinary length are quoted as written.
 */
import { describe, expect, it } from "vitest";
import { buildExecutionFeedback, renderSuccess, unknownNativeToolMessage, validateProgram } from "./index.js";

const LONG = "v".repeat(500_000);
const QUOTED = `${"v".repeat(200)}... (500000 characters)`;

describe("unknownNativeToolMessage", () => {
  it("quotes a very long name by its start and length", () => {
    for (const combined of [false, true]) {
      const message = unknownNativeToolMessage(LONG, { combined });
      expect(message.length).toBeLessThan(400);
      expect(message).toContain(QUOTED);
    }
  });

  it("quotes an ordinary name as written", () => {
    expect(unknownNativeToolMessage("search")).toBe(
      'Unknown native tool `"search"`. Only `lisp_eval` is available natively in this transport.',
    );
    expect(unknownNativeToolMessage("search", { combined: true })).toBe("Unknown native tool `search`.");
  });
});

describe("memory feedback naming a very long var", () => {
  it("names it by its start and length when it changed, and in the stored keys", () => {
    const execution = buildExecutionFeedback({ value: null, memory: { [LONG]: 1, n: 2 } });
    expect(execution.feedback.length).toBeLessThan(2000);
    expect(execution.feedback).toContain(`;; ${QUOTED} = 1`);
    const rendered = renderSuccess({ value: null }, { execution });
    expect(rendered.length).toBeLessThan(2000);
    const payload = JSON.parse(rendered) as { memory: { changed: object; stored_keys: string[] } };
    expect(payload.memory.stored_keys).toEqual(["n", QUOTED]);
    expect(Object.keys(payload.memory.changed)).toEqual(["n", QUOTED]);
    // The feedback's own record keeps the names as stored, for the host.
    expect(execution.memory.storedKeys).toEqual(["n", LONG]);
  });

  it("names it by its start and length when nothing changed", () => {
    const memory = { [LONG]: 1 };
    const execution = buildExecutionFeedback({ value: null, memory }, { previousMemory: memory });
    expect(execution.feedback.length).toBeLessThan(1000);
    expect(execution.feedback).toContain(`Stored: ${QUOTED}`);
  });
});

describe("memory feedback over thousands of vars", () => {
  const memory = Object.fromEntries(
    Array.from({ length: 9000 }, (_, index) => [`v${String(index).padStart(4, "0")}`, index]),
  );

  it("previews the first 50 that changed and says how many more did", () => {
    const execution = buildExecutionFeedback({ value: null, memory });
    expect(execution.feedback.length).toBeLessThan(5000);
    expect(execution.feedback).toContain(";; v0049 = 49\n;; ... (8950 more changed)");
    expect(execution.feedback).not.toContain("v0050");
    expect(execution.memory.truncated).toBe(true);
    const payload = JSON.parse(renderSuccess({ value: null }, { execution })) as {
      memory: { changed: object; stored_keys: string[]; truncated: boolean };
    };
    expect(Object.keys(payload.memory.changed)).toHaveLength(50);
    expect(payload.memory.stored_keys).toHaveLength(50);
    expect(payload.memory.truncated).toBe(true);
    // The host's record names them all.
    expect(execution.memory.storedKeys).toHaveLength(9000);
  });

  it("lists the first 50 stored and says how many more there are", () => {
    const execution = buildExecutionFeedback({ value: null, memory }, { previousMemory: memory });
    expect(execution.feedback.length).toBeLessThan(1000);
    expect(execution.feedback).toContain("Stored: v0000, v0001, ");
    expect(execution.feedback).toContain("v0049, ... (8950 more)");
  });

  it("lists 50 vars as before", () => {
    const fifty = Object.fromEntries(Array.from({ length: 50 }, (_, index) => [`w${index}`, index]));
    const execution = buildExecutionFeedback({ value: null, memory: fifty }, { previousMemory: fifty });
    expect(execution.feedback).toContain(`Stored: ${Object.keys(fifty).sort().join(", ")}\n`);
    expect(execution.memory.truncated).toBe(false);
  });
});

describe("names and values of astral characters (emoji: two UTF-16 units each)", () => {
  // 150 emoji are 300 units but 150 characters: within the 200-character bound, so nothing is cut,
  // and nothing may say it was.
  const EMOJI = "😀".repeat(150);

  it("a name within the bound is quoted as written, with no mark of a cut", () => {
    expect(unknownNativeToolMessage(EMOJI, { combined: true })).toBe(`Unknown native tool \`${EMOJI}\`.`);
  });

  it("a value within the bound is quoted whole by validateProgram", () => {
    expect(validateProgram([EMOJI])).toEqual({
      ok: false,
      reason: "args_error",
      message: `lisp_eval \`program\` must be a string, got ["${EMOJI}"].`,
    });
  });

  it("a longer one is cut at 200 characters, never inside a pair", () => {
    const long = "😀".repeat(300);
    const message = unknownNativeToolMessage(long, { combined: true });
    expect(message).toBe(`Unknown native tool \`${"😀".repeat(200)}... (600 characters)\`.`);
  });
});
