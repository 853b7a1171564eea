import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InputBalance, isComplete, joinedLines } from "./balance.js";
import { main } from "./cli.js";
import { renderError } from "./diagnostic.js";
import { exitQuietlyOnClosedPipe } from "./io.js";
import { locateJsonError } from "./json-error.js";

let directory: string;
const examples = fileURLToPath(new URL("../../../../examples/", import.meta.url));

beforeAll(() => {
  directory = mkdtempSync(join(tmpdir(), "ptc-lisp-cli-"));
});
afterAll(() => {
  rmSync(directory, { recursive: true, force: true });
});

function file(name: string, text: string): string {
  const path = join(directory, name);
  writeFileSync(path, text);
  return path;
}

interface Outcome {
  readonly status: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the command in-process; `input` is what arrives on stdin (then end of input). */
async function cli(
  argv: string[],
  input = "",
  options: { tty?: boolean; env?: Record<string, string> } = {},
): Promise<Outcome> {
  const stdin = new PassThrough() as PassThrough & { isTTY?: boolean };
  if (options.tty) stdin.isTTY = true;
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = "";
  let err = "";
  stdout.on("data", (chunk: Buffer) => {
    out += chunk.toString();
  });
  stderr.on("data", (chunk: Buffer) => {
    err += chunk.toString();
  });
  stdin.end(input);
  const status = await main(argv, {
    stdin,
    stdout,
    stderr,
    env: { PTC_LISP_HISTORY: "", ...options.env },
    cwd: directory,
  });
  return { status, stdout: out, stderr: err };
}

describe("ptc-lisp: running a program", () => {
  it("prints the value of an expression", async () => {
    expect(await cli(["-e", "(+ 1 2)"])).toEqual({ status: 0, stdout: "3\n", stderr: "" });
  });

  it("prints println output before the value, in Clojure text", async () => {
    const outcome = await cli(["-e", '(println "total:" 42) {:a [1 2.0] :b "s"}']);
    expect(outcome.stdout).toBe('total: 42\n{:a [1 2.0] :b "s"}\n');
    expect(outcome.status).toBe(0);
  });

  it("runs a file with --data as the data/ namespace", async () => {
    const program = file("sum.clj", ";; total of the orders\n(reduce + (map :total data/orders))\n");
    const data = file("orders.json", JSON.stringify({ orders: [{ total: 5 }, { total: 7 }] }));
    expect(await cli([program, "--data", data])).toEqual({ status: 0, stdout: "12\n", stderr: "" });
    expect((await cli(["sum.clj", "--data=orders.json"])).stdout).toBe("12\n");
  });

  it("accepts files that start with a byte-order mark", async () => {
    const program = file("bom.clj", "\uFEFF(:n data/config)");
    const data = file("bom.json", '\uFEFF{"config": {"n": 3}}');
    expect(await cli([program, "--data", data])).toEqual({ status: 0, stdout: "3\n", stderr: "" });
  });

  it("reads the program from stdin with -", async () => {
    expect((await cli(["-"], '(str "from " "stdin")')).stdout).toBe('"from stdin"\n');
  });

  it("prints the value as JSON with --json", async () => {
    const outcome = await cli(["--json", "-e", '{:name "Ada" :tags #{:x} :score 2.0}']);
    expect(JSON.parse(outcome.stdout)).toEqual({ name: "Ada", tags: ["x"], score: 2 });
  });

  it("shows an error with its reason, place and a caret under the column", async () => {
    const program = file("broken.clj", "(def rate 2)\n(* rate\n   totl)\n");
    const outcome = await cli([program]);
    expect(outcome.status).toBe(1);
    expect(outcome.stdout).toBe("");
    const lines = outcome.stderr.split("\n");
    expect(lines[0]).toMatch(/^error\[unbound_var\]: .*totl/);
    expect(lines.slice(1, 5)).toEqual([` --> ${program}:3:4`, "  |", "3 |    totl)", "  |    ^"]);
  });

  it("keeps println output of a failed program and exits 1", async () => {
    const outcome = await cli(["-e", '(println "before") (fail "bad input")']);
    expect(outcome.status).toBe(1);
    expect(outcome.stdout).toBe("before\n");
    expect(outcome.stderr).toMatch(/^error\[fail\]: bad input/);
  });

  it("applies limit flags", async () => {
    const loop = "(loop [i 0] (if (< i 50) (recur (inc i)) i))";
    expect((await cli(["-e", loop])).stdout).toBe("50\n");
    const limited = await cli(["-e", loop, "--iterations", "10"]);
    expect(limited.status).toBe(1);
    expect(limited.stderr).toMatch(/^error\[loop_limit_exceeded\]/);
    expect((await cli(["-e", "(str 1 2 3)", "--memory", "1"])).stderr).toMatch(/memory_exceeded/);
    expect(
      (await cli(["-e", "(defn f [n] (if (= n 0) 0 (inc (f (dec n))))) (f 50)", "--depth", "10"])).stderr,
    ).toMatch(/recursion_limit_exceeded/);
    expect(
      (await cli(["-e", loop, "--iterations", "unlimited", "--timeout", "5000", "--memory", "50MB"])).status,
    ).toBe(0);
  });

  it("runs the shipped example", async () => {
    const outcome = await cli([join(examples, "top-customers.clj"), "--data", join(examples, "orders.json")]);
    expect(outcome.stderr).toBe("");
    expect(outcome.status).toBe(0);
    expect(outcome.stdout).toMatch(/^Completed orders: \d+ of 200/);
    expect(outcome.stdout).toMatch(/\n1\. .+ revenue [\d.]+ from \d+ orders/);
    expect(outcome.stdout.trimEnd().split("\n").at(-1)).toMatch(/^\[\{:average-order /);
  });
});

describe("ptc-lisp: mock tools", () => {
  it("answers every call of --tool NAME=FILE.json with the file's JSON", async () => {
    const rows = file("rows.json", '[{"id": 1}, {"id": 2}]');
    const outcome = await cli(["-e", "(count (tool/rows {:any 1}))", "--tool", `rows=${rows}`]);
    expect(outcome).toMatchObject({ status: 0, stdout: "2\n" });
  });

  it("takes the tools a --tools module exports, named exports and a default export's entries", async () => {
    const module = file(
      "tools.mjs",
      `export function double({ n }) { return n * 2; }
       export const later = { execute: async ({ n }) => n + 1, validate: (args) => typeof args.n === "number" ? { ok: true } : { ok: false, message: "n: expected a number" } };
       export const notATool = 42;
       export default { triple: ({ n }) => n * 3 };`,
    );
    const outcome = await cli([
      "-e",
      "[(tool/double {:n 2}) (tool/later {:n 2}) (tool/triple {:n 2})]",
      "--tools",
      module,
    ]);
    expect(outcome).toMatchObject({ status: 0, stdout: "[4 3 6]\n" });
    const rejected = await cli(["-e", '(tool/later {:n "x"})', "--tools", module]);
    expect(rejected.status).toBe(1);
    expect(rejected.stderr).toMatch(
      /^error\[invalid_tool_args\]: tool\/later was called with arguments that do not fit: n: expected a number/,
    );
  });

  it("advises a positional call in the parameter names of a --tools module's tool", async () => {
    const module = file(
      "customers.mjs",
      `export const get_customer = { execute: ({ id }) => ({ id }), signature: "(id :int) -> {id :int}" };`,
    );
    const outcome = await cli(["-e", "(tool/get_customer 9)", "--tools", module]);
    expect(outcome.status).toBe(1);
    expect(outcome.stderr).toContain("write (tool/get_customer {:id 9})");
    expect(outcome.stderr).not.toContain(":url");
  });

  it("runs the shipped example tools", async () => {
    const tools = join(examples, "tools.mjs");
    const outcome = await cli(["-e", '(count (tool/list-orders {:status "refunded"}))', "--tools", tools]);
    expect(outcome).toMatchObject({ status: 0, stdout: "9\n" });
  });

  it("rejects a malformed --tool, a module without tools, and a tool given twice", async () => {
    const rows = file("rows2.json", "[]");
    const empty = file("empty.mjs", "export const x = 1;");
    for (const [argv, message] of [
      [["--tool", "rows"], /--tool expects NAME=FILE.json/],
      [["--tools", empty], /exports no tools/],
      [["--tools", "missing.mjs"], /cannot load --tools module "missing.mjs"/],
      [["--tool", `a=${rows}`, "--tool", `a=${rows}`], /tool "a" is given twice/],
      [["--tool", "a=nowhere.json"], /cannot read --tool a file "nowhere.json": no such file/],
    ] as const) {
      const outcome = await cli(["-e", "1", ...argv]);
      expect(outcome.status, String(argv)).toBe(2);
      expect(outcome.stderr).toMatch(message);
    }
  });
});

describe("ptc-lisp: what the model would read", () => {
  it("suggests the nearest name for an unknown function or tool", async () => {
    const unknownFunction = await cli(["-e", "(fitler odd? [1 2 3])"]);
    expect(unknownFunction.stderr).toMatch(
      /^error\[unbound_var\]: Undefined variable: fitler \(did you mean filter\?\)/,
    );
    const rows = file("rows3.json", "[]");
    const unknownTool = await cli(["-e", "(tool/row {})", "--tool", `rows=${rows}`]);
    expect(unknownTool.stderr).toMatch(/Unknown tool: row\. Did you mean tool\/rows\?/);
  });

  it("warns on stderr about a data/ key the --data file lacks, and about an extra closing bracket", async () => {
    const data = file("small.json", '{"orders": [1, 2]}');
    const outcome = await cli(["-e", "(count data/order))", "--data", data]);
    expect(outcome.status).toBe(0);
    expect(outcome.stdout).toBe("0\n");
    expect(outcome.stderr).toBe(
      "warning: ignored an extra closing bracket with nothing open: ')' at line 1, column 19. Check that the forms before close where you meant\n" +
        "warning: data/order is not in the context, so it reads as nil; did you mean data/orders?\n",
    );
  });
});

describe("ptc-lisp: a closed output pipe", () => {
  it("ends the command quietly on EPIPE, and only on EPIPE", () => {
    const stream = new PassThrough();
    let exits = 0;
    exitQuietlyOnClosedPipe(stream, () => {
      exits++;
    });
    stream.emit("error", Object.assign(new Error("write EPIPE"), { code: "EPIPE" }));
    expect(exits).toBe(1);
    expect(() => stream.emit("error", Object.assign(new Error("disk full"), { code: "ENOSPC" }))).toThrow(
      "disk full",
    );
  });
});

describe("ptc-lisp: hostile data and values", () => {
  // Each of these used to end as "internal error (please report it)" with status 70.
  const deep = (depth: number) => `(reduce (fn [v _] [v]) [] (range ${depth}))`;

  it("says a --data file nested too deep to locate its mistake is not valid JSON, and exits 2", async () => {
    const data = file("deep-broken.json", `${"[".repeat(200_000)}x`);
    const outcome = await cli(["-e", "1", "--data", data]);
    expect(outcome.status).toBe(2);
    expect(outcome.stderr).toMatch(/^ptc-lisp: --data file ".*deep-broken\.json" is not valid JSON: /);
  });

  it("fails with recursion_limit_exceeded when --json meets a value nested too deep to print", async () => {
    const outcome = await cli(["--json", "-e", deep(100_000)]);
    expect(outcome).toMatchObject({ status: 1, stdout: "" });
    expect(outcome.stderr).toMatch(/^error\[recursion_limit_exceeded\]: .*--json/);
  });

  it("fails with memory_exceeded when --json would expand shared structure past toJson's bound", async () => {
    const outcome = await cli(["--json", "-e", "(reduce (fn [v _] [v v]) [1] (range 30))"]);
    expect(outcome).toMatchObject({ status: 1, stdout: "" });
    expect(outcome.stderr).toMatch(/^error\[memory_exceeded\]: toJson: /);
  });

  it("fails, printing nothing, when a tool's result has a getter that throws", async () => {
    const module = file(
      "hostile-tools.mjs",
      `export function boom() { return { get secret() { throw new Error("no"); } }; }`,
    );
    for (const flags of [[], ["--json"]]) {
      const outcome = await cli(["-e", '(println "first") (tool/boom {})', "--tools", module, ...flags]);
      expect(outcome).toMatchObject({ status: 1, stdout: "first\n" });
      expect(outcome.stderr).toMatch(/^error\[\w+\]: .*could not be read/);
    }
  });

  it("carries on in the REPL after a value it cannot print", async () => {
    const outcome = await cli(["--json"], `${deep(100_000)}\n(+ 1 2)\n`);
    expect(outcome.stdout).toBe("3\n");
    expect(outcome.stderr).toMatch(/^error\[recursion_limit_exceeded\]/);
    expect(outcome.status).toBe(1);
  });
});

describe("ptc-lisp: usage errors exit 2 and say what to do", () => {
  it.each([
    [["--frobnicate"], /unknown option "--frobnicate". Run ptc-lisp --help/],
    [["-e", "1", "--dta", "x.json"], /unknown option "--dta" \(did you mean --data\?\). Run ptc-lisp --help/],
    [["-e", "1", "--timout", "5"], /unknown option "--timout" \(did you mean --timeout\?\)/],
    [["-e"], /-e needs a value: -e '\(\+ 1 2\)'/],
    [
      ["-e", "1", "--timeout", "soon"],
      /--timeout expects a positive number of milliseconds or "unlimited", got "soon" \(e.g. --timeout 5000\)/,
    ],
    [["-e", "1", "--iterations", "-5"], /--iterations expects a positive whole number/],
    [["-e", "1", "--memory", "lots"], /--memory expects a positive number of bytes/],
    [["-e", "1", "prog.clj"], /give one program at a time: got -e and "prog.clj"/],
    [["--json=yes", "-e", "1"], /--json takes no value/],
    [
      ["missing.clj"],
      /cannot read program file "missing.clj": no such file. Check the path, or run an expression with -e/,
    ],
    [["-e", "1", "--data", "missing.json"], /cannot read --data file "missing.json": no such file/],
  ])("%j", async (argv, message) => {
    const outcome = await cli(argv);
    expect(outcome.status).toBe(2);
    expect(outcome.stdout).toBe("");
    expect(outcome.stderr).toMatch(/^ptc-lisp: /);
    expect(outcome.stderr).toMatch(message);
  });

  it("reports invalid JSON in --data with where the problem is", async () => {
    const data = file("bad.json", '{\n  "orders": [1, 2,, 3]\n}');
    const outcome = await cli(["-e", "1", "--data", data]);
    expect(outcome.status).toBe(2);
    expect(outcome.stderr).toMatch(/is not valid JSON: unexpected "," at line 2, column 19. Fix the file/);
  });

  it("requires --data to hold an object", async () => {
    const data = file("list.json", "[1, 2]");
    const outcome = await cli(["-e", "1", "--data", data]);
    expect(outcome.status).toBe(2);
    expect(outcome.stderr).toMatch(
      /must hold a JSON object whose keys become data\/ names .* it holds an array/,
    );
  });
});

describe("ptc-lisp: help and version", () => {
  it("prints the usage with --help", async () => {
    const outcome = await cli(["--help"]);
    expect(outcome.status).toBe(0);
    expect(outcome.stdout).toMatch(/^Usage:\n {2}ptc-lisp FILE/);
    expect(outcome.stdout).toMatch(/--timeout MS/);
  });

  it("prints the package version with --version", async () => {
    const manifest = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8"));
    expect((await cli(["--version"])).stdout).toBe(`ptc-lisp ${manifest.version}\n`);
  });
});

describe("ptc-lisp: REPL over piped input", () => {
  it("evaluates multi-line input once its brackets balance, keeping defs and *1", async () => {
    const input = [
      "(defn square",
      "  [x]",
      "  (* x x))",
      "",
      "(square 7)",
      "(+ *1 1)",
      '(str "a (" ',
      ' "b")',
    ].join("\n");
    const outcome = await cli([], `${input}\n`);
    expect(outcome.stderr).toBe("");
    expect(outcome.stdout).toBe(`#'square\n49\n50\n"a (b"\n`);
    expect(outcome.status).toBe(0);
  });

  it("reports an error and carries on; the exit status says something failed", async () => {
    const outcome = await cli([], "(def x 1)\n(+ x\n   nope)\n(inc x)\n");
    expect(outcome.stdout).toBe("#'x\n2\n");
    expect(outcome.stderr).toMatch(/^error\[unbound_var\]: .*nope[\s\S]* --> <repl>:2:4\n/);
    expect(outcome.status).toBe(1);
  });

  it("reports unfinished input at the end", async () => {
    const outcome = await cli([], "(+ 1\n");
    expect(outcome.stderr).toMatch(/^error\[parse_error\]/);
    expect(outcome.status).toBe(1);
  });

  it("lists definitions with :defs and forgets them with :reset", async () => {
    const outcome = await cli([], "(def rate 3)\n(defn f [x] x)\n:defs\n:reset\n:defs\nrate\n");
    const lines = outcome.stdout.split("\n");
    expect(lines.slice(0, 4)).toEqual(["#'rate", "#'f", "f     #fn[x]", "rate  3"]);
    expect(lines[4]).toMatch(/^session reset/);
    expect(lines[5]).toMatch(/^no definitions yet/);
    expect(outcome.stderr).toMatch(/error\[unbound_var\]: .*rate/);
  });

  it("uses --data and limit flags for every input", async () => {
    const data = file("n.json", '{"n": 41}');
    const outcome = await cli(
      ["--data", data, "--iterations", "3"],
      "(inc data/n)\n(loop [i 0] (recur (inc i)))\n",
    );
    expect(outcome.stdout).toBe("42\n");
    expect(outcome.stderr).toMatch(/loop_limit_exceeded/);
  });

  it("stops at :quit and shows help with :help", async () => {
    const outcome = await cli([], ":help\n:quit\n(+ 1 1)\n");
    expect(outcome.stdout).toMatch(/:defs/);
    expect(outcome.stdout).not.toMatch(/^2$/m);
    expect(outcome.status).toBe(0);
  });

  it("prints values as JSON with --json", async () => {
    expect((await cli(["--json"], "{:a 1}\n")).stdout).toBe('{\n  "a": 1\n}\n');
  });
});

describe("ptc-lisp: REPL on a terminal", () => {
  it("prompts, continues multi-line input, and saves and reloads history", async () => {
    const history = join(directory, "history");
    const first = await cli([], "(def x\n  5)\n", { tty: true, env: { PTC_LISP_HISTORY: history } });
    expect(first.stdout).toMatch(/^PTC-Lisp .*:help/);
    expect(first.stdout).toContain("ptc> ");
    expect(first.stdout).toContain("...> ");
    expect(first.stdout).toContain("#'x");
    // The form typed over two lines is one history entry.
    expect(readFileSync(history, "utf8")).toBe("(def x 5)\n");
    const second = await cli([], ":quit\n", { tty: true, env: { PTC_LISP_HISTORY: history } });
    expect(second.status).toBe(0);
    expect(readFileSync(history, "utf8")).toBe("(def x 5)\n:quit\n");
  });

  it("brings a whole multi-line form back with one up-arrow, even one with a comment", async () => {
    const history = join(directory, "history-forms");
    const env = { PTC_LISP_HISTORY: history };
    await cli([], '(str "a"\n  ; why\n  "b")\n', { tty: true, env });
    expect(readFileSync(history, "utf8")).toBe(';;multiline "(str \\"a\\"\\n  ; why\\n  \\"b\\")"\n');
    // Up-arrow, then Enter: the recalled form runs as one input.
    const again = await cli([], "\u001b[A\n", { tty: true, env });
    expect(again.stdout).toContain('"ab"');
  });
});

describe("joinedLines", () => {
  it("joins a form's lines with single spaces", () => {
    expect(joinedLines("(->> xs\n     (map inc)\n     (filter odd?))")).toBe(
      "(->> xs (map inc) (filter odd?))",
    );
  });

  it("keeps strings as they are, and gives up where joining would change the program", () => {
    expect(joinedLines('(str "a  b"\n  "c")')).toBe('(str "a  b" "c")');
    expect(joinedLines('(str "a\nb")')).toBeUndefined();
    expect(joinedLines("(+ 1 ; one\n 2)")).toBeUndefined();
    expect(joinedLines('(str \\; "x"\n "y")')).toBe('(str \\; "x" "y")');
  });
});

describe("isComplete", () => {
  it.each([
    ["(+ 1 2)", true],
    ["(+ 1", false],
    ["[1 {:a #{2", false],
    ['(str "(")', true],
    ['(str "unclosed', false],
    ['(str "escaped \\" quote")', true],
    ["(list \\( \\[)", true],
    ["(+ 1 ; a comment with (\n 2)", true],
    ["(+ 1 ; comment )", false],
    ["(+ 1))", true],
    ['#"[a-z(]+"', true],
  ])("%j is %s", (text, expected) => {
    expect(isComplete(text)).toBe(expected);
  });

  it("fed a line at a time, answers as a scan of the whole input so far", () => {
    // The REPL feeds each line (after the first, with its line break) to one InputBalance; an
    // escape or a comment may end a line, a string may span lines.
    const piece = fc.constantFrom("(", ")", "[", "]", "{", "}", '"', "\\", ";", "a", " ", "#", "\n");
    fc.assert(
      fc.property(
        fc.array(
          fc.array(piece, { maxLength: 12 }).map((p) => p.join("")),
          { maxLength: 8 },
        ),
        (lines) => {
          const balance = new InputBalance();
          let text = "";
          lines.forEach((line, index) => {
            text = index === 0 ? line : `${text}\n${line}`;
            expect(balance.feed(index === 0 ? line : `\n${line}`)).toBe(isComplete(text));
          });
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe("locateJsonError", () => {
  it.each([
    ['{"a": 1,}', 'expected a property name in double quotes, found "}"', 1, 9],
    ['{"a" 1}', "expected ':' after the property name, found \"1\"", 1, 6],
    ["[1, 2\n", "expected ',' or ']' in the array, found end of file", 2, 1],
    ['{"a": tru}', 'unexpected "t"', 1, 7],
    ["{'a': 1}", 'expected a property name in double quotes, found "\'"', 1, 2],
    ['{"a": "x\ty"}', "control character in a string (write \\n or \\t)", 1, 9],
    ["{} []", 'unexpected "[" after the JSON value', 1, 4],
  ])("%j", (text, problem, line, column) => {
    expect(() => JSON.parse(text)).toThrow();
    expect(locateJsonError(text)).toEqual({ problem, line, column });
  });

  it("finds nothing wrong in valid JSON", () => {
    expect(locateJsonError('{"a": [1, -2.5e3, "\\u00e9", true, null], "b": {}}')).toBeUndefined();
  });
});

describe("renderError", () => {
  it("lines the caret up under tabs", () => {
    const text = renderError(
      { reason: "type_error", message: "bad", line: 1, column: 3 },
      "\t\t(x)",
      "t.clj",
    );
    expect(text).toBe("error[type_error]: bad\n --> t.clj:1:3\n  |\n1 | \t\t(x)\n  | \t\t^\n");
  });

  it("shows only the message when there is no position", () => {
    expect(renderError({ reason: "timeout", message: "too slow" }, "(x)", "t.clj")).toBe(
      "error[timeout]: too slow\n",
    );
  });
});
