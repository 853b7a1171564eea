/**
 * Builtins the analyzer targets but programs do not name directly: `tool/x` used as a value, and
 * Java-style method and constructor calls (`(.indexOf s "x")`, `(java.util.Date.)`), whose
 * implementations live in the interop family and register themselves here.
 */
import { LispError } from "../errors.js";
import { quotedName } from "../quoted-text.js";
import { active } from "../runtime/context.js";
import { typeName } from "../runtime/describe.js";
import { callTool } from "../runtime/tools.js";
import { brandFunction } from "../values/lisp-function.js";
import { Regex } from "../values/regex.js";
import { type BuiltinDefinition, builtin } from "./definition.js";

export type MethodImplementation = (receiver: unknown, args: readonly unknown[]) => unknown;
export type ConstructorImplementation = (args: readonly unknown[]) => unknown;

const methods = new Map<string, MethodImplementation>();
const constructors = new Map<string, ConstructorImplementation>();

/** Registers a Java-style method (name with its leading dot, e.g. ".indexOf"). */
export function defineMethod(name: string, implementation: MethodImplementation): void {
  methods.set(name, implementation);
}

/** Registers a Java-style constructor (class name without the trailing dot, e.g. "java.util.Date"). */
export function defineConstructor(name: string, implementation: ConstructorImplementation): void {
  constructors.set(name, implementation);
}

function invokeMethod(name: unknown, receiver: unknown, ...args: unknown[]): unknown {
  const method = methods.get(String(name));
  if (method === undefined) {
    const supported = [...methods.keys()].sort().join(", ");
    throw new LispError(
      "unsupported_method",
      `Unsupported method '${quotedName(String(name))}'. Supported interop methods: ${supported === "" ? "(none)" : supported}`,
    );
  }
  return method(receiver, args);
}

function invokeConstructor(name: unknown, ...args: unknown[]): unknown {
  const implementation = constructors.get(String(name));
  if (implementation === undefined) {
    const supported = [...constructors.keys()]
      .map((key) => `(${key}.)`)
      .sort()
      .join(", ");
    throw new LispError(
      "unsupported_method",
      `Unsupported constructor '${quotedName(String(name))}.'. Supported: ${supported === "" ? "(none)" : supported}`,
    );
  }
  return implementation(args);
}

function toolCallable(name: unknown): unknown {
  const toolName = String(name);
  return brandFunction(
    (...args: unknown[]) => {
      if (args.length > 1) {
        throw new LispError(
          "invalid_tool_args",
          `Tool calls require named arguments. Use (tool/${toolName} {:key value}), not positional args`,
        );
      }
      return callTool(toolName, args[0], { line: 0, column: 0 });
    },
    { name: `tool/${toolName}`, signature: "args", builtin: false, minArity: 0, maxArity: 1 },
  );
}

function rePattern(source: unknown): Regex {
  if (source instanceof Regex) return source;
  if (typeof source !== "string")
    throw new LispError("type_error", `re-pattern expects a string, got ${typeName(source)}`);
  active.work(source.length);
  return Regex.compile(source);
}

const CATEGORY = "Internal";

export const internalBuiltins: BuiltinDefinition[] = [
  builtin(
    "tool-callable",
    [1, 1],
    ["[name]"],
    "The tool named `name` as a function value (what tool/name means outside call position).",
    CATEGORY,
    toolCallable,
  ),
  builtin(
    "invoke-method",
    [2, Infinity],
    ["[name receiver & args]"],
    "Runs a Java-style method call (.method receiver args).",
    CATEGORY,
    invokeMethod,
  ),
  builtin(
    "invoke-constructor",
    [1, Infinity],
    ["[class & args]"],
    "Runs a Java-style constructor call (Class. args).",
    CATEGORY,
    invokeConstructor,
  ),
  builtin(
    "re-pattern",
    [1, 1],
    ["[s]"],
    "Compiles a regex (RE2 syntax, linear-time matching).",
    "Regex",
    rePattern,
    [['(re-pattern "\\\\d+")', '#"\\d+"']],
  ),
];
