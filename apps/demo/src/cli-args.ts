/**
 * The demo's command line. Bad flags are a `UsageError` with a message that says what to write,
 * and nothing runs.
 */
import { parseArgs } from "node:util";

export interface DemoArgs {
  /** "triage" (the default): log triage in combined mode; "refunds": refunds a person approves. */
  readonly scenario: "triage" | "refunds";
  /** Refunds: approve every refund without asking. */
  readonly yes: boolean;
  readonly provider: "scripted" | "openai";
  readonly model: string | undefined;
  readonly baseURL: string | undefined;
  readonly apiKey: string | undefined;
  readonly question: string | undefined;
  readonly json: boolean;
  readonly transcript: string | undefined;
  /** undefined: colour when writing to a terminal. */
  readonly color: boolean | undefined;
  readonly help: boolean;
}

export class UsageError extends Error {
  override readonly name = "UsageError";
}

export const USAGE = `Usage: pnpm start [-- options]

A combined-mode log-triage agent: the model calls search_logs natively, sees only a preview of
the 1,842 matching rows, then counts them exactly with a lisp_eval program that reads the rows
from the run's cache.

Scenarios:
  (default)             log triage: counts 1,842 errors with a program over the cached rows
  --scenario refunds    an agent refunds late orders; the run pauses at each refund and you
                        answer y or n at the terminal, then it resumes from its saved state
  --yes                 refunds: approve every refund without asking (for scripts)

Options:
  --provider openai     run against a live model (OpenAI Chat Completions or a compatible server)
                        instead of the scripted one
  --model ID            the model id, e.g. gpt-4o-mini or llama3.1 (required with --provider)
  --base-url URL        an OpenAI-compatible endpoint, e.g. http://localhost:11434/v1 for Ollama
                        (default: OPENAI_BASE_URL, then https://api.openai.com/v1)
  --api-key KEY         the API key (default: OPENAI_API_KEY); never printed or saved
  --question TEXT       ask something else (live models only; triage)
  --json                print the run's Step as JSON instead of the live view
  --transcript FILE     save every request, response and event as JSON Lines
  --color, --no-color   force colours on or off (default: on for a terminal, NO_COLOR respected)
  -h, --help            show this help
`;

export function parseDemoArgs(argv: readonly string[]): DemoArgs {
  let values: ReturnType<typeof parse>["values"];
  try {
    values = parse(argv).values;
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const scenario = values.scenario ?? "triage";
  if (scenario !== "triage" && scenario !== "refunds") {
    throw new UsageError(`--scenario must be "refunds" (or "triage", the default), got "${scenario}"`);
  }
  if (values.yes === true && scenario !== "refunds") {
    throw new UsageError("--yes approves refunds: add --scenario refunds");
  }
  if (values.question !== undefined && scenario === "refunds") {
    throw new UsageError("--question asks the triage agent; the refunds scenario has its own task");
  }
  const provider = values.provider ?? "scripted";
  if (provider !== "scripted" && provider !== "openai") {
    throw new UsageError(`--provider must be "openai" (or "scripted", the default), got "${provider}"`);
  }
  const live = provider === "openai";
  if (live && (values.model === undefined || values.model.trim() === "")) {
    throw new UsageError("--provider openai needs --model, e.g. --model gpt-4o-mini");
  }
  if (!live) {
    for (const flag of ["model", "base-url", "api-key", "question"] as const) {
      if (values[flag] !== undefined)
        throw new UsageError(`--${flag} needs a live model: add --provider openai`);
    }
  }
  return {
    scenario,
    yes: values.yes ?? false,
    provider,
    model: values.model,
    baseURL: values["base-url"],
    apiKey: values["api-key"],
    question: values.question,
    json: values.json ?? false,
    transcript: values.transcript,
    color: values["no-color"] === true ? false : values.color === true ? true : undefined,
    help: values.help ?? false,
  };
}

function parse(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    strict: true,
    allowPositionals: false,
    options: {
      scenario: { type: "string" },
      yes: { type: "boolean" },
      provider: { type: "string" },
      model: { type: "string" },
      "base-url": { type: "string" },
      "api-key": { type: "string" },
      question: { type: "string" },
      json: { type: "boolean" },
      transcript: { type: "string" },
      color: { type: "boolean" },
      "no-color": { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  });
}
