import { describe, expect, it } from "vitest";
import { validateProgram } from "./validate-program.js";

describe("validateProgram", () => {
  it("accepts a non-empty program string as is", () => {
    expect(validateProgram("(+ 1 2)")).toEqual({ ok: true, program: "(+ 1 2)" });
  });

  it.each([
    [undefined, "lisp_eval requires a non-empty `program` string argument."],
    [null, "lisp_eval requires a non-empty `program` string argument."],
    [123, "lisp_eval `program` must be a string, got 123."],
    [["(+ 1 2)"], 'lisp_eval `program` must be a string, got ["(+ 1 2)"].'],
    ["   \n\t", "lisp_eval `program` must be a non-empty string."],
  ])("rejects %j as an args_error", (program, message) => {
    expect(validateProgram(program)).toEqual({ ok: false, reason: "args_error", message });
  });
});
