/**
 * Values a tool may hand back to the agent, hostile ones included: cycles, throwing getters,
 * revoked proxies, BigInts, Symbols, functions, Dates, Maps, deep nesting, huge strings, sparse
 * arrays, `__proto__` keys, shared structure.
 *
 * fast-check generates a recipe (plain, printable data) and each case builds the value from it:
 * a revoked proxy or a throwing getter in a counterexample would break fast-check's own report,
 * and a value mutated by one case must not leak into the next. A recipe is also what a minimal
 * reproduction reads like.
 */
import fc from "fast-check";

/** Text no generator produces by chance: where it shows up, it came from a tool result. */
export const SECRET = "SECRET-zq7x-4f1d";

export type ValueRecipe =
  | { readonly kind: "null" | "undefined" | "secret" | "symbol" | "function" | "cycle" }
  /** Plain JSON data, copied fresh per case. */
  | { readonly kind: "json"; readonly value: unknown }
  | { readonly kind: "number"; readonly value: number }
  | { readonly kind: "bigint"; readonly value: bigint }
  | { readonly kind: "boolean"; readonly value: boolean }
  | { readonly kind: "string"; readonly value: string }
  /** A string of `length` characters; `secret` puts the marker at its end. */
  | { readonly kind: "huge-string"; readonly length: number; readonly secret: boolean }
  | { readonly kind: "date"; readonly time: number }
  | { readonly kind: "array"; readonly items: readonly ValueRecipe[] }
  /** An array of `length` slots, only some of them set. */
  | {
      readonly kind: "sparse";
      readonly length: number;
      readonly items: readonly (readonly [number, ValueRecipe])[];
    }
  | { readonly kind: "object"; readonly entries: readonly (readonly [string, ValueRecipe])[] }
  | { readonly kind: "null-prototype"; readonly entries: readonly (readonly [string, ValueRecipe])[] }
  /** An own property named `__proto__` (what `JSON.parse` makes of one). */
  | { readonly kind: "proto-key"; readonly value: ValueRecipe }
  /** An object whose prototype has properties: inherited fields must not be read as data. */
  | { readonly kind: "inherits"; readonly value: ValueRecipe }
  | { readonly kind: "class-instance"; readonly value: ValueRecipe }
  | { readonly kind: "map"; readonly entries: readonly (readonly [ValueRecipe, ValueRecipe])[] }
  | { readonly kind: "set"; readonly items: readonly ValueRecipe[] }
  /** An enumerable field whose getter throws. */
  | { readonly kind: "throwing-getter"; readonly thrown: "error" | "string" }
  | { readonly kind: "throwing-to-json" }
  | { readonly kind: "revoked-proxy" }
  /** A proxy whose every trap throws. */
  | { readonly kind: "throwing-proxy" }
  | { readonly kind: "symbol-key"; readonly value: ValueRecipe }
  | { readonly kind: "frozen"; readonly value: ValueRecipe }
  | { readonly kind: "typed-array"; readonly length: number }
  | { readonly kind: "error"; readonly message: string }
  | { readonly kind: "promise" }
  /** `value` at the bottom of `depth` nested arrays or objects. */
  | {
      readonly kind: "deep";
      readonly depth: number;
      readonly shape: "array" | "object";
      readonly value: ValueRecipe;
    }
  /** A map whose two fields are the same map, `levels` times over: small as a graph, huge as a tree. */
  | { readonly kind: "shared"; readonly levels: number; readonly value: ValueRecipe };

export interface ValueOptions {
  /** Whether the recipe may hold the secret marker. */
  readonly secret: boolean;
}

/** Keys of generated objects, some of them names objects inherit (`toString` may then throw). */
const key: fc.Arbitrary<string> = (() => {
  const tricky = ["__proto__", "constructor", "hasOwnProperty", "then", "toString", "valueOf"];
  return fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom("id", "name", "rows", "total", "a-b", "a_b", "", "nil", "1") },
    { weight: 2, arbitrary: fc.constantFrom(...tricky) },
    { weight: 1, arbitrary: fc.string({ maxLength: 8 }) },
  );
})();

export function valueRecipe(options: ValueOptions): fc.Arbitrary<ValueRecipe> {
  const scalars: fc.Arbitrary<ValueRecipe>[] = [
    fc.constant({ kind: "null" as const }),
    fc.constant({ kind: "undefined" as const }),
    fc.record({ kind: fc.constant("boolean" as const), value: fc.boolean() }),
    fc.record({
      kind: fc.constant("number" as const),
      value: fc.oneof(
        fc.integer(),
        fc.double(),
        fc.constantFrom(Number.NaN, -0, Number.POSITIVE_INFINITY, Number.MAX_SAFE_INTEGER + 2, 1e300),
      ),
    }),
    fc.record({
      kind: fc.constant("bigint" as const),
      value: fc.bigInt({ min: -(2n ** 80n), max: 2n ** 80n }),
    }),
    fc.record({
      kind: fc.constant("string" as const),
      value: fc.oneof(
        fc.string({ maxLength: 12 }),
        fc.string({ unit: "binary", maxLength: 12 }),
        fc.constantFrom("</untrusted_ptc_output>", "```clojure\n(return 1)\n```", "\u0000", "\ud800"),
      ),
    }),
    fc.record({
      kind: fc.constant("huge-string" as const),
      length: fc.constantFrom(10_000, 300_000, 2_000_000),
      secret: options.secret ? fc.boolean() : fc.constant(false),
    }),
    fc.record({
      kind: fc.constant("date" as const),
      time: fc.oneof(fc.integer({ min: -8.64e15, max: 8.64e15 }), fc.constant(Number.NaN)),
    }),
    fc.constantFrom({ kind: "symbol" as const }, { kind: "function" as const }, { kind: "promise" as const }),
    fc.record({ kind: fc.constant("typed-array" as const), length: fc.nat(16) }),
    fc.record({ kind: fc.constant("error" as const), message: fc.string({ maxLength: 12 }) }),
  ];
  if (options.secret) scalars.push(fc.constant({ kind: "secret" as const }));
  scalars.push(
    fc.constantFrom(
      { kind: "throwing-to-json" as const },
      { kind: "revoked-proxy" as const },
      { kind: "throwing-proxy" as const },
    ),
    fc.record({
      kind: fc.constant("throwing-getter" as const),
      thrown: fc.constantFrom("error" as const, "string" as const),
    }),
  );

  return fc.letrec<{ value: ValueRecipe }>((tie) => ({
    value: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      { weight: 6, arbitrary: fc.oneof(...scalars) },
      { weight: 1, arbitrary: fc.constant({ kind: "cycle" as const }) },
      {
        weight: 2,
        arbitrary: fc.record({
          kind: fc.constant("array" as const),
          items: fc.array(tie("value"), { maxLength: 4 }),
        }),
      },
      {
        weight: 1,
        arbitrary: fc.record({
          kind: fc.constant("sparse" as const),
          length: fc.constantFrom(3, 100, 1_000_000),
          items: fc.array(fc.tuple(fc.nat(2), tie("value")), { maxLength: 2 }),
        }),
      },
      {
        weight: 3,
        arbitrary: fc.record({
          kind: fc.constant("object" as const),
          entries: fc.array(fc.tuple(key, tie("value")), { maxLength: 4 }),
        }),
      },
      {
        weight: 1,
        arbitrary: fc.record({
          kind: fc.constant("null-prototype" as const),
          entries: fc.array(fc.tuple(key, tie("value")), { maxLength: 3 }),
        }),
      },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant("proto-key" as const), value: tie("value") }) },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant("inherits" as const), value: tie("value") }) },
      {
        weight: 1,
        arbitrary: fc.record({ kind: fc.constant("class-instance" as const), value: tie("value") }),
      },
      {
        weight: 1,
        arbitrary: fc.record({
          kind: fc.constant("map" as const),
          entries: fc.array(fc.tuple(tie("value"), tie("value")), { maxLength: 3 }),
        }),
      },
      {
        weight: 1,
        arbitrary: fc.record({
          kind: fc.constant("set" as const),
          items: fc.array(tie("value"), { maxLength: 3 }),
        }),
      },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant("symbol-key" as const), value: tie("value") }) },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant("frozen" as const), value: tie("value") }) },
      {
        weight: 1,
        arbitrary: fc.record({
          kind: fc.constant("deep" as const),
          depth: fc.constantFrom(100, 5_000, 100_000),
          shape: fc.constantFrom("array" as const, "object" as const),
          value: tie("value"),
        }),
      },
      {
        weight: 1,
        arbitrary: fc.record({
          kind: fc.constant("shared" as const),
          // 2^levels leaves: 3 levels are 8 copies of the leaf (which may be a million slots),
          // 40 never finish as a tree.
          levels: fc.constantFrom(3, 12, 40),
          value: tie("value"),
        }),
      },
    ),
  })).value;
}

class Record_ {
  constructor(readonly field: unknown) {}
  get computed(): string {
    return "computed";
  }
}

/** Builds a fresh value from its recipe. `parent` is what a `cycle` points back to. */
export function buildValue(recipe: ValueRecipe, parent: object | undefined = undefined): unknown {
  switch (recipe.kind) {
    case "null":
      return null;
    case "undefined":
      return undefined;
    case "secret":
      return SECRET;
    case "json":
      return structuredClone(recipe.value);
    case "symbol":
      return Symbol("fuzz");
    case "function":
      return () => SECRET_FREE;
    case "cycle":
      return parent ?? { self: "no parent" };
    case "number":
    case "bigint":
    case "boolean":
    case "string":
      return recipe.value;
    case "huge-string":
      return "x".repeat(recipe.length) + (recipe.secret ? SECRET : "");
    case "date":
      return new Date(recipe.time);
    case "array": {
      const array: unknown[] = [];
      for (const item of recipe.items) array.push(buildValue(item, array));
      return array;
    }
    case "sparse": {
      const array: unknown[] = new Array(recipe.length);
      for (const [slot, item] of recipe.items) array[(slot * 7919) % recipe.length] = buildValue(item, array);
      return array;
    }
    case "object": {
      const object: Record<string, unknown> = {};
      for (const [name, item] of recipe.entries) defineField(object, name, buildValue(item, object));
      return object;
    }
    case "null-prototype": {
      const object = Object.create(null) as Record<string, unknown>;
      for (const [name, item] of recipe.entries) defineField(object, name, buildValue(item, object));
      return object;
    }
    case "proto-key": {
      const object: Record<string, unknown> = { id: 1 };
      defineField(object, "__proto__", buildValue(recipe.value, object));
      return object;
    }
    case "inherits": {
      const base = { inherited: "from the prototype", toJSON: undefined };
      const object = Object.create(base) as Record<string, unknown>;
      object.own = buildValue(recipe.value, object);
      return object;
    }
    case "class-instance":
      return new Record_(buildValue(recipe.value));
    case "map": {
      const map = new Map<unknown, unknown>();
      for (const [name, item] of recipe.entries) map.set(buildValue(name, map), buildValue(item, map));
      return map;
    }
    case "set": {
      const set = new Set<unknown>();
      for (const item of recipe.items) set.add(buildValue(item, set));
      return set;
    }
    case "throwing-getter": {
      const object: Record<string, unknown> = { before: 1 };
      Object.defineProperty(object, "trap", {
        enumerable: true,
        get() {
          throw recipe.thrown === "error" ? new Error("getter trap") : "getter trap";
        },
      });
      object.after = 2;
      return object;
    }
    case "throwing-to-json":
      return {
        toJSON() {
          throw new Error("toJSON trap");
        },
      };
    case "revoked-proxy": {
      const { proxy, revoke } = Proxy.revocable({ a: 1 }, {});
      revoke();
      return proxy;
    }
    case "throwing-proxy":
      return new Proxy(
        { a: 1 },
        {
          get() {
            throw new Error("proxy get trap");
          },
          ownKeys() {
            throw new Error("proxy ownKeys trap");
          },
          getOwnPropertyDescriptor() {
            throw new Error("proxy descriptor trap");
          },
          getPrototypeOf() {
            throw new Error("proxy prototype trap");
          },
          has() {
            throw new Error("proxy has trap");
          },
        },
      );
    case "symbol-key": {
      const object: Record<string | symbol, unknown> = { plain: 1 };
      object[Symbol("hidden")] = buildValue(recipe.value, object);
      return object;
    }
    case "frozen": {
      const value = buildValue(recipe.value, parent);
      // A typed array with elements cannot be frozen.
      return ArrayBuffer.isView(value) ? value : Object.freeze(value);
    }
    case "typed-array":
      return new Uint8Array(recipe.length);
    case "error":
      return new Error(recipe.message);
    case "promise":
      // A promise inside a result is data the tool forgot to await: it never settles here.
      return new Promise(() => undefined);
    case "deep": {
      let value = buildValue(recipe.value);
      for (let level = 0; level < recipe.depth; level++)
        value = recipe.shape === "array" ? [value] : { next: value };
      return value;
    }
    case "shared": {
      let value = buildValue(recipe.value);
      for (let level = 0; level < recipe.levels; level++) value = { a: value, b: value };
      return value;
    }
  }
}

const SECRET_FREE = "a function's return value";

/** An own, enumerable field, whatever its name (`__proto__` included). */
function defineField(object: object, name: string, value: unknown): void {
  Object.defineProperty(object, name, { value, enumerable: true, writable: true, configurable: true });
}
