/**
 * Property `agent-tools`: whatever the tools return or throw, the agent boundary holds, in every
 * mode. Tools return hostile values (cycles, throwing getters, revoked proxies, BigInts, Symbols,
 * functions, Dates, Maps, deep nesting, huge strings, sparse arrays, `__proto__` keys), throw or
 * reject with anything (non-Errors, Errors whose `message` getter throws), answer late or never
 * (under a tool timeout). The model's turns call those tools, natively and from programs, and use
 * their results (print, return, keep in memory).
 *
 * The checks are in boundary-checks.ts. `pnpm fuzz --property agent-tools` runs many more cases.
 */
import fc from "fast-check";
import { describe } from "vitest";
import { expectBoundaryHeld } from "./boundary-checks.js";
import { property, settings } from "./fuzz-settings.js";
import { runScenario, scenario } from "./scenario.js";

describe("the agent boundary under hostile tools", () => {
  property(
    "agent-tools",
    "run never rejects, hangs or leaks an error, and its step stays JSON",
    async (id) => {
      await fc.assert(
        fc.asyncProperty(scenario({ favourCalls: true }), async (recipe) => {
          expectBoundaryHeld(recipe, await runScenario(recipe));
        }),
        settings(id, 40),
      );
    },
  );
});
