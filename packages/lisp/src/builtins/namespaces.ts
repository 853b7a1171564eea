/**
 * Namespaced names a model may write for builtins: Clojure's (`clojure.string/join`, `str/join`,
 * `set/union`, `clojure.core/map`), PTC's own (`json/parse-string`) and the Java-shaped ones
 * (`Math/abs`, `Integer/parseInt`, `LocalDate/parse`). Each resolves to one builtin; an unknown
 * member fails with the list of what that namespace offers (the reference's lists, in its order),
 * so the model can pick the right name on its next try.
 *
 * The Java constants (`Double/NaN`, ...) are values, not builtins: the analyzer resolves them
 * before asking here; they are listed so the error message names them.
 */
import { quotedName } from "../quoted-text.js";

export interface NamespaceSpec {
  /** Words for the error message: "String functions: ...". */
  readonly label: string;
  /** member -> builtin name, in listing order; `undefined` means "any builtin of the same name" (clojure.core). */
  readonly members: ReadonlyMap<string, string> | undefined;
  /** Members that are names of the builtin itself (`json/parse-string`): errors say `ns/member` and list full names. */
  readonly qualified?: boolean;
}

function members(
  names: readonly string[],
  renames: Readonly<Record<string, string>> = {},
): ReadonlyMap<string, string> {
  const map = new Map<string, string>();
  for (const name of names) map.set(name, renames[name] ?? name);
  return map;
}

/** Names that are values resolved by the analyzer, always listed. */
const CONSTANT_MEMBERS = new Set(["POSITIVE_INFINITY", "NEGATIVE_INFINITY", "NaN"]);

const STRING_MEMBERS = members([
  "blank?",
  "downcase",
  "ends-with?",
  "extract",
  "extract-int",
  "format",
  "includes?",
  "index-of",
  "join",
  "last-index-of",
  "lower-case",
  "name",
  "parse-boolean",
  "parse-double",
  "parse-int",
  "parse-long",
  "pr-str",
  "replace",
  "split",
  "split-lines",
  "starts-with?",
  "str",
  "subs",
  "trim",
  "trim-newline",
  "triml",
  "trimr",
  "upcase",
  "upper-case",
]);
const SET_MEMBERS = members([
  "contains?",
  "difference",
  "disj",
  "intersection",
  "set",
  "hash-set",
  "set?",
  "union",
  "vec",
  "vector",
]);
const WALK_MEMBERS = members(["postwalk", "prewalk", "walk"]);
const REGEX_MEMBERS = members(["re-find", "re-matches", "re-pattern", "re-seq", "re-split", "regex?"]);
const MATH_MEMBERS = members([
  "abs",
  "bit-and",
  "bit-and-not",
  "bit-clear",
  "bit-flip",
  "bit-not",
  "bit-or",
  "bit-set",
  "bit-shift-left",
  "bit-shift-right",
  "bit-test",
  "bit-xor",
  "ceil",
  "double",
  "float",
  "floor",
  "int",
  "max",
  "min",
  "pow",
  "quot",
  "round",
  "sqrt",
  "trunc",
]);
const JSON_MEMBERS = members(["generate-string", "parse-string"], {
  "generate-string": "json/generate-string",
  "parse-string": "json/parse-string",
});
const DATE_MEMBERS = members(["parse"]);
const DURATION_MEMBERS = members(["between"], { between: "Duration/between" });

const STRING: NamespaceSpec = { label: "String", members: STRING_MEMBERS };
const SET: NamespaceSpec = { label: "Set", members: SET_MEMBERS };
const WALK: NamespaceSpec = { label: "Walk", members: WALK_MEMBERS };
const CORE: NamespaceSpec = { label: "Core", members: undefined };
const DATE: NamespaceSpec = { label: "Interop", members: DATE_MEMBERS };

export const NAMESPACES: ReadonlyMap<string, NamespaceSpec> = new Map<string, NamespaceSpec>([
  ["clojure.core", CORE],
  ["core", CORE],
  ["clojure.string", STRING],
  ["str", STRING],
  ["string", STRING],
  ["clojure.set", SET],
  ["set", SET],
  ["clojure.walk", WALK],
  ["walk", WALK],
  ["regex", { label: "Regex", members: REGEX_MEMBERS }],
  ["json", { label: "JSON", members: JSON_MEMBERS, qualified: true }],
  ["Math", { label: "Math", members: MATH_MEMBERS }],
  ["System", { label: "Interop", members: members(["currentTimeMillis"]) }],
  ["Boolean", { label: "Interop", members: members(["parseBoolean"], { parseBoolean: "parse-boolean" }) }],
  [
    "Double",
    {
      label: "Interop",
      members: members(["parseDouble", "POSITIVE_INFINITY", "NEGATIVE_INFINITY", "NaN"], {
        parseDouble: "parse-double",
      }),
    },
  ],
  ["Float", { label: "Interop", members: members(["parseFloat"], { parseFloat: "parse-double" }) }],
  ["Integer", { label: "Interop", members: members(["parseInt"], { parseInt: "parse-long" }) }],
  ["Long", { label: "Interop", members: members(["parseLong"], { parseLong: "parse-long" }) }],
  ["LocalDate", DATE],
  ["java.time.LocalDate", DATE],
  ["Instant", DATE],
  ["java.time.Instant", DATE],
  ["Duration", { label: "Interop", members: DURATION_MEMBERS, qualified: true }],
  ["java.time.Duration", { label: "Interop", members: DURATION_MEMBERS }],
]);

export const KNOWN_NAMESPACE_LIST =
  "data/, tool/, mcp/, budget/, json/, clojure.core/, core/, clojure.string/, str/, string/, clojure.set/, set/, clojure.walk/, walk/, regex/, Math/, System/, Boolean/, Double/, Float/, Integer/, Long/, LocalDate/, Instant/, Duration/, java.time.LocalDate/, java.time.Instant/, java.time.Duration/, java.util.Date.";

export type NamespaceResolution =
  | { readonly kind: "builtin"; readonly name: string }
  | { readonly kind: "error"; readonly message: string };

/** Resolves `ns/member` to a builtin, given which builtins exist. */
export function resolveNamespaced(
  ns: string,
  member: string,
  exists: (name: string) => boolean,
): NamespaceResolution {
  const spec = NAMESPACES.get(ns);
  if (spec === undefined) {
    return {
      kind: "error",
      message: `unknown namespace ${quotedName(ns)}/. Available namespaces: ${KNOWN_NAMESPACE_LIST}. For JSON parsing use json/parse-string (not cheshire.core/...).`,
    };
  }
  const target = spec.members === undefined ? member : spec.members.get(member);
  if (target !== undefined && exists(target)) return { kind: "builtin", name: target };
  if (spec.members === undefined) {
    return {
      kind: "error",
      message: `${quotedName(member)} is not available in ${ns}/: no such function. Check the name, or use (apropos "${quotedName(member)}")`,
    };
  }
  const available: string[] = [];
  for (const [name, builtinName] of spec.members) {
    if (CONSTANT_MEMBERS.has(name) || exists(builtinName))
      available.push(spec.qualified ? builtinName : name);
  }
  const list = available.length === 0 ? "(none)" : available.join(", ");
  const subject = spec.qualified ? `${ns}/${quotedName(member)}` : quotedName(member);
  return { kind: "error", message: `${subject} is not available. ${spec.label} functions: ${list}` };
}
