/**
 * Namespaced names a model may write for builtins: Clojure's (`clojure.string/join`, `str/join`,
 * `set/union`, `clojure.core/map`), PTC's own (`json/parse-string`) and the Java-shaped ones
 * (`Math/abs`, `Integer/parseInt`). Each resolves to one builtin; an unknown member fails with the
 * list of what that namespace offers, so the model can pick the right name on its next try.
 */

export interface NamespaceSpec {
  /** Words for the error message: "String functions: ...". */
  readonly label: string;
  /** member -> builtin name; `undefined` means "any builtin of the same name" (clojure.core). */
  readonly members: ReadonlyMap<string, string> | undefined;
}

function members(names: readonly string[], renames: Record<string, string> = {}): ReadonlyMap<string, string> {
  const map = new Map<string, string>();
  for (const name of names) map.set(name, name);
  for (const [member, target] of Object.entries(renames)) map.set(member, target);
  return map;
}

const STRING_MEMBERS = members(
  [
    "blank?",
    "ends-with?",
    "includes?",
    "index-of",
    "join",
    "last-index-of",
    "lower-case",
    "replace",
    "replace-first",
    "split",
    "split-lines",
    "starts-with?",
    "trim",
    "trim-newline",
    "triml",
    "trimr",
    "upper-case",
    "upcase",
    "downcase",
    "reverse-string",
  ],
  { reverse: "reverse-string" },
);
const SET_MEMBERS = members(["union", "intersection", "difference", "subset?", "superset?", "select", "project", "rename-keys", "map-invert", "index"]);
const WALK_MEMBERS = members(["walk", "prewalk", "postwalk", "keywordize-keys", "stringify-keys", "prewalk-replace", "postwalk-replace"]);
const REGEX_MEMBERS = members(["re-pattern", "re-find", "re-matches", "re-seq", "re-split", "regex?"]);
const JSON_MEMBERS = members([], { "parse-string": "json/parse-string", "generate-string": "json/generate-string" });
const MATH_MEMBERS = members(["abs", "ceil", "floor", "round", "sqrt", "pow", "max", "min", "exp", "log", "log10", "signum", "trunc"]);

export const NAMESPACES: ReadonlyMap<string, NamespaceSpec> = new Map([
  ["clojure.core", { label: "Core", members: undefined }],
  ["core", { label: "Core", members: undefined }],
  ["clojure.string", { label: "String", members: STRING_MEMBERS }],
  ["str", { label: "String", members: STRING_MEMBERS }],
  ["string", { label: "String", members: STRING_MEMBERS }],
  ["clojure.set", { label: "Set", members: SET_MEMBERS }],
  ["set", { label: "Set", members: SET_MEMBERS }],
  ["clojure.walk", { label: "Walk", members: WALK_MEMBERS }],
  ["walk", { label: "Walk", members: WALK_MEMBERS }],
  ["regex", { label: "Regex", members: REGEX_MEMBERS }],
  ["json", { label: "JSON", members: JSON_MEMBERS }],
  ["Math", { label: "Math", members: MATH_MEMBERS }],
  ["System", { label: "System", members: members([], { currentTimeMillis: "System/currentTimeMillis" }) }],
  ["Boolean", { label: "Boolean", members: members([], { parseBoolean: "parse-boolean" }) }],
  [
    "Double",
    {
      label: "Double",
      members: members([], {
        parseDouble: "parse-double",
        POSITIVE_INFINITY: "Double/POSITIVE_INFINITY",
        NEGATIVE_INFINITY: "Double/NEGATIVE_INFINITY",
        NaN: "Double/NaN",
        isNaN: "NaN?",
        isInfinite: "infinite?",
      }),
    },
  ],
  ["Float", { label: "Float", members: members([], { parseFloat: "parse-double" }) }],
  ["Integer", { label: "Integer", members: members([], { parseInt: "parse-long" }) }],
  ["Long", { label: "Long", members: members([], { parseLong: "parse-long" }) }],
  ["LocalDate", { label: "LocalDate", members: members([], { parse: "LocalDate/parse", now: "LocalDate/now" }) }],
  ["java.time.LocalDate", { label: "LocalDate", members: members([], { parse: "LocalDate/parse", now: "LocalDate/now" }) }],
  ["Instant", { label: "Instant", members: members([], { parse: "Instant/parse", now: "Instant/now" }) }],
  ["java.time.Instant", { label: "Instant", members: members([], { parse: "Instant/parse", now: "Instant/now" }) }],
  ["Duration", { label: "Duration", members: members([], { between: "Duration/between" }) }],
  ["java.time.Duration", { label: "Duration", members: members([], { between: "Duration/between" }) }],
]);

export const KNOWN_NAMESPACE_LIST =
  "data/, tool/, budget/, json/, clojure.core/, core/, clojure.string/, str/, string/, clojure.set/, set/, clojure.walk/, walk/, regex/, Math/, System/, Boolean/, Double/, Float/, Integer/, Long/, LocalDate/, Instant/, Duration/, java.time.LocalDate/, java.time.Instant/, java.time.Duration/, java.util.Date.";

export type NamespaceResolution =
  | { readonly kind: "builtin"; readonly name: string }
  | { readonly kind: "error"; readonly message: string };

/** Resolves `ns/member` to a builtin, given which builtins exist. */
export function resolveNamespaced(ns: string, member: string, exists: (name: string) => boolean): NamespaceResolution {
  const spec = NAMESPACES.get(ns);
  if (spec === undefined) {
    return {
      kind: "error",
      message: `unknown namespace ${ns}/. Available namespaces: ${KNOWN_NAMESPACE_LIST}. For JSON parsing use json/parse-string (not cheshire.core/...).`,
    };
  }
  const target = spec.members === undefined ? member : spec.members.get(member);
  if (target !== undefined && exists(target)) return { kind: "builtin", name: target };
  const available = spec.members === undefined ? [] : [...spec.members.keys()].filter((name) => exists(spec.members?.get(name) ?? name));
  const list = available.sort().join(", ");
  return {
    kind: "error",
    message: `${member} is not available. ${spec.label} functions: ${list === "" ? "(none)" : list}`,
  };
}
