/**
 * What a failing tool or model throws: Errors, and everything else JavaScript lets one throw
 * (strings, undefined, Symbols, revoked proxies, Errors whose `message` getter itself throws).
 * Generated as recipes, built per case (see hostile-value.ts for why).
 */
import fc from "fast-check";
import { buildValue, type ValueRecipe, valueRecipe } from "./hostile-value.js";

export type ThrownRecipe =
  | { readonly kind: "error"; readonly message: string; readonly status?: number }
  | { readonly kind: "error-empty-message" }
  /** An Error whose `message` is a getter that throws. */
  | { readonly kind: "error-throwing-message" }
  /** An Error whose `name` and `toString` throw. */
  | { readonly kind: "error-throwing-name" }
  | { readonly kind: "error-cyclic-cause" }
  | { readonly kind: "aggregate"; readonly messages: readonly string[] }
  /** Anything that is not an Error: a string, undefined, a Symbol, an object, a proxy... */
  | { readonly kind: "value"; readonly value: ValueRecipe };

/** What a model function or a tool throws: both are read by the same code (error-message.ts). */
export function thrownRecipe(): fc.Arbitrary<ThrownRecipe> {
  return fc.oneof(
    {
      weight: 3,
      arbitrary: fc.record(
        {
          kind: fc.constant("error" as const),
          message: fc.string({ maxLength: 20 }),
          status: fc.constantFrom(429, 500, 503, 400),
        },
        { requiredKeys: ["kind", "message"] },
      ),
    },
    { weight: 1, arbitrary: fc.constant({ kind: "error-empty-message" as const }) },
    { weight: 2, arbitrary: fc.constant({ kind: "error-throwing-message" as const }) },
    { weight: 1, arbitrary: fc.constant({ kind: "error-throwing-name" as const }) },
    { weight: 1, arbitrary: fc.constant({ kind: "error-cyclic-cause" as const }) },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant("aggregate" as const),
        messages: fc.array(fc.string({ maxLength: 6 }), { maxLength: 3 }),
      }),
    },
    // Thrown values never carry the secret: the metadata policy is about results, and an error
    // is shown to the model by design.
    {
      weight: 3,
      arbitrary: fc.record({
        kind: fc.constant("value" as const),
        value: valueRecipe({ secret: false }),
      }),
    },
  );
}

export function buildThrown(recipe: ThrownRecipe): unknown {
  switch (recipe.kind) {
    case "error":
      return recipe.status === undefined
        ? new Error(recipe.message)
        : Object.assign(new Error(recipe.message), { status: recipe.status });
    case "error-empty-message":
      return new Error("");
    case "error-throwing-message": {
      const error = new Error("placeholder");
      Object.defineProperty(error, "message", {
        get() {
          throw new Error("message getter trap");
        },
      });
      return error;
    }
    case "error-throwing-name": {
      const error = new Error("named");
      Object.defineProperty(error, "name", {
        get() {
          throw new Error("name getter trap");
        },
      });
      error.toString = () => {
        throw new Error("toString trap");
      };
      return error;
    }
    case "error-cyclic-cause": {
      const error = new Error("cyclic cause") as Error & { cause?: unknown };
      error.cause = error;
      return error;
    }
    case "aggregate":
      return new AggregateError(
        recipe.messages.map((message) => new Error(message)),
        "several failures",
      );
    case "value":
      return buildValue(recipe.value);
  }
}
