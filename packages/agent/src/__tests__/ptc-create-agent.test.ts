import { describe, expect, test } from "vitest";
import { AgentError, type AgentOptions, asTool, createAgent } from "../index.js";

/** Calls createAgent with untyped options (as a JavaScript caller could) and returns the error. */
function invalidOption(options: Record<string, unknown>): AgentError {
  try {
    createAgent(options as unknown as AgentOptions);
  } catch (error) {
    expect(error).toBeInstanceOf(AgentError);
    const agentError = error as AgentError;
    expect(agentError.code).toBe("PTC_AGENT_INVALID_OPTION");
    return agentError;
  }
  throw new Error(`createAgent accepted ${JSON.stringify(options)}`);
}

const noop = () => 1;

describe("createAgent option validation (PTC_AGENT_INVALID_OPTION naming option, given and accepted)", () => {
  // [case name, options, option in details, fragments the message must contain]
  const cases: readonly [string, Record<string, unknown>, string, readonly string[]][] = [
    ["prompt missing", {}, "prompt", ["prompt is required", "e.g."]],
    ["prompt not a string", { prompt: 42 }, "prompt", ["prompt must be a string", "got 42"]],
    [
      "tools not an object",
      { prompt: "p", tools: [1] },
      "tools",
      ["tools must be an object of name → tool", "got [1]"],
    ],
    [
      "tools named lisp_eval",
      { prompt: "p", tools: { lisp_eval: noop } },
      "tools",
      ['tool name "lisp_eval" is reserved', "choose a different name"],
    ],
    [
      "a self tool without a signature",
      { prompt: "p", tools: { again: "self" } },
      "tools",
      ['agents with "self" tools must have a signature', 'tool "again"'],
    ],
    [
      "a tool with an invalid expose",
      { prompt: "p", tools: { search: { execute: noop, expose: "everywhere" } } },
      "tools",
      ['tool "search"', 'invalid expose: "everywhere"', '"native", "ptc_lisp", "both"'],
    ],
    [
      "a tool with nativeResult but not expose both + cache",
      { prompt: "p", tools: { search: { execute: noop, expose: "native", nativeResult: {} } } },
      "tools",
      ['tool "search"', 'requires expose: "both" AND cache: true', 'got expose: "native", cache: false'],
    ],
    [
      "a tool with an invalid nativeResult.preview",
      {
        prompt: "p",
        tools: { search: { execute: noop, expose: "both", cache: true, nativeResult: { preview: "all" } } },
      },
      "tools",
      ["nativeResult.preview", '"metadata", "rows", or a one-argument function', 'got "all"'],
    ],
    [
      "a tool with an invalid nativeResult.limit",
      {
        prompt: "p",
        tools: { search: { execute: noop, expose: "both", cache: true, nativeResult: { limit: 0 } } },
      },
      "tools",
      ["nativeResult.limit", "must be a positive integer", "got 0"],
    ],
    [
      "maxTurns zero",
      { prompt: "p", maxTurns: 0 },
      "maxTurns",
      ["maxTurns must be a positive integer", "got 0"],
    ],
    [
      "maxTurns explicit null",
      { prompt: "p", maxTurns: null },
      "maxTurns",
      ["maxTurns must be a positive integer", "got null"],
    ],
    [
      "maxTurns fractional",
      { prompt: "p", maxTurns: 1.5 },
      "maxTurns",
      ["maxTurns must be a positive integer", "got 1.5"],
    ],
    [
      "retryTurns negative",
      { prompt: "p", retryTurns: -1 },
      "retryTurns",
      ["retryTurns must be a non-negative integer", "got -1"],
    ],
    [
      "retryTurns explicit null",
      { prompt: "p", retryTurns: null },
      "retryTurns",
      ["retryTurns must be a non-negative integer", "got null"],
    ],
    [
      "timeout explicit null",
      { prompt: "p", timeout: null },
      "timeout",
      ["timeout cannot be null", "default 5000"],
    ],
    ["timeout zero", { prompt: "p", timeout: 0 }, "timeout", ["timeout must be a positive integer", "got 0"]],
    [
      "missionTimeout negative",
      { prompt: "p", missionTimeout: -5 },
      "missionTimeout",
      ["missionTimeout must be a positive integer or null", "got -5"],
    ],
    [
      "signature not a string",
      { prompt: "p", signature: 42 },
      "signature",
      ["signature must be a string", "got 42"],
    ],
    [
      "signature explicit null",
      { prompt: "p", signature: null },
      "signature",
      ["signature must be a string", "got null"],
    ],
    [
      "signature that does not parse",
      { prompt: "p", signature: ":integer" },
      "signature",
      ["invalid signature:"],
    ],
    [
      "placeholders missing from the signature",
      { prompt: "Find {{user.name}} in {{city}}", signature: "(user :map) -> :string" },
      "prompt",
      ["placeholders {{user.name}}, {{city}} not found in signature", "parameters are: user"],
    ],
    [
      "llmRetry not an object",
      { prompt: "p", llmRetry: 3 },
      "llmRetry",
      ["llmRetry must be an object", "got 3"],
    ],
    [
      "llmRetry explicit null",
      { prompt: "p", llmRetry: null },
      "llmRetry",
      ["llmRetry must be an object", "got null"],
    ],
    [
      "promptLimit not an object",
      { prompt: "p", promptLimit: 100 },
      "promptLimit",
      ["promptLimit must be an object such as { maxChars: 20000 }", "got 100"],
    ],
    [
      "promptLimit explicit null",
      { prompt: "p", promptLimit: null },
      "promptLimit",
      ["promptLimit must be an object", "got null"],
    ],
    [
      "promptLimit.maxChars not positive",
      { prompt: "p", promptLimit: { maxChars: -1 } },
      "promptLimit",
      ["promptLimit.maxChars must be a positive integer", "got -1"],
    ],
    [
      "memoryLimit zero",
      { prompt: "p", memoryLimit: 0 },
      "memoryLimit",
      ["memoryLimit must be a positive integer or null", "got 0"],
    ],
    [
      "maxDepth zero",
      { prompt: "p", maxDepth: 0 },
      "maxDepth",
      ["maxDepth must be a positive integer", "got 0"],
    ],
    [
      "turnBudget text",
      { prompt: "p", turnBudget: "10" },
      "turnBudget",
      ["turnBudget must be a positive integer", 'got "10"'],
    ],
    ["name empty", { prompt: "p", name: "" }, "name", ["name must be a non-empty string or null", 'got ""']],
    ["name not a string", { prompt: "p", name: 7 }, "name", ["name must be a string", "got 7"]],
    [
      "description empty",
      { prompt: "p", description: "" },
      "description",
      ["description must be a non-empty string or null", 'got ""'],
    ],
    [
      "description not a string",
      { prompt: "p", description: false },
      "description",
      ["description must be a string", "got false"],
    ],
    [
      "fieldDescriptions not an object",
      { prompt: "p", fieldDescriptions: ["a"] },
      "fieldDescriptions",
      ["fieldDescriptions must be an object of name → description", 'got ["a"]'],
    ],
    [
      "contextDescriptions not an object",
      { prompt: "p", contextDescriptions: "x" },
      "contextDescriptions",
      ["contextDescriptions must be an object of name → description", 'got "x"'],
    ],
    [
      "formatOptions not an object",
      { prompt: "p", formatOptions: [] },
      "formatOptions",
      ["formatOptions must be an object", "got []"],
    ],
    [
      "formatOptions with an unknown key",
      { prompt: "p", formatOptions: { historyMaxBytes: 10 } },
      "formatOptions",
      ['unknown formatOptions key "historyMaxBytes"', "known keys: feedbackMaxChars"],
    ],
    [
      "formatOptions with a wrongly typed value",
      { prompt: "p", formatOptions: { minimalTurnInfo: "yes" } },
      "formatOptions",
      ["formatOptions.minimalTurnInfo must be a boolean", 'got "yes"'],
    ],
    [
      "builtinTools not an array of names",
      { prompt: "p", builtinTools: [1] },
      "builtinTools",
      ["builtinTools must be an array of family names", "got [1]"],
    ],
    [
      "output unknown",
      { prompt: "p", output: "json" },
      "output",
      ['output must be "ptc_lisp" or "text"', 'got "json"'],
    ],
    [
      "compaction with output text",
      { prompt: "p", output: "text", compaction: true },
      "compaction",
      ['compaction cannot be used with output: "text"'],
    ],
    [
      "ptcTransport unknown",
      { prompt: "p", ptcTransport: "http" },
      "ptcTransport",
      ['ptcTransport must be "content" or "tool_call"', 'got "http"'],
    ],
    [
      "ptcTransport content with output text",
      { prompt: "p", output: "text", ptcTransport: "content" },
      "ptcTransport",
      ['ptcTransport: "content" is not supported with output: "text"', 'use ptcTransport: "tool_call"'],
    ],
    [
      "ptcReference full",
      { prompt: "p", ptcReference: "full" },
      "ptcReference",
      ['ptcReference: "full" is not available yet', 'only "compact"'],
    ],
    [
      "ptcReference other",
      { prompt: "p", ptcReference: "tiny" },
      "ptcReference",
      ['ptcReference must be "compact"', 'got "tiny"'],
    ],
    [
      "thinking not boolean",
      { prompt: "p", thinking: "yes" },
      "thinking",
      ["thinking must be a boolean", 'got "yes"'],
    ],
    [
      "memoryStrategy unknown",
      { prompt: "p", memoryStrategy: "lenient" },
      "memoryStrategy",
      ['memoryStrategy must be "strict" or "rollback"', 'got "lenient"'],
    ],
    [
      "maxToolCalls zero",
      { prompt: "p", maxToolCalls: 0 },
      "maxToolCalls",
      ["maxToolCalls must be a positive integer or null", "got 0"],
    ],
    [
      "journaling not boolean",
      { prompt: "p", journaling: 1 },
      "journaling",
      ["journaling must be a boolean", "got 1"],
    ],
    [
      "progress not a function",
      { prompt: "p", progress: "checklist" },
      "progress",
      ["progress must be a function (input, state) => [text, newState], or null", 'got "checklist"'],
    ],
    [
      "completionMode unknown",
      { prompt: "p", completionMode: "auto" },
      "completionMode",
      ['completionMode must be "implicit" or "explicit"', 'got "auto"'],
    ],
    [
      "compaction not an object",
      { prompt: "p", compaction: [] },
      "compaction",
      ["compaction must be true, false or an options object", "got []"],
    ],
    [
      "compaction with an unknown key",
      { prompt: "p", compaction: { every: 3 } },
      "compaction",
      ["unknown compaction option(s): every", "valid keys: strategy"],
    ],
    [
      "compaction with another strategy",
      { prompt: "p", compaction: { strategy: "summarize" } },
      "compaction",
      ['compaction.strategy must be "trim"', 'got "summarize"'],
    ],
    [
      "compaction trigger without turns or tokens",
      { prompt: "p", compaction: { trigger: {} } },
      "compaction",
      ["compaction.trigger must set at least one of turns or tokens"],
    ],
    [
      "compaction trigger turns not positive",
      { prompt: "p", compaction: { trigger: { turns: 0 } } },
      "compaction",
      ["compaction.trigger.turns must be a positive integer", "got 0"],
    ],
    [
      "compaction keepRecentTurns below one",
      { prompt: "p", compaction: { keepRecentTurns: 0 } },
      "compaction",
      ["compaction.keepRecentTurns must be an integer >= 1", "got 0"],
    ],
    [
      "compaction keepInitialUser not boolean",
      { prompt: "p", compaction: { keepInitialUser: "no" } },
      "compaction",
      ["compaction.keepInitialUser must be a boolean", 'got "no"'],
    ],
    [
      "compaction tokenCounter not a function",
      { prompt: "p", compaction: { tokenCounter: 4 } },
      "compaction",
      ["compaction.tokenCounter must be a function", "got 4"],
    ],
    [
      "plan not an array",
      { prompt: "p", plan: "step" },
      "plan",
      ["plan must be an array of steps", 'got "step"'],
    ],
    [
      "plan with an empty description",
      { prompt: "p", plan: ["  "] },
      "plan",
      ["plan description cannot be empty"],
    ],
    [
      "plan pair with an empty description",
      { prompt: "p", plan: [["fetch", ""]] },
      "plan",
      ['plan description cannot be empty for id "fetch"'],
    ],
    [
      "plan with an invalid item",
      { prompt: "p", plan: [42] },
      "plan",
      ["invalid plan item: 42", "use a description or an [id, description] pair"],
    ],
    [
      "plan with duplicate ids",
      {
        prompt: "p",
        plan: [
          ["a", "x"],
          ["a", "y"],
        ],
      },
      "plan",
      ['duplicate plan IDs: ["a"]'],
    ],
    [
      "llmQuery not boolean",
      { prompt: "p", llmQuery: "on" },
      "llmQuery",
      ["llmQuery must be a boolean", 'got "on"'],
    ],
    [
      "floatPrecision negative",
      { prompt: "p", floatPrecision: -1 },
      "floatPrecision",
      ["floatPrecision must be a non-negative integer", "got -1"],
    ],
    [
      "pmapTimeout zero",
      { prompt: "p", pmapTimeout: 0 },
      "pmapTimeout",
      ["pmapTimeout must be a positive integer", "got 0"],
    ],
    [
      "pmapMaxConcurrency zero",
      { prompt: "p", pmapMaxConcurrency: 0 },
      "pmapMaxConcurrency",
      ["pmapMaxConcurrency must be a positive integer", "got 0"],
    ],
    [
      "toolTimeoutMs zero",
      { prompt: "p", toolTimeoutMs: 0 },
      "toolTimeoutMs",
      ["toolTimeoutMs must be a positive number of milliseconds", "got 0"],
    ],
    [
      "limits not an object",
      { prompt: "p", limits: 5 },
      "limits",
      ["limits must be an object of @ptc/lisp limits", "got 5"],
    ],
    [
      "llm neither function nor key",
      { prompt: "p", llm: 42 },
      "llm",
      ["llm must be a model function or a key of the run's llmRegistry", "got 42"],
    ],
    [
      "systemPrompt of another type",
      { prompt: "p", systemPrompt: 42 },
      "systemPrompt",
      [
        "systemPrompt must be a string, a function of the generated prompt, or { prefix, suffix, languageSpec, outputFormat }",
        "got 42",
      ],
    ],
    [
      "text mode signature parameter unused in the prompt",
      { prompt: "Hello", output: "text", signature: "(user :string) -> :string" },
      "prompt",
      ['Text mode requires all signature params in prompt. Unused: ["user"]'],
    ],
  ];

  test.each(cases)("rejects %s", (_name, options, option, fragments) => {
    const error = invalidOption(options);
    expect(error.details.option).toBe(option);
    for (const fragment of fragments) expect(error.message).toContain(fragment);
  });

  test("reports the first invalid option in the reference's order (tools before maxTurns)", () => {
    const error = invalidOption({ prompt: "p", tools: 1, maxTurns: 0 });
    expect(error.details.option).toBe("tools");
  });

  test("keeps what was given in details.given", () => {
    expect(invalidOption({ prompt: "p", maxTurns: 0 }).details).toEqual({ option: "maxTurns", given: "0" });
  });

  test("refuses unknown keys, naming the nearest valid one when there is one", () => {
    expect(invalidOption({ prompt: "p", colour: "blue" }).details).toMatchObject({ option: "colour" });
    expect(invalidOption({ prompt: "p", maxTurn: 2 }).details).toMatchObject({
      option: "maxTurn",
      suggestion: "maxTurns",
    });
  });
});

describe("createAgent defaults", () => {
  test("resolves every default under the option's own name", () => {
    const agent = createAgent({ prompt: "Count {{n}}" });
    expect(agent).toMatchObject({
      prompt: "Count {{n}}",
      signature: undefined,
      parsedSignature: undefined,
      tools: {},
      output: "ptc_lisp",
      ptcTransport: "content",
      ptcTransportGiven: false,
      ptcReference: "compact",
      maxTurns: 5,
      retryTurns: 0,
      maxToolCalls: undefined,
      timeout: 5000,
      memoryLimit: 1_048_576,
      memoryStrategy: "strict",
      maxDepth: 3,
      turnBudget: 20,
      missionTimeout: undefined,
      completionMode: "implicit",
      systemPrompt: undefined,
      promptLimit: undefined,
      name: undefined,
      description: undefined,
      floatPrecision: 2,
      compaction: false,
      thinking: false,
      plan: [],
      progress: undefined,
      journaling: false,
      llmQuery: false,
      builtinTools: [],
      llm: undefined,
      pmapTimeout: 5000,
      pmapMaxConcurrency: 8,
    });
    expect(agent.formatOptions).toEqual({
      feedbackMaxChars: 512,
      previewMaxChars: 250,
      maxPrintLength: 2000,
      contextInSystem: false,
      minimalTurnInfo: false,
      resultLimit: 50,
      resultMaxChars: 500,
      feedbackLimit: 10,
    });
  });

  test("returns a frozen agent", () => {
    const agent = createAgent({ prompt: "p" });
    expect(Object.isFrozen(agent)).toBe(true);
  });

  test("merges formatOptions over the defaults", () => {
    const agent = createAgent({
      prompt: "p",
      formatOptions: { feedbackMaxChars: 40, minimalTurnInfo: true },
    });
    expect(agent.formatOptions.feedbackMaxChars).toBe(40);
    expect(agent.formatOptions.minimalTurnInfo).toBe(true);
    expect(agent.formatOptions.previewMaxChars).toBe(250);
  });

  test("null memoryLimit and missionTimeout mean no limit", () => {
    const agent = createAgent({ prompt: "p", memoryLimit: null, missionTimeout: null, maxToolCalls: null });
    expect(agent.memoryLimit).toBeUndefined();
    expect(agent.missionTimeout).toBeUndefined();
    expect(agent.maxToolCalls).toBeUndefined();
  });

  test("compaction true resolves to the trim defaults", () => {
    const agent = createAgent({ prompt: "p", compaction: true });
    expect(agent.compaction).toEqual({
      strategy: "trim",
      trigger: { turns: 8 },
      keepRecentTurns: 3,
      keepInitialUser: true,
      tokenCounter: undefined,
    });
  });

  test("compaction options merge over the defaults", () => {
    const agent = createAgent({ prompt: "p", compaction: { trigger: { tokens: 100 }, keepRecentTurns: 1 } });
    expect(agent.compaction).toMatchObject({
      trigger: { tokens: 100 },
      keepRecentTurns: 1,
      keepInitialUser: true,
    });
  });

  test("normalizes the plan to [id, description] pairs, bare strings numbered from 1", () => {
    const agent = createAgent({ prompt: "p", plan: ["fetch", ["sum", "add them"], "report"] });
    expect(agent.plan).toEqual([
      ["1", "fetch"],
      ["sum", "add them"],
      ["3", "report"],
    ]);
  });

  test("parses the signature", () => {
    const agent = createAgent({ prompt: "p {{n}}", signature: "(n :int) -> {total :int}" });
    expect(agent.parsedSignature?.params.map((param) => param.name)).toEqual(["n"]);
  });

  test("accepts ptcTransport tool_call and records that it was given", () => {
    const agent = createAgent({ prompt: "p", ptcTransport: "tool_call" });
    expect(agent.ptcTransport).toBe("tool_call");
    expect(agent.ptcTransportGiven).toBe(true);
  });

  test("normalizes tools and lets a self tool through when there is a signature", () => {
    const agent = createAgent({
      prompt: "p {{n}}",
      signature: "(n :int) -> :int",
      description: "halves",
      tools: {
        again: "self",
        double: { execute: ({ x }: { x: number }) => x * 2, signature: "(x :int) -> :int" },
      },
    });
    expect(Object.keys(agent.tools).sort()).toEqual(["again", "double"]);
    expect(agent.tools.again?.description).toBe("halves");
    expect(agent.tools.double?.signature).toBe("(x :int) -> :int");
  });
});

describe("asTool", () => {
  test("requires a description from the option or the agent", () => {
    const agent = createAgent({ prompt: "p" });
    expect(() => asTool(agent)).toThrow(AgentError);
    expect(() => asTool(agent)).toThrow(/description/);
  });

  test("takes the agent's signature and description", () => {
    const agent = createAgent({ prompt: "p {{n}}", signature: "(n :int) -> :int", description: "doubles" });
    const tool = asTool(agent);
    expect(tool.signature).toBe("(n :int) -> :int");
    expect(tool.description).toBe("doubles");
    expect(tool.cache).toBe(false);
  });
});
