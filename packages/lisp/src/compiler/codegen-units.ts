/**
 * Generated source into running code: the factory cache (one `new Function` per distinct text,
 * so a program run again keeps the code V8 optimized), and a unit's entry, which runs the
 * generated code in pure mode and falls back to the general evaluator on an effect or an error.
 */
import type { Node } from "../analyzer/ast.js";
import { environmentVariable } from "../environment.js";
import type { Code } from "./code.js";
import { type CodegenEnvironment, Generator } from "./codegen.js";
import { type CodegenRuntime, codegenRuntime } from "./codegen-runtime.js";
import { fastTierStats, GenerationGap } from "./fast-tier.js";
import { RESUME_AGAIN } from "./resume-nodes.js";

type Factory = (runtime: CodegenRuntime, constants: unknown[]) => Code;

/**
 * Factories by source text. The same program compiles to the same text (its values live in K), so
 * running it again reuses the factory, and with it the machine code V8 already optimized for it:
 * a new `new Function` would start cold every time.
 */
const factories = new Map<string, Factory>();
const MAX_FACTORIES = 512;

function factoryFor(source: string): Factory {
  let factory = factories.get(source);
  if (factory === undefined) {
    // A debugging aid for work on the generator (docs/contributing-special-forms.md).
    if (environmentVariable("PTC_LISP_DUMP_CODEGEN") === "1") console.error(source);
    try {
      factory = new Function("$", "K", source) as Factory;
    } catch (error) {
      // Source that does not parse is a generator bug: the unit runs on the general evaluator.
      throw new GenerationGap(`generated source does not parse: ${String(error)}`, { cause: error });
    }
    if (factories.size >= MAX_FACTORIES) factories.delete(factories.keys().next().value as string);
    factories.set(source, factory);
  } else {
    // Keep recently used factories: move to the end of the eviction order.
    factories.delete(source);
    factories.set(source, factory);
  }
  return factory;
}

/** The JS source the fast tier generates for a node (for tests and inspection). */
export function generateUnitSource(node: Node, builtin: CodegenEnvironment["builtin"]): string {
  const environment: CodegenEnvironment = {
    builtin,
    slowFunction: () => () => {
      throw new Error("not for running");
    },
  };
  return new Generator(environment).unitSource(node).source;
}

interface CompiledUnit {
  readonly fast: Code;
}

/**
 * Compiles a pure node to a fast unit with the general evaluator's code (`compileSlow`) as its
 * fallback.
 * The returned code runs fast in pure mode, and falls back (and after a few fallbacks, stays on
 * the general evaluator) when the unit meets an effect.
 */
export function compileUnit(node: Node, compileSlow: () => Code, environment: CodegenEnvironment): Code {
  const generator = new Generator(environment);
  const { source, constants, chunked } = generator.unitSource(node);
  const fast = factoryFor(source)(codegenRuntime, constants);
  fastTierStats.unitsGenerated++;
  // The general version is compiled only if this unit ever needs it.
  let slowCode: Code | undefined;
  const slow: Code = (frame) => {
    slowCode ??= compileSlow();
    return slowCode(frame);
  };
  const { P: pure } = codegenRuntime;
  let fallbacks = 0;
  const enter: Code = (frame) => {
    if (fallbacks > 3) {
      fastTierStats.effectFallbacks++;
      return slow(frame);
    }
    const wasPure = pure.on;
    pure.on = true;
    const context = codegenRuntime.ctx();
    const { depth, iterations, memory, copied, loopCheckAt } = context;
    try {
      const value = fast(frame);
      if (value !== RESUME_AGAIN) fastTierStats.fastRuns++;
      return value;
    } catch (error) {
      if (wasPure || !codegenRuntime.rerun(error)) throw error;
      // Closures unwound by the throw left the depth count raised (closures.ts), and the work
      // done so far is done again below: the meters go back to where the unit started.
      context.depth = depth;
      context.rewind(iterations, memory, copied, loopCheckAt);
      if (error === codegenRuntime.NOT_PURE) fallbacks++;
      pure.on = false;
      return slow(frame);
    } finally {
      pure.on = wasPure;
    }
  };
  if (!chunked) return enter;
  // A resumed loop hands back every RESUME_CHUNK jumps with its state in the frame's raw slots
  // (resume-nodes.ts): each entry starts from there, with its own meters to rewind on a fallback,
  // and the general evaluator (the fallback) continues from there too.
  return (frame) => {
    let value: unknown;
    do value = enter(frame);
    while (value === RESUME_AGAIN);
    return value;
  };
}

export type { CompiledUnit };
