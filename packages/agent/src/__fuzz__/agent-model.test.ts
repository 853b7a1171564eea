/**
 * Property `agent-model`: whatever the model answers, the agent boundary holds, in every mode.
 * The scripted model's turns are random: programs whole, cut short, unfenced or several at once;
 * garbage and empty text; JSON answers, good and broken; native calls with random JSON arguments,
 * malformed JSON, unknown tool names, repeated or missing ids; responses outside the
 * `ModelResponse` type; model errors. Tools return plain data here, so what fails is the loop's
 * handling of the model.
 *
 * The checks are in boundary-checks.ts. `pnpm fuzz --property agent-model` runs many more cases.
 */
import fc from "fast-check";
import { describe } from "vitest";
import { expectBoundaryHeld } from "./boundary-checks.js";
import { property, settings } from "./fuzz-settings.js";
import { runScenario, scenario } from "./scenario.js";

describe("the agent boundary under a random model", () => {
  property(
    "agent-model",
    "run never rejects, hangs or leaks an error, and its step stays JSON",
    async (id) => {
      await fc.assert(
        fc.asyncProperty(scenario({ offContract: true, plainTools: true }), async (recipe) => {
          expectBoundaryHeld(recipe, await runScenario(recipe));
        }),
        settings(id, 40),
      );
    },
  );
});
