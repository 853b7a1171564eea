/**
 * Macros that rewrite forms into other forms before analysis: when/when-not/if-not, cond, condp,
 * if-let/when-let/if-some/when-some/when-first, and the threading family. Each rewrite keeps the
 * original form's position, so errors inside the expansion still point at the user's code.
 */
import { LispError } from "../errors.js";
import { type CollectionForm, describeForm, type Form, isSymbol, type Position } from "../reader/form.js";

/**
 * Prefix of the names expansions use for special forms and core functions: NUL can never appear in
 * a program's symbols, so a program that binds a local named `if` or `first` cannot capture them.
 */
export const CORE_PREFIX = "\u0000";

function at(position: Position) {
  return {
    sym: (name: string): Form => ({ type: "symbol", name, line: position.line, column: position.column }),
    core: (name: string): Form => ({
      type: "symbol",
      name: CORE_PREFIX + name,
      line: position.line,
      column: position.column,
    }),
    list: (...items: Form[]): Form => ({ type: "list", items, line: position.line, column: position.column }),
    vector: (...items: Form[]): Form => ({
      type: "vector",
      items,
      line: position.line,
      column: position.column,
    }),
    nil: (): Form => ({ type: "nil", line: position.line, column: position.column }),
  };
}

let gensymCounter = 0;
/** A name no program can write (it contains a space), for temporaries introduced by expansions. */
function gensym(prefix: string): string {
  return `${prefix} ${++gensymCounter}`;
}

/**
 * Numbers temporaries from 1 again, for the next program: such a name can surface in an error
 * message (a `cond->` clause that threads into a bad form), and a program must give the same
 * message every time it runs. Temporaries are local bindings, so one program's cannot meet another's.
 */
export function restartGensyms(): void {
  gensymCounter = 0;
}

export type MacroExpander = (args: readonly Form[], form: CollectionForm) => Form;

const arityError = (message: string, position: Position) => new LispError("invalid_arity", message, position);

function bodyOf(forms: readonly Form[], position: Position): Form {
  const b = at(position);
  if (forms.length === 1) return forms[0] as Form;
  return b.list(b.core("do"), ...forms);
}

/** `[name expr]` of if-let and friends: exactly one pair, and (except if-let) a plain symbol. */
function singleBinding(
  name: string,
  args: readonly Form[],
  usage: string,
  position: Position,
  allowPattern: boolean,
) {
  const bindings = args[0];
  if (bindings === undefined || bindings.type !== "vector") throw arityError(`expected ${usage}`, position);
  if (bindings.items.length !== 2) {
    throw new LispError("invalid_form", `${name} requires exactly one binding pair [name expr]`, bindings);
  }
  const target = bindings.items[0] as Form;
  if (!allowPattern && target.type !== "symbol") {
    throw new LispError(
      "invalid_form",
      `${name}: binding must be a simple symbol, not a destructuring pattern`,
      target,
    );
  }
  return { target, init: bindings.items[1] as Form };
}

const when: MacroExpander = (args, form) => {
  if (args.length < 1) throw arityError("expected (when cond body ...)", form);
  const b = at(form);
  return b.list(b.core("if"), args[0] as Form, bodyOf(args.slice(1), form), b.nil());
};

const whenNot: MacroExpander = (args, form) => {
  if (args.length < 1) throw arityError("expected (when-not cond body ...)", form);
  const b = at(form);
  return b.list(b.core("if"), args[0] as Form, b.nil(), bodyOf(args.slice(1), form));
};

const ifNot: MacroExpander = (args, form) => {
  if (args.length < 2 || args.length > 3) throw arityError("expected (if-not cond then else?)", form);
  const b = at(form);
  return b.list(b.core("if"), args[0] as Form, args[2] ?? b.nil(), args[1] as Form);
};

const cond: MacroExpander = (args, form) => {
  if (args.length === 0)
    throw new LispError("invalid_cond_form", "cond requires at least one test/result pair", form);
  if (args.length % 2 !== 0) {
    throw new LispError(
      "invalid_cond_form",
      `cond requires even number of test/result forms; the last test ${describeForm(args[args.length - 1] as Form)} has no result (write :else value for a default)`,
      form,
    );
  }
  const b = at(form);
  let result: Form = b.nil();
  for (let i = args.length - 2; i >= 0; i -= 2) {
    result = b.list(b.core("if"), args[i] as Form, args[i + 1] as Form, result);
  }
  return result;
};

const condp: MacroExpander = (args, form) => {
  if (args.length < 3) {
    throw new LispError(
      "invalid_form",
      "condp requires a predicate, an expression, and at least one clause",
      form,
    );
  }
  const b = at(form);
  const predName = gensym("pred");
  const valueName = gensym("value");
  const clauses = args.slice(2);
  let result: Form = clauses.length % 2 === 1 ? (clauses[clauses.length - 1] as Form) : b.nil();
  const pairs = clauses.length - (clauses.length % 2);
  for (let i = pairs - 2; i >= 0; i -= 2) {
    const test = clauses[i] as Form;
    const then = clauses[i + 1] as Form;
    if (then.type === "keyword" && then.name === ">>") {
      throw new LispError("invalid_form", "condp :>> result-fn form is not supported in PTC-Lisp", then);
    }
    result = b.list(b.core("if"), b.list(b.sym(predName), test, b.sym(valueName)), then, result);
  }
  return b.list(
    b.core("let"),
    b.vector(b.sym(predName), args[0] as Form, b.sym(valueName), args[1] as Form),
    result,
  );
};

// Clojure's if-let and if-some take an optional else (nil when it is missing), and the language
// reference documents it so; ptc_runner v0.11.0 refuses the two-branch form (docs/differences.md).
const ifLet: MacroExpander = (args, form) => {
  if (args.length < 2 || args.length > 3) {
    if (args[0]?.type === "vector" && args[0].items.length !== 2)
      singleBinding("if-let", args, "(if-let [name expr] then else?)", form, false);
    throw arityError("expected (if-let [name expr] then else?)", form);
  }
  const { target, init } = singleBinding("if-let", args, "(if-let [name expr] then else?)", form, false);
  const b = at(form);
  const temp = gensym("test");
  return b.list(
    b.core("let"),
    b.vector(b.sym(temp), init),
    b.list(
      b.core("if"),
      b.sym(temp),
      b.list(b.core("let"), b.vector(target, b.sym(temp)), args[1] as Form),
      args[2] ?? b.nil(),
    ),
  );
};

const whenLet: MacroExpander = (args, form) => {
  if (args.length < 2) {
    if (args.length === 1) singleBinding("when-let", args, "(when-let [name expr] body ...)", form, false);
    throw arityError("expected (when-let [name expr] body ...)", form);
  }
  const { target, init } = singleBinding("when-let", args, "(when-let [name expr] body ...)", form, false);
  const b = at(form);
  const temp = gensym("test");
  return b.list(
    b.core("let"),
    b.vector(b.sym(temp), init),
    b.list(
      b.core("if"),
      b.sym(temp),
      b.list(b.core("let"), b.vector(target, b.sym(temp)), ...args.slice(1)),
      b.nil(),
    ),
  );
};

/**
 * if-some and when-some: bind the value only when it is not nil (false still binds).
 * `optionalElse`: if-some takes a binding, then and an optional else; when-some a binding and any body.
 */
function someBinding(name: "if-some" | "when-some", usage: string, optionalElse: boolean): MacroExpander {
  return (args, form) => {
    if (args.length < 2 || (optionalElse && args.length > 3)) {
      if (args[0]?.type === "vector" && args[0].items.length !== 2)
        singleBinding(name, args, usage, form, false);
      throw arityError(`expected ${usage}`, form);
    }
    const { target, init } = singleBinding(name, args, usage, form, false);
    const b = at(form);
    const temp = gensym("test");
    const body = optionalElse ? [args[1] as Form] : args.slice(1);
    const otherwise = optionalElse ? (args[2] ?? b.nil()) : b.nil();
    return b.list(
      b.core("let"),
      b.vector(b.sym(temp), init),
      b.list(
        b.core("if"),
        b.list(b.core("nil?"), b.sym(temp)),
        otherwise,
        b.list(b.core("let"), b.vector(target, b.sym(temp)), ...body),
      ),
    );
  };
}

const ifSome = someBinding("if-some", "(if-some [name expr] then else?)", true);
const whenSome = someBinding("when-some", "(when-some [name expr] body ...)", false);

const whenFirst: MacroExpander = (args, form) => {
  const usage = "(when-first [name expr] body ...)";
  if (args.length < 2) {
    if (args[0]?.type === "vector" && args[0].items.length !== 2)
      singleBinding("when-first", args, usage, form, true);
    throw arityError(`expected ${usage}`, form);
  }
  const { target, init } = singleBinding("when-first", args, usage, form, true);
  const b = at(form);
  const temp = gensym("coll");
  return b.list(
    b.core("let"),
    b.vector(b.sym(temp), b.list(b.core("seq"), init)),
    b.list(
      b.core("if"),
      b.sym(temp),
      b.list(b.core("let"), b.vector(target, b.list(b.core("first"), b.sym(temp))), ...args.slice(1)),
      b.nil(),
    ),
  );
};

/** One threading step: `(f a)` becomes `(f x a)` or `(f a x)`; a bare `f` or `:k` becomes `(f x)`. */
function threadStep(step: Form, value: Form, last: boolean): Form {
  if (step.type === "list" && step.items.length > 0) {
    const [head, ...rest] = step.items as [Form, ...Form[]];
    const items = last ? [head, ...rest, value] : [head, value, ...rest];
    return { ...step, items };
  }
  if (step.type === "fn-literal")
    return { type: "list", items: [step, value], line: step.line, column: step.column };
  return { type: "list", items: [step, value], line: step.line, column: step.column };
}

function threading(name: string, last: boolean): MacroExpander {
  return (args, form) => {
    if (args.length === 0)
      throw new LispError("invalid_thread_form", `${name} requires at least one expression`, form);
    let value = args[0] as Form;
    for (const step of args.slice(1)) value = threadStep(step, value, last);
    return value;
  };
}

function condThreading(name: string, last: boolean): MacroExpander {
  return (args, form) => {
    if (args.length === 0)
      throw new LispError("invalid_thread_form", `${name} requires at least one expression`, form);
    const clauses = args.slice(1);
    if (clauses.length % 2 !== 0) {
      throw new LispError(
        "invalid_thread_form",
        `${name} requires even number of test/form pairs after expression`,
        form,
      );
    }
    const b = at(form);
    const temp = gensym("threaded");
    const bindings: Form[] = [b.sym(temp), args[0] as Form];
    for (let i = 0; i < clauses.length; i += 2) {
      bindings.push(
        b.sym(temp),
        b.list(
          b.core("if"),
          clauses[i] as Form,
          threadStep(clauses[i + 1] as Form, b.sym(temp), last),
          b.sym(temp),
        ),
      );
    }
    return b.list(
      b.core("let"),
      { type: "vector", items: bindings, line: form.line, column: form.column },
      b.sym(temp),
    );
  };
}

function someThreading(name: string, last: boolean): MacroExpander {
  return (args, form) => {
    if (args.length === 0)
      throw new LispError("invalid_thread_form", `${name} requires at least one expression`, form);
    const b = at(form);
    // Build from the last step inward: each step runs only when the value so far is not nil.
    const steps = args.slice(1);
    const temps = steps.map(() => gensym("some"));
    const first = gensym("some");
    let inner: Form = steps.length === 0 ? b.sym(first) : b.sym(temps[temps.length - 1] as string);
    for (let i = steps.length - 1; i >= 0; i--) {
      const input = i === 0 ? first : (temps[i - 1] as string);
      inner = b.list(
        b.core("if"),
        b.list(b.core("nil?"), b.sym(input)),
        b.nil(),
        b.list(
          b.core("let"),
          b.vector(b.sym(temps[i] as string), threadStep(steps[i] as Form, b.sym(input), last)),
          inner,
        ),
      );
    }
    return b.list(b.core("let"), b.vector(b.sym(first), args[0] as Form), inner);
  };
}

const asThread: MacroExpander = (args, form) => {
  if (args.length < 2 || !isSymbol(args[1])) {
    throw new LispError("invalid_thread_form", "expected (as-> expr name form ...)", form);
  }
  const b = at(form);
  const name = args[1] as Form;
  const bindings: Form[] = [name, args[0] as Form];
  for (const step of args.slice(2)) bindings.push(name, step);
  return b.list(
    b.core("let"),
    { type: "vector", items: bindings, line: form.line, column: form.column },
    name,
  );
};

export const MACROS: ReadonlyMap<string, MacroExpander> = new Map([
  ["when", when],
  ["when-not", whenNot],
  ["if-not", ifNot],
  ["cond", cond],
  ["condp", condp],
  ["if-let", ifLet],
  ["when-let", whenLet],
  ["if-some", ifSome],
  ["when-some", whenSome],
  ["when-first", whenFirst],
  ["->", threading("->", false)],
  ["->>", threading("->>", true)],
  ["cond->", condThreading("cond->", false)],
  ["cond->>", condThreading("cond->>", true)],
  ["some->", someThreading("some->", false)],
  ["some->>", someThreading("some->>", true)],
  ["as->", asThread],
]);
