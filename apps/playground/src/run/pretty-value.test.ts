import { format, run } from "@ptc/lisp";
import { describe, expect, test } from "vitest";
import { prettyValue } from "./pretty-value.js";

async function formatted(program: string): Promise<string> {
  const result = await run(program);
  if (!result.ok) throw new Error(result.error.message);
  return format(result.value);
}

const joined = (text: string) => text.replace(/\n */g, " ");

describe("prettyValue", () => {
  test("keeps a value that fits on one line as format prints it", () => {
    expect(prettyValue('{:a 1 :b "two"}')).toBe('{:a 1 :b "two"}');
  });

  test("puts each item of a long vector on its own line, aligned after the bracket", async () => {
    const text = await formatted(
      '[{:customer "Globex" :total 1515} {:customer "Acme Corp" :total 1510} {:customer "Initech" :total 980}]',
    );
    expect(prettyValue(text)).toBe(
      '[{:customer "Globex" :total 1515}\n {:customer "Acme Corp" :total 1510}\n {:customer "Initech" :total 980}]',
    );
  });

  test("puts each key and value of a long map on its own line, nesting inside values", async () => {
    const text = await formatted(
      '{:orders [{:id 1 :items ["desk organizer" "stapler" "paper"]} {:id 2 :items ["lamp"]}] :count 2}',
    );
    expect(prettyValue(text, 40)).toBe(
      [
        "{:count 2",
        " :orders [{:id 1",
        '           :items ["desk organizer"',
        '                   "stapler"',
        '                   "paper"]}',
        '          {:id 2 :items ["lamp"]}]}',
      ].join("\n"),
    );
  });

  test("never breaks inside a string, a regex or a set's bracket, and joins back to format's text", async () => {
    const text = await formatted(
      '[#{"a b c" "d ] e"} #"x y" "line\\nbreak \\" quoted" {:k [1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20]}]',
    );
    const pretty = prettyValue(text, 20);
    expect(pretty).not.toBe(text);
    expect(joined(pretty)).toBe(text);
    expect(pretty).toContain('#"x y"');
    expect(pretty).toContain('"d ] e"');
  });
});
