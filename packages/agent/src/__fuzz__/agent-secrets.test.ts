/**
 * Property `agent-secrets`: in combined mode, tools under the metadata preview policy return
 * values that hold a secret marker (in strings, huge strings, nested anywhere but in keys), among
 * tools that never do; the model calls them natively and from programs, at random. The marker
 * reaches the model only through a program's answer (secret-checks.ts), and the boundary checks
 * hold (boundary-checks.ts).
 *
 * `pnpm fuzz --property agent-secrets` runs many more cases.
 */
import fc from "fast-check";
import { describe } from "vitest";
import { expectBoundaryHeld } from "./boundary-checks.js";
import { property, settings } from "./fuzz-settings.js";
import { runScenario, scenario } from "./scenario.js";
import { expectSecretKept } from "./secret-checks.js";

describe("the metadata policy keeps tool values from the model", () => {
  property(
    "agent-secrets",
    "a value under the metadata policy reaches the model only through a program",
    async (id) => {
      await fc.assert(
        fc.asyncProperty(scenario({ secret: true, modes: ["combined"] }), async (recipe) => {
          const outcome = await runScenario(recipe);
          expectBoundaryHeld(recipe, outcome);
          expectSecretKept(outcome.requests);
        }),
        settings(id, 40),
      );
    },
  );
});
