/**
 * Random model turns for the scripted model: replies with programs (whole, cut short, unfenced,
 * several at once), garbage text, empty content, JSON answers, native tool calls with random JSON
 * arguments, unknown tool names, malformed JSON, repeated or missing ids, responses that break
 * the `ModelResponse` contract, and model errors.
 *
 * Programs are built from forms that call the scenario's tools (and tools that do not exist), so
 * tool results travel through programs, prints, memory and answers.
 */
import fc from "fast-check";
import type { ModelResponse } from "../index.js";
import { buildThrown, type ThrownRecipe, thrownRecipe } from "./thrown-value.js";
import { TOOL_NAMES } from "./tool-behaviour.js";

const CALLED = [...TOOL_NAMES, "missing_tool"];

const toolCall = fc
  .tuple(
    fc.constantFrom(...CALLED),
    fc.constantFrom("{}", "{:id 1}", '{:query "x"}', "{:id %}", '{:id 1 :query "error code 42"}'),
  )
  .map(([name, args]) => `(tool/${name} ${args})`);

/** One form of a program. */
const form: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: toolCall },
  { weight: 2, arbitrary: toolCall.map((call) => `(println ${call})`) },
  { weight: 2, arbitrary: toolCall.map((call) => `(def r ${call})`) },
  { weight: 2, arbitrary: toolCall.map((call) => `(return ${call})`) },
  {
    weight: 2,
    arbitrary: fc
      .tuple(
        fc.constantFrom("count", "keys", "first", "str", ":id", "vals", "pr-str", "json/generate-string"),
        toolCall,
      )
      .map(([f, call]) => `(${f} ${call})`),
  },
  { weight: 1, arbitrary: toolCall.map((call) => `(pmap (fn [id] ${call.replace("%", "id")}) [1 2 3])`) },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      "r",
      "(println r)",
      "(return r)",
      "(return 1)",
      "(return {:a 1 :b [1 2]})",
      '(return "done")',
      '(fail "gave up")',
      "(fail {:reason :x})",
      "(loop [i 0] (recur (inc i)))",
      "(count (range 1e9))",
      "(def big (vec (range 100000)))",
      "(defn f [x] (f x)) (f 1)",
      "(/ 1 0)",
      '(step-done "a" "b")',
      "*1",
      "(return *1)",
      "(undefined-fn 1)",
      '(tool/llm-query {:prompt "q"})',
    ),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 20 }) },
);

/** A program: a few forms, sometimes cut short at a random character. */
export const programText: fc.Arbitrary<string> = fc
  .tuple(fc.array(form, { minLength: 1, maxLength: 3 }), fc.option(fc.nat(), { nil: undefined }))
  .map(([forms, cut]) => {
    const text = forms.join("\n");
    return cut === undefined ? text : text.slice(0, cut % (text.length + 1));
  });

/** A program that runs: one tool call, its result printed, returned or kept. */
const wholeProgram: fc.Arbitrary<string> = fc
  .tuple(
    fc.constantFrom(...TOOL_NAMES),
    fc.constantFrom("{}", "{:id 1}", '{:query "x"}'),
    fc.constantFrom("(println %)", "%", "(return %)", "(def kept %)", "(str %)", "(first %)"),
  )
  .map(([name, args, shape]) => shape.replace("%", `(tool/${name} ${args})`));

const fenced = (program: string) => `\`\`\`clojure\n${program}\n\`\`\``;

/** Text content of a reply. */
export const contentText: fc.Arbitrary<string> = fc.oneof(
  { weight: 5, arbitrary: programText.map(fenced) },
  { weight: 1, arbitrary: programText },
  { weight: 1, arbitrary: programText.map((program) => `\`\`\`clojure\n${program}`) },
  {
    weight: 1,
    arbitrary: fc.tuple(programText, programText).map(([a, b]) => `${fenced(a)}\nand\n${fenced(b)}`),
  },
  { weight: 1, arbitrary: programText.map((program) => `thinking: let me see\n${fenced(program)}`) },
  { weight: 1, arbitrary: fc.constantFrom("", " ", "```", "```clojure\n```", "``````") },
  { weight: 2, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 20 }) },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 2 }).map((value) => JSON.stringify(value)) },
  { weight: 1, arbitrary: fc.constantFrom('{"a": 1', "{'a': 1}", "[1, 2,]", "null", "42", '"text"') },
);

/** The arguments of a native call. */
export type ArgsRecipe =
  | { readonly kind: "object"; readonly value: Readonly<Record<string, unknown>> }
  | { readonly kind: "program"; readonly program: string; readonly asText: boolean }
  | { readonly kind: "text"; readonly text: string }
  | { readonly kind: "not-an-object"; readonly value: unknown }
  | { readonly kind: "args-error"; readonly text: string };

const argsRecipe: fc.Arbitrary<ArgsRecipe> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant("object" as const),
      value: fc.oneof(
        fc.constantFrom({}, { id: 1 }, { query: "x" }, { id: "1" }, { __proto__: null, id: 2 }),
        fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }),
      ),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant("program" as const),
      program: programText,
      asText: fc.boolean(),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("text" as const),
      text: fc.oneof(
        fc.constantFrom(
          "",
          "{",
          '{"id": 1',
          "[1]",
          "null",
          "not json",
          '{"program": 5}',
          '{"__proto__": {"id": 1}}',
        ),
        fc.json({ maxDepth: 2 }),
        fc.string({ maxLength: 12 }),
      ),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("not-an-object" as const),
      value: fc.oneof(fc.constantFrom(null, 5, "text", [1, 2], true), fc.jsonValue({ maxDepth: 1 })),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant("args-error" as const), text: fc.string({ maxLength: 10 }) }),
  },
);

export interface NativeCallRecipe {
  /** Missing, repeated or empty ids included. */
  readonly id?: string;
  readonly name: string;
  readonly args: ArgsRecipe;
}

function nativeCall(favour: boolean): fc.Arbitrary<NativeCallRecipe> {
  const id = fc.constantFrom("c1", "c2", "", "c1");
  if (!favour) {
    return fc.record(
      {
        id,
        name: fc.oneof(
          { weight: 4, arbitrary: fc.constantFrom(...TOOL_NAMES) },
          { weight: 3, arbitrary: fc.constant("lisp_eval") },
          {
            weight: 1,
            arbitrary: fc.constantFrom("missing_tool", "", "search-logs", "LISP_EVAL", "__proto__"),
          },
        ),
        args: argsRecipe,
      },
      { requiredKeys: ["name", "args"] },
    );
  }
  // Favoured calls mostly get what they need (else most fail before they do anything): a tool its
  // usual arguments, lisp_eval a program.
  const toolArgs = fc.oneof(
    {
      weight: 3,
      arbitrary: fc.constantFrom<ArgsRecipe>(
        { kind: "object", value: {} },
        { kind: "object", value: { id: 1 } },
        { kind: "object", value: { query: "x" } },
      ),
    },
    argsRecipe,
  );
  const programArgs = fc.oneof(
    {
      weight: 3,
      arbitrary: fc.record({
        kind: fc.constant("program" as const),
        program: wholeProgram,
        asText: fc.boolean(),
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant("program" as const),
        program: programText,
        asText: fc.boolean(),
      }),
    },
    argsRecipe,
  );
  return fc.oneof(
    {
      weight: 8,
      arbitrary: fc.record(
        { id, name: fc.constantFrom<string>(...TOOL_NAMES), args: toolArgs },
        { requiredKeys: ["name", "args"] },
      ),
    },
    {
      weight: 4,
      arbitrary: fc.record(
        { id, name: fc.constant("lisp_eval"), args: programArgs },
        { requiredKeys: ["name", "args"] },
      ),
    },
    {
      weight: 1,
      arbitrary: fc.record(
        {
          id,
          name: fc.constantFrom("missing_tool", "", "search-logs", "LISP_EVAL", "__proto__"),
          args: argsRecipe,
        },
        { requiredKeys: ["name", "args"] },
      ),
    },
  );
}

export type TurnRecipe =
  | { readonly kind: "content"; readonly text: string; readonly tokens?: Readonly<Record<string, number>> }
  | {
      readonly kind: "tool-calls";
      readonly content: string | null;
      readonly calls: readonly NativeCallRecipe[];
    }
  | { readonly kind: "model-error"; readonly thrown: ThrownRecipe }
  /** A response outside the `ModelResponse` type, as a buggy adapter might return. */
  | {
      readonly kind: "off-contract";
      readonly response:
        | "number"
        | "null"
        | "array"
        | "bad-tool-calls"
        | "nameless-call"
        | "content-number"
        | "undefined";
    };

const tokenCounts = fc.dictionary(
  fc.constantFrom("input", "output", "cacheCreation", "cacheRead"),
  fc.oneof(fc.nat(5000), fc.constantFrom(-1, Number.NaN, 1e300, 0.5)),
  { maxKeys: 4 },
);

export interface TurnOptions {
  /** Turns may break the `ModelResponse` contract. */
  readonly offContract?: boolean;
  /** Mostly native calls: a text reply ends a text-mode run, so the calls come first. */
  readonly favourCalls?: boolean;
}

export function turnRecipe(options: TurnOptions): fc.Arbitrary<TurnRecipe> {
  const favour = options.favourCalls === true;
  const turns: fc.WeightedArbitrary<TurnRecipe>[] = [
    {
      weight: favour ? 1 : 6,
      arbitrary: fc.record(
        { kind: fc.constant("content" as const), text: contentText, tokens: tokenCounts },
        { requiredKeys: ["kind", "text"] },
      ),
    },
    {
      weight: favour ? 12 : 5,
      arbitrary: fc.record({
        kind: fc.constant("tool-calls" as const),
        content: fc.option(fc.constantFrom("", "calling a tool", "```clojure\n(return 1)\n```"), {
          nil: null,
        }),
        calls: fc.array(nativeCall(favour), { minLength: 0, maxLength: 3 }),
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({ kind: fc.constant("model-error" as const), thrown: thrownRecipe() }),
    },
  ];
  if (options.offContract === true) {
    turns.push({
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant("off-contract" as const),
        response: fc.constantFrom(
          "number" as const,
          "null" as const,
          "array" as const,
          "bad-tool-calls" as const,
          "nameless-call" as const,
          "content-number" as const,
          "undefined" as const,
        ),
      }),
    });
  }
  return fc.oneof(...turns);
}

function buildArgs(recipe: ArgsRecipe): { args: unknown; argsError?: string } {
  switch (recipe.kind) {
    case "object":
      return { args: structuredClone(recipe.value) };
    case "program":
      return recipe.asText
        ? { args: JSON.stringify({ program: recipe.program }) }
        : { args: { program: recipe.program } };
    case "text":
      return { args: recipe.text };
    case "not-an-object":
      return { args: recipe.value };
    case "args-error":
      return { args: recipe.text, argsError: `Invalid JSON arguments: ${recipe.text}` };
  }
}

/** The response a turn gives, or throws. */
export function buildResponse(recipe: TurnRecipe): ModelResponse {
  switch (recipe.kind) {
    case "content":
      return recipe.tokens === undefined ? recipe.text : { content: recipe.text, tokens: recipe.tokens };
    case "tool-calls":
      return {
        content: recipe.content,
        toolCalls: recipe.calls.map((call) => ({
          ...(call.id === undefined ? {} : { id: call.id }),
          name: call.name,
          ...buildArgs(call.args),
        })),
      } as ModelResponse;
    case "model-error":
      throw buildThrown(recipe.thrown);
    case "off-contract": {
      const responses = {
        number: 42,
        null: null,
        array: ["a"],
        "bad-tool-calls": { content: "x", toolCalls: "lisp_eval" },
        "nameless-call": { toolCalls: [{ args: {} }] },
        "content-number": { content: 7 },
        undefined: undefined,
      };
      return responses[recipe.response] as unknown as ModelResponse;
    }
  }
}
