/**
 * Property `agent-abort`: the run's signal aborted at a random point (before the run, inside the
 * listener of its n-th event, inside its n-th model call, which then never answers, or after a
 * random delay), with random tools and turns, in every mode. The boundary checks hold
 * (boundary-checks.ts), and the abort is obeyed (abort-checks.ts).
 *
 * `pnpm fuzz --property agent-abort` runs many more cases.
 */
import fc from "fast-check";
import { describe } from "vitest";
import { expectAbortObeyed } from "./abort-checks.js";
import { expectBoundaryHeld } from "./boundary-checks.js";
import { property, settings } from "./fuzz-settings.js";
import { runScenario, scenario } from "./scenario.js";

describe("the agent boundary when the host aborts", () => {
  property(
    "agent-abort",
    "an abort at any point ends the run cleanly, and nothing runs after it",
    async (id) => {
      await fc.assert(
        fc.asyncProperty(scenario({ abort: true }), async (recipe) => {
          const outcome = await runScenario(recipe);
          expectBoundaryHeld(recipe, outcome);
          expectAbortObeyed(recipe, outcome);
        }),
        settings(id, 40),
      );
    },
  );
});
