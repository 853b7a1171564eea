/**
 * Finding the host value that could not be read. Host data (the context, tool results, what a
 * session was seeded with) is read in place and lazily, on the hottest paths of the evaluator,
 * with no try/catch per read. So a getter that throws, a revoked Proxy or a Proxy trap that throws
 * surfaces as a raw exception from wherever the program happened to read it. When a run ends on
 * an exception that is not one of ours, `run` asks this module to walk the host values the program
 * could reach, this time defensively, reading them as the evaluator does; the first place whose
 * reading throws (or that holds a promise, which is not data) becomes a `host_data_error` that
 * names it. Nothing is found: the failure stays an internal error.
 *
 * The walk must never throw, never follow a cycle twice and stay bounded: it visits at most
 * `limit` values and gives up past it. It reads the data again, so a getter runs once more.
 */
import { LispError } from "../errors.js";
import { errorText } from "../runtime/error-text.js";
import { Keyword } from "./keyword.js";
import { isLispFunction } from "./lisp-function.js";
import { isPlainObject } from "./plain-object.js";
import { isLispMap, isLispSet } from "./table-kind.js";

/**
 * A host value the program could reach: how to name it, and how to read it (reading a `data/`
 * key can throw too). A label that is a name (`data/orders`, `*1`) gets the path appended
 * (`data/orders[3].total`); any other (`the result of tool/search`) is followed by `at [3].total`.
 */
export interface HostRoot {
  readonly label: string;
  readonly read: () => unknown;
}

/** Where a host value could not be read, and why: `${path} ${problem}` is a sentence. */
export interface Unreadable {
  readonly path: string;
  readonly problem: string;
}

/** Values visited at most; a value past it is not looked at. */
const DEFAULT_LIMIT = 1_000_000;

const IDENTIFIER = /^[A-Za-z_$][\w$-]*$/;

function step(path: string, key: string): string {
  return IDENTIFIER.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

/** Thrown while reading one value: the problem, said safely. */
class ReadFailure {
  constructor(
    readonly path: string,
    readonly thrown: unknown,
  ) {}
}

interface Pending {
  readonly value: unknown;
  readonly path: string;
}

/** Reads `read()` as the evaluator would, turning whatever it throws into a ReadFailure at `path`. */
function attempt<T>(path: string, read: () => T): T {
  try {
    return read();
  } catch (thrown) {
    throw new ReadFailure(path, thrown);
  }
}

/** The children of one host value, read the way the evaluator reads them. */
function children(value: object, path: string): Pending[] | Unreadable {
  // Telling a program's function from a host's reads the function's brand.
  if (typeof value === "function") {
    attempt(path, () => isLispFunction(value));
    return [];
  }
  if (attempt(path, () => value instanceof Promise))
    return { path, problem: "is a promise, not data (the host must await it before the run)" };
  if (attempt(path, () => Array.isArray(value))) {
    const items = value as unknown[];
    const length = attempt(path, () => items.length);
    const out: Pending[] = [];
    for (let i = 0; i < length; i++) {
      const at = `${path}[${i}]`;
      out.push({ value: attempt(at, () => items[i]), path: at });
    }
    return out;
  }
  if (attempt(path, () => isPlainObject(value))) {
    const object = value as Record<string, unknown>;
    const keys = attempt(path, () => Object.keys(object));
    const out: Pending[] = [];
    for (const key of keys) {
      const at = step(path, key);
      out.push({
        value: attempt(at, () => (Object.hasOwn(object, key) ? object[key] : undefined)),
        path: at,
      });
    }
    return out;
  }
  // A program's own map or set, handed to the host as a run's value, may hold host values; and a
  // map derived from a host row (assoc, dissoc, merge on a tool result's row) reads the row's other
  // fields through to it, so listing its entries reads the row (a throw there names the map).
  if (isLispMap(value)) {
    const out: Pending[] = [];
    for (const [key, item] of attempt(path, () => value.entries())) {
      if (typeof key === "object" && key !== null) out.push({ value: key, path: `${path} (a key)` });
      out.push({ value: item, path: entryPath(path, key) });
    }
    return out;
  }
  if (isLispSet(value)) {
    const at = `${path}#{}`;
    return attempt(path, () => value.members()).map((member) => ({ value: member, path: at }));
  }
  // Anything else is opaque to programs, but printing it reads its constructor's name.
  attempt(path, () => (value as { constructor?: { name?: unknown } }).constructor?.name);
  return [];
}

/** The path of a map entry: `.name` for a text or keyword key, `[key]` for any other. */
function entryPath(path: string, key: unknown): string {
  if (typeof key === "string") return step(path, key);
  if (key instanceof Keyword) return step(path, key.name);
  return `${path}[${typeof key === "number" ? key : "…"}]`;
}

const NAME = /^(data\/|\*)\S*$/;

/** The text of a path under a root: appended to a name, after "at" otherwise. */
function pathText(label: string, path: string): string {
  if (path === "") return label;
  return NAME.test(label) ? `${label}${path}` : `${label} at ${path.startsWith(".") ? path.slice(1) : path}`;
}

/** The first place under `roots` whose reading throws (or that holds a promise), or undefined. */
export function findUnreadable(roots: readonly HostRoot[], limit = DEFAULT_LIMIT): Unreadable | undefined {
  const values: unknown[] = [];
  for (const root of roots) {
    try {
      values.push(root.read());
    } catch (thrown) {
      return { path: root.label, problem: threw(thrown) };
    }
  }
  const seen = new Set<unknown>();
  const stack: Array<Pending & { readonly label: string }> = [];
  for (let i = roots.length - 1; i >= 0; i--)
    stack.push({ value: values[i], path: "", label: (roots[i] as HostRoot).label });
  let visited = 0;
  while (stack.length > 0 && visited < limit) {
    const { value, path, label } = stack.pop() as Pending & { readonly label: string };
    if ((typeof value !== "object" && typeof value !== "function") || value === null) continue;
    if (seen.has(value)) continue;
    seen.add(value);
    try {
      const found = children(value, path);
      if (!Array.isArray(found)) return { path: pathText(label, found.path), problem: found.problem };
      visited += 1 + found.length;
      for (let i = found.length - 1; i >= 0; i--) stack.push({ ...(found[i] as Pending), label });
    } catch (failure) {
      if (failure instanceof ReadFailure)
        return { path: pathText(label, failure.path), problem: threw(failure.thrown) };
      return { path: pathText(label, path), problem: "could not be read" };
    }
  }
  return undefined;
}

function threw(thrown: unknown): string {
  return `could not be read: reading it threw ${JSON.stringify(errorText(thrown))}`;
}

/**
 * The error of a host call (`format`, `toJson`, `equals`...) on `values` that threw something
 * that is none of ours: host_data_error naming the place that cannot be read, or, when every place
 * reads fine, an internal error.
 */
export function hostCallError(thrown: unknown, values: readonly unknown[]): LispError {
  const found = findUnreadable(
    values.map((value, index) => ({
      label: values.length === 1 ? "the value" : `argument ${index + 1}`,
      read: () => value,
    })),
  );
  if (found !== undefined)
    return new LispError(
      "host_data_error",
      `${found.path} ${found.problem}; pass plain data (objects, arrays, strings, numbers; no getters that throw, no revoked proxies)`,
      undefined,
      { cause: thrown },
    );
  return new LispError(
    "runtime_error",
    `unexpected internal error (a bug in @ptc/lisp, please report it): ${errorText(thrown)}`,
    undefined,
    { cause: thrown },
  );
}
