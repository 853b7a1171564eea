/**
 * The PTC-Lisp function reference (docs/language-reference.md), generated from the builtin
 * registry and the list of special forms below, so the documentation cannot drift from the code:
 * reference.test.ts runs every example and fails when the committed file is out of date.
 */
import type { BuiltinDefinition } from "./definition.js";
import { NAMESPACES } from "./namespaces.js";

export interface SpecialFormDoc {
  readonly name: string;
  readonly syntax: string;
  readonly doc: string;
  readonly example: readonly [source: string, result: string];
}

/**
 * Forms the analyzer handles itself (not functions: they control evaluation). Examples run with
 * an `echo` tool (returns its arguments) and a context whose `orders` has two rows.
 */
export const SPECIAL_FORMS: readonly SpecialFormDoc[] = [
  {
    name: "def",
    syntax: "(def name doc? value)",
    doc: "Binds name in the user namespace (kept across programs in a session); returns the var #'name.",
    example: ["(def limit 10)", "#'limit"],
  },
  {
    name: "defn",
    syntax: "(defn name doc? [params] body...)",
    doc: "Defines a function (def + fn).",
    example: ["(defn sq [x] (* x x)) (sq 4)", "16"],
  },
  {
    name: "defonce",
    syntax: "(defonce name value)",
    doc: "Binds name only if it is not bound yet.",
    example: ["(defonce n 1) (defonce n 2) n", "1"],
  },
  {
    name: "let",
    syntax: "(let [binding value ...] body...)",
    doc: "Sequential local bindings, with destructuring.",
    example: ["(let [x 2 [a b] [x 3]] (* a b))", "6"],
  },
  {
    name: "fn",
    syntax: "(fn name? [params] body...)",
    doc: "A function; `& rest` for variadic parameters; destructuring parameters. #(...) is shorthand with % %1 %2 %&.",
    example: ["((fn [x & more] (count more)) 1 2 3)", "2"],
  },
  {
    name: "if",
    syntax: "(if test then else?)",
    doc: 'nil and false are false; everything else (0, "", []) is true.',
    example: ["(if 0 :yes :no)", ":yes"],
  },
  {
    name: "do",
    syntax: "(do expr...)",
    doc: "Evaluates in order; the last value.",
    example: ["(do 1 2 3)", "3"],
  },
  {
    name: "and / or",
    syntax: "(and x...) (or x...)",
    doc: "Short-circuit; return the deciding value.",
    example: ["(or nil false :x)", ":x"],
  },
  {
    name: "when / when-not",
    syntax: "(when test body...)",
    doc: "if without else, with a body.",
    example: ["(when (> 2 1) :big)", ":big"],
  },
  {
    name: "if-not",
    syntax: "(if-not test then else?)",
    doc: "if with the test inverted.",
    example: ["(if-not nil 1 2)", "1"],
  },
  {
    name: "cond",
    syntax: "(cond test expr ... :else expr)",
    doc: "The first clause whose test is true; nil when none.",
    example: ["(cond (< 5 3) :a (< 5 9) :b :else :c)", ":b"],
  },
  {
    name: "case",
    syntax: "(case x const expr ... (c1 c2) expr default?)",
    doc: "Dispatch on constants; nil when nothing matches and there is no default.",
    example: ['(case "b" "a" 1 ("b" "c") 2 0)', "2"],
  },
  {
    name: "condp",
    syntax: "(condp pred x test expr ... default?)",
    doc: "The first clause where (pred test x) is true.",
    example: ["(condp = 2 1 :one 2 :two :many)", ":two"],
  },
  {
    name: "if-let / when-let",
    syntax: "(if-let [name expr] then else?)",
    doc: "Binds name when expr is truthy.",
    example: ["(if-let [x (get {:a 1} :a)] (inc x) 0)", "2"],
  },
  {
    name: "if-some / when-some",
    syntax: "(if-some [name expr] then else?)",
    doc: "Binds name when expr is not nil (false binds).",
    example: ["(if-some [x false] [x] :none)", "[false]"],
  },
  {
    name: "when-first",
    syntax: "(when-first [name coll] body...)",
    doc: "Binds the first item of a non-empty collection.",
    example: ["(when-first [x [7 8]] x)", "7"],
  },
  {
    name: "->, ->>",
    syntax: "(-> x form...) (->> x form...)",
    doc: "Thread x as the first (->) or last (->>) argument of each form.",
    example: ["(->> [1 2 3] (map inc) (reduce +))", "9"],
  },
  {
    name: "as->, cond->, cond->>, some->, some->>",
    syntax: "(as-> x name form...)",
    doc: "Threading with a name, with conditions, or stopping at nil.",
    example: ["(some-> {:a {:b 2}} :a :b inc)", "3"],
  },
  {
    name: "loop / recur",
    syntax: "(loop [binding init ...] body...)",
    doc: "A loop; recur (in tail position) jumps back with new values. Every jump counts toward the iteration limit.",
    example: ["(loop [i 0 acc 0] (if (< i 4) (recur (inc i) (+ acc i)) acc))", "6"],
  },
  {
    name: "for",
    syntax: "(for [x coll :when t :let [...] :while t ...] body)",
    doc: "List comprehension (cartesian product over several bindings); returns a vector. Each element counts toward the iteration limit.",
    example: ["(for [x [1 2 3] :when (odd? x)] (* x 10))", "[10 30]"],
  },
  {
    name: "doseq",
    syntax: "(doseq [x coll ...] body...)",
    doc: "Like for, for side effects (println); returns nil.",
    example: ["(doseq [x [1 2]] (println x))", "nil"],
  },
  {
    name: "quote",
    syntax: "'symbol",
    doc: "A symbol as data (only symbols can be quoted).",
    example: ["'github", "'github"],
  },
  {
    name: "comment",
    syntax: "(comment ...)",
    doc: "Ignored; nil.",
    example: ["(comment (anything))", "nil"],
  },
  {
    name: "return",
    syntax: "(return value)",
    doc: "Ends the program now with value.",
    example: ['(return 42) (println "not reached")', "42"],
  },
  {
    name: "fail",
    syntax: "(fail reason)",
    doc: "Ends the program now as a failure carrying reason.",
    example: ['(if true 1 (fail "no data"))', "1"],
  },
  {
    name: "tool/name",
    syntax: "(tool/name {:arg value}) (tool/name :arg value)",
    doc: "Calls a host tool with named arguments (keys leave as strings, hyphens as underscores); returns its result.",
    example: ["(:q (tool/echo {:q 1}))", "1"],
  },
  {
    name: "data/key",
    syntax: "data/key",
    doc: "A value from the context the host provided; nil when missing.",
    example: ["(count data/orders)", "2"],
  },
  {
    name: "pmap / pcalls",
    syntax: "(pmap f coll) (pcalls f...)",
    doc: "Calls in parallel (tool calls overlap); results keep order; the first failure fails the call.",
    example: ["(pmap inc [1 2 3])", "[2 3 4]"],
  },
  {
    name: "task / step-done / task-reset",
    syntax: '(task "id" expr)',
    doc: "Journaled work: a task's value is reused across programs of a session.",
    example: ['(task "load" (+ 1 2))', "3"],
  },
  {
    name: "budget/remaining",
    syntax: "(budget/remaining)",
    doc: "The agent's remaining budget as a map ({} outside an agent).",
    example: ["(budget/remaining)", "{}"],
  },
  {
    name: "doc / apropos / dir / meta",
    syntax: '(doc name) (apropos "text")',
    doc: "Discover builtins from inside a program.",
    example: ['(first (apropos "sort-by"))', '"sort-by"'],
  },
];

function signatureLine(definition: BuiltinDefinition): string {
  return definition.signatures
    .map((signature) => `\`(${definition.name}${signature === "[]" ? "" : ` ${signature.slice(1, -1)}`})\``)
    .join(" ");
}

function cell(text: string): string {
  return text.replaceAll("|", "\\|").replaceAll("\n", " ");
}

/** The whole reference as Markdown. */
export function renderReference(definitions: readonly BuiltinDefinition[]): string {
  const visible = definitions.filter((definition) => definition.category !== "Internal");
  const categories = [...new Set(visible.map((definition) => definition.category))].sort();
  const lines: string[] = [
    "# PTC-Lisp reference",
    "",
    "<!-- Generated from the builtin registry by packages/lisp/src/builtins/reference.ts. Do not edit by hand:",
    "     run `UPDATE_REFERENCE=1 pnpm vitest run packages/lisp/src/builtins/reference.test.ts`. -->",
    "",
    `${visible.length} functions in ${categories.length} sections, and ${SPECIAL_FORMS.length} special forms. Every example below is run by the test suite.`,
    "",
    "## Special forms",
    "",
    "| form | syntax | what it does | example |",
    "|---|---|---|---|",
    ...SPECIAL_FORMS.map(
      (form) =>
        `| ${cell(form.name)} | \`${cell(form.syntax)}\` | ${cell(form.doc)} | \`${cell(form.example[0])}\` ⇒ \`${cell(form.example[1])}\` |`,
    ),
    "",
    "## Namespaces",
    "",
    "Builtins can also be written with the namespaces models know from Clojure and Java:",
    "",
    ...[...NAMESPACES.entries()].map(
      ([ns, spec]) =>
        `- \`${ns}/\`: ${
          spec.members === undefined
            ? "any core function"
            : [...spec.members.keys()]
                .sort()
                .map((m) => `\`${m}\``)
                .join(", ")
        }`,
    ),
    "",
  ];
  for (const category of categories) {
    lines.push(
      `## ${category}`,
      "",
      "| function | arguments | what it does | example |",
      "|---|---|---|---|",
    );
    for (const definition of visible
      .filter((d) => d.category === category)
      .sort((a, b) => a.name.localeCompare(b.name))) {
      const example = definition.examples?.[0];
      const exampleText = example === undefined ? "" : `\`${cell(example[0])}\` ⇒ \`${cell(example[1])}\``;
      lines.push(
        `| \`${cell(definition.name)}\` | ${cell(signatureLine(definition))} | ${cell(definition.doc)} | ${exampleText} |`,
      );
    }
    lines.push("");
  }
  return lines.join("\n");
}
