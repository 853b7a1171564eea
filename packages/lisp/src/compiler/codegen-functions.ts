/**
 * The JavaScript text of a generated function (codegen.ts, `Generator.fn`) and of a call that may
 * be the function calling itself. The generator decides the names and writes the body's lines;
 * these templates put them together. Like every template of the fast tier they are fixed text
 * around names the generator made (a prefix and a number) and constant indexes: nothing from the
 * program reaches them as text (see codegen.ts, "Safety").
 */

/** What the body of a generated function needs to call itself without its entry. */
export interface SelfEntry {
  /** The JS name of the branded function value. */
  readonly value: string;
  /** The JS name of its body: `(ctx, ...params)`, counting depth and fuel, no try/catch. */
  readonly body: string;
  readonly context: string;
  readonly arity: number;
  /**
   * Per var through which the body calls a function, the JS name of a flag: "this var holds the
   * function being written (or its general twin)", set at the first such call and cleared by
   * every entry. Vars change only through `def`, an effect pure mode forbids, so while any entry
   * runs, a var found to hold the function still holds it, and later calls skip the var's read
   * and the identity test (about 40% of a fresh recursive call's cost in V8's interpreter).
   */
  readonly selfVars: Map<string, string>;
  /**
   * The lines of the helpers that read a var and call what it holds (`varCallHelperLines`), one
   * per call site, declared next to the body: out of the body, the var's read and the identity
   * test cost the body neither bytecode nor, once the flag is set, any step per call.
   */
  readonly helpers: string[];
}

/** The names and pieces `Generator.fn` has made for one function. */
export interface FunctionParts {
  /** The JS name of the function value; its body is `${functionName}_body`. */
  readonly functionName: string;
  /** `a0`, `a1`, ...: the fixed parameters. */
  readonly params: readonly string[];
  /** Whether the function takes the rest of its arguments as `rest`. */
  readonly variadic: boolean;
  /** The name of the run context inside the function, and of its result. */
  readonly context: string;
  readonly result: string;
  /** The raw slots' declarations, the loop label of `recur` and the lines of the loop's body. */
  readonly rawInit: readonly string[];
  readonly label: string;
  /**
   * Whether a `recur` of the function jumps back to its label: only then is the body a loop.
   * Otherwise it is a labeled block (its results leave it by `break`), which V8 runs without a
   * loop's back edge and interrupt check.
   */
  readonly loops: boolean;
  readonly body: readonly string[];
  /** Helper lines declared before the body (SelfEntry.helpers). */
  readonly helpers: readonly string[];
  /** The flags of calls through vars (SelfEntry.selfVars), cleared by every entry. */
  readonly flags: readonly string[];
  /** Expressions naming constants: the function's info, its position, its general twin's maker. */
  readonly info: string;
  readonly position: string;
  readonly slow: string;
  /** The JS names of the values the function captures, in the order its general twin takes them. */
  readonly captured: readonly string[];
}

/**
 * The lines that declare the function's body: depth, fuel and the loop of `recur`, entered by the
 * function's entry and directly by the body's own calls of the same function, which need no entry
 * of their own.
 */
export function functionBodyLines(parts: FunctionParts): string[] {
  const { context, result } = parts;
  const paramList = [...parts.params, ...(parts.variadic ? ["rest"] : [])].join(", ");
  const lines: string[] = [];
  if (parts.flags.length > 0) lines.push(`let ${parts.flags.map((flag) => `${flag} = false`).join(", ")};`);
  lines.push(...parts.helpers);
  const body = parts.loops
    ? [`${parts.label}: while (true) {`, ...parts.body, `break ${parts.label};`, "}"]
    : [`${parts.label}: {`, ...parts.body, "}"];
  lines.push(
    `const ${parts.functionName}_body = function (${[context, paramList].filter((part) => part !== "").join(", ")}) {`,
    // One test on the way in, its rare halves out of line ($.gate): past the depth limit the
    // fuel is not spent, as the error ends the call anyway.
    `if (++${context}.depth > ${context}.limits.maxDepth || --${context}.fuel <= 0) $.gate(${context}, ${parts.position});`,
    `let ${result};`,
    ...parts.rawInit,
    ...body,
    `${context}.depth--;`,
    `return ${result};`,
    "};",
  );
  return lines;
}

/**
 * The expression of the function value: it checks the arity, enters pure mode, calls the body,
 * and when the body meets an effect, puts the meters back and runs the call again on the general
 * evaluator (codegen-runtime.ts, `deopt`).
 */
export function functionEntrySource(parts: FunctionParts): string {
  const { context, result, params, variadic } = parts;
  const restParam = variadic ? (params.length > 0 ? ", ...rest" : "...rest") : "";
  const arityTest = variadic
    ? `arguments.length < ${params.length}`
    : `arguments.length !== ${params.length}`;
  const lines = [
    `$.fn(function ${parts.functionName}(${params.join(", ")}${restParam}) {`,
    `if (${arityTest}) throw $.arity(${parts.info}, arguments.length);`,
    `const ${context} = $.ctx();`,
    "$.stats.functionEntries++;",
    // Saved, not decremented, on the way out of a throw: closures of the general evaluator
    // unwound by the same throw leave the count raised (closures.ts).
    `const depth = ${context}.depth;`,
    // The meters at entry, put back before the call runs again on the general evaluator.
    `const mark_i = ${context}.iterations, mark_m = ${context}.memory, mark_c = ${context}.copied, mark_a = ${context}.loopCheckAt;`,
    "const wasPure = P.on;",
    "P.on = true;",
    // A new entry: what the flags say was found before may have changed since (a def).
    ...parts.flags.map((flag) => `${flag} = false;`),
    `let ${result};`,
    "try {",
    `${result} = ${parts.functionName}_body(${[context, ...params, ...(variadic ? ["rest"] : [])].join(", ")});`,
    "} catch (error) {",
    "P.on = wasPure;",
    `${context}.depth = depth;`,
    "if (wasPure || !$.rerun(error)) throw error;",
    `${context}.rewind(mark_i, mark_m, mark_c, mark_a);`,
    `return $.deopt(${parts.slow}, [${parts.captured.join(", ")}], [${[...params, ...(variadic ? ["...rest"] : [])].join(", ")}]);`,
    "}",
    "P.on = wasPure;",
    `return ${result};`,
    // What it captured, for hosts that measure what a program left behind (values/captured-values.ts).
    parts.captured.length > 0 ? `}, ${parts.info}, [${parts.captured.join(", ")}])` : `}, ${parts.info})`,
  ];
  return lines.join("\n");
}

/**
 * A call, through a var, that may be the function calling itself: the body directly once `flag`
 * says the var holds the function, otherwise `helper` (varCallHelperLines), which reads the var.
 * Vars do not change in pure mode and reading one has no effect, so the read may come after the
 * arguments are evaluated; an unbound var's error is raised again with its position by the
 * general evaluator, as every error of generated code is.
 */
export function selfCallExpression(
  self: SelfEntry,
  flag: string,
  helper: string,
  args: readonly string[],
): string {
  const list = [self.context, ...args].join(", ");
  return `${flag} ? ${self.body}(${list}) : ${helper}(${list})`;
}

/**
 * The helper of one call site through a var (selfCallExpression): `read` assigns the var's value
 * to `fn`; the body is called directly if that is the function or its general twin, and `flag`
 * then stands for that finding; anything else is called as any value is.
 */
export function varCallHelperLines(
  self: SelfEntry,
  flag: string,
  helper: string,
  fn: string,
  params: readonly string[],
  read: readonly string[],
): string[] {
  const list = params.join(", ");
  const same = `${fn} === ${self.value} || (typeof ${fn} === "function" && ${fn}[$.TWIN] === ${self.value})`;
  const body = `${self.body}(${[self.context, ...params].join(", ")})`;
  const generic = `typeof ${fn} === "function" && ${fn}[INFO]?.builtin === false ? ${fn}(${list}) : $.callN(${fn}, [${list}])`;
  return [
    `const ${helper} = function (${[self.context, ...params].join(", ")}) {`,
    `let ${fn};`,
    ...read,
    `return ${same} ? ((${flag} = true), ${body}) : ${generic};`,
    "};",
  ];
}
