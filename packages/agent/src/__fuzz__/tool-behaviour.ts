/**
 * Random app tools: how each is defined (a bare function or an object with expose, cache,
 * preview, timeout and signature) and what each of its calls does (return a hostile value, now or
 * later; throw or reject with anything; never settle; return a thenable whose `then` throws).
 *
 * Built tools report to a harness: when each call started (so a property can tell a call that
 * started after the run was aborted), and every timer a tool scheduled (so a case waits for the
 * tool's late work before it checks that nothing reached the host).
 */
import fc from "fast-check";
import type { AgentToolDefinition } from "../index.js";
import { buildValue, type ValueRecipe, valueRecipe } from "./hostile-value.js";
import { buildThrown, type ThrownRecipe, thrownRecipe } from "./thrown-value.js";

export type CallRecipe =
  | { readonly kind: "return"; readonly value: ValueRecipe; readonly async: boolean }
  | { readonly kind: "return-later"; readonly value: ValueRecipe; readonly afterMs: number }
  | { readonly kind: "throw"; readonly thrown: ThrownRecipe }
  | { readonly kind: "reject"; readonly thrown: ThrownRecipe }
  | { readonly kind: "reject-later"; readonly thrown: ThrownRecipe; readonly afterMs: number }
  /** A promise that never settles: only the tool's timeout (or the run's end) stops the wait. */
  | { readonly kind: "never" }
  | { readonly kind: "thenable-throws" };

export interface ToolRecipe {
  readonly name: string;
  readonly form: "function" | "object";
  readonly expose?: "native" | "ptc_lisp" | "both";
  readonly cache: boolean;
  /** Only for `expose: "both"` with `cache: true`, as `@ptc/tool` requires. */
  readonly preview?: "metadata" | "rows" | "custom" | "custom-throws";
  readonly timeoutMs?: number;
  readonly signature?: string;
  /** Call n does `calls[n % calls.length]`. */
  readonly calls: readonly CallRecipe[];
}

/** Names the model scripts use; tools get some of them, so some calls name unknown tools. */
export const TOOL_NAMES = ["lookup", "search_logs", "rows", "odd_one"] as const;

export interface ToolOptions {
  /**
   * Results may hold the secret marker, and the tool is then one the metadata policy covers:
   * cached, exposed to programs, and natively (if at all) only through the metadata preview.
   */
  readonly secret?: boolean;
  /** Calls return plain JSON data, so that what a case exercises is the model's side. */
  readonly plain?: boolean;
}

const plainValue: fc.Arbitrary<ValueRecipe> = fc
  .jsonValue({ maxDepth: 3 })
  .map((value) => ({ kind: "json" as const, value }));

export function callRecipe(options: ToolOptions): fc.Arbitrary<CallRecipe> {
  if (options.plain === true) {
    return fc.record({ kind: fc.constant("return" as const), value: plainValue, async: fc.boolean() });
  }
  const any = valueRecipe({ secret: options.secret === true });
  // A secret-holding tool nearly always has the marker somewhere in what it returns: beside the
  // rest, in a row, at the bottom of deep nesting, at the end of a huge string.
  const value =
    options.secret === true ? fc.oneof({ weight: 4, arbitrary: any.chain(withSecret) }, any) : any;
  return fc.oneof(
    {
      // A secret-holding tool mostly answers, so that its values are there to leak.
      weight: options.secret === true ? 24 : 6,
      arbitrary: fc.record({ kind: fc.constant("return" as const), value, async: fc.boolean() }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant("return-later" as const),
        value,
        afterMs: fc.integer({ min: 0, max: 40 }),
      }),
    },
    {
      weight: 2,
      arbitrary: fc.record({ kind: fc.constant("throw" as const), thrown: thrownRecipe() }),
    },
    {
      weight: 2,
      arbitrary: fc.record({ kind: fc.constant("reject" as const), thrown: thrownRecipe() }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant("reject-later" as const),
        thrown: thrownRecipe(),
        afterMs: fc.integer({ min: 0, max: 40 }),
      }),
    },
    { weight: 1, arbitrary: fc.constant({ kind: "never" as const }) },
    { weight: 1, arbitrary: fc.constant({ kind: "thenable-throws" as const }) },
  );
}

function withSecret(rest: ValueRecipe): fc.Arbitrary<ValueRecipe> {
  const secret: ValueRecipe = { kind: "secret" };
  return fc.constantFrom<ValueRecipe>(
    secret,
    {
      kind: "object",
      entries: [
        ["note", secret],
        ["rest", rest],
      ],
    },
    {
      kind: "array",
      items: [
        {
          kind: "object",
          entries: [
            ["id", { kind: "number", value: 1 }],
            ["text", secret],
          ],
        },
        rest,
      ],
    },
    { kind: "array", items: [rest, { kind: "map", entries: [[{ kind: "string", value: "k" }, secret]] }] },
    { kind: "deep", depth: 100, shape: "object", value: secret },
    { kind: "huge-string", length: 300_000, secret: true },
    { kind: "set", items: [secret, rest] },
    { kind: "class-instance", value: secret },
  );
}

const SIGNATURES = [
  "(id :int) -> :any",
  "(query :string) -> [{id :int}]",
  "() -> :any",
  "(id :int?, query :string?) -> :any",
] as const;

export function toolRecipe(name: string, options: ToolOptions): fc.Arbitrary<ToolRecipe> {
  if (options.secret === true) {
    return fc
      .record(
        {
          expose: fc.constantFrom("both" as const, "ptc_lisp" as const),
          preview: fc.constantFrom("metadata" as const, undefined),
          timeoutMs: fc.integer({ min: 1, max: 30 }),
          calls: fc.array(callRecipe(options), { minLength: 1, maxLength: 3 }),
        },
        { requiredKeys: ["expose", "calls"] },
      )
      .map(({ preview, ...recipe }) => ({
        name,
        form: "object" as const,
        cache: true,
        ...recipe,
        // The metadata preview, by name or as the default; only "both" may name one.
        ...(preview !== undefined && recipe.expose === "both" ? { preview } : {}),
      }));
  }
  return fc
    .record(
      {
        form: fc.constantFrom("function" as const, "object" as const),
        expose: fc.constantFrom("native" as const, "ptc_lisp" as const, "both" as const),
        cache: fc.boolean(),
        preview: fc.constantFrom(
          "metadata" as const,
          "rows" as const,
          "custom" as const,
          "custom-throws" as const,
        ),
        timeoutMs: fc.integer({ min: 1, max: 30 }),
        signature: fc.constantFrom(...SIGNATURES),
        calls: fc.array(callRecipe(options), { minLength: 1, maxLength: 3 }),
      },
      { requiredKeys: ["form", "cache", "calls"] },
    )
    .map((recipe) => {
      // A bare function has no settings; a preview needs expose "both" and the cache.
      if (recipe.form === "function")
        return { name, form: "function" as const, cache: false, calls: recipe.calls };
      const { preview, ...rest } = recipe;
      const previewable = rest.expose === "both" && rest.cache;
      return previewable && preview !== undefined ? { name, ...rest, preview } : { name, ...rest };
    });
}

/** What a case's tools report. */
export interface ToolHarness {
  /** Set by the case when it aborts the run. */
  aborted: boolean;
  /** Tools that started after the abort, by name. */
  readonly startedAfterAbort: string[];
  /** The late work tools scheduled (timers); a case awaits them before its last checks. */
  readonly late: Promise<unknown>[];
  calls: number;
}

export function createToolHarness(): ToolHarness {
  return { aborted: false, startedAfterAbort: [], late: [], calls: 0 };
}

/**
 * Runs `settle` after `afterMs`, recorded as the tool's late work. The work always counts as
 * done, even when building the value throws: a case waits for it.
 */
function later(harness: ToolHarness, afterMs: number, settle: () => void): void {
  harness.late.push(
    new Promise<void>((done) =>
      setTimeout(() => {
        try {
          settle();
        } finally {
          done();
        }
      }, afterMs),
    ),
  );
}

function callTool(recipe: CallRecipe, harness: ToolHarness): unknown {
  switch (recipe.kind) {
    case "return": {
      const value = buildValue(recipe.value);
      return recipe.async ? Promise.resolve().then(() => value) : value;
    }
    case "return-later":
      // A value whose building throws (a frozen typed array) is the tool failing, late.
      return new Promise((resolve, reject) =>
        later(harness, recipe.afterMs, () => {
          try {
            resolve(buildValue(recipe.value));
          } catch (error) {
            reject(error);
          }
        }),
      );
    case "throw":
      throw buildThrown(recipe.thrown);
    case "reject":
      return Promise.reject(buildThrown(recipe.thrown));
    case "reject-later":
      return new Promise((_, reject) =>
        later(harness, recipe.afterMs, () => reject(buildThrown(recipe.thrown))),
      );
    case "never":
      return new Promise(() => undefined);
    case "thenable-throws":
      return {
        // biome-ignore lint/suspicious/noThenProperty: a hostile tool returns a broken thenable
        then() {
          throw new Error("then trap");
        },
      };
  }
}

export function buildTool(recipe: ToolRecipe, harness: ToolHarness): AgentToolDefinition {
  let count = 0;
  const execute = () => {
    harness.calls += 1;
    if (harness.aborted) harness.startedAfterAbort.push(recipe.name);
    const call = recipe.calls[count++ % recipe.calls.length] as CallRecipe;
    return callTool(call, harness);
  };
  if (recipe.form === "function") return execute;
  const preview =
    recipe.preview === undefined
      ? undefined
      : recipe.preview === "custom"
        ? (full: unknown) => ({ kind: typeof full })
        : recipe.preview === "custom-throws"
          ? () => {
              throw new Error("preview trap");
            }
          : recipe.preview;
  return {
    execute,
    cache: recipe.cache,
    ...(recipe.expose === undefined ? {} : { expose: recipe.expose }),
    ...(preview === undefined ? {} : { nativeResult: { preview } }),
    ...(recipe.timeoutMs === undefined ? {} : { timeoutMs: recipe.timeoutMs }),
    ...(recipe.signature === undefined ? {} : { signature: recipe.signature }),
  } as AgentToolDefinition;
}
