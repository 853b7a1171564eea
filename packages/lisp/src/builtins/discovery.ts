/**
 * REPL discovery: `(doc f)`, `(apropos "text")`, `(dir ns)`, `(meta f)`,
 * `(ns-publics ns)`. Answers come from the builtin registry itself (the caller passes it), so
 * they are always current.
 */
import { LispError } from "../errors.js";
import { quotedName } from "../quoted-text.js";
import { Keyword } from "../values/keyword.js";
import { LispMap } from "../values/lisp-map.js";
import { QuotedSymbol } from "../values/quoted-symbol.js";
import { NAMESPACES } from "./namespaces.js";
import type { Registry } from "./registry.js";

function nameOf(value: unknown): string {
  if (value instanceof QuotedSymbol) return value.name;
  if (typeof value === "string") return value;
  if (value instanceof Keyword) return value.name;
  throw new LispError("type_error", 'discovery forms take a name: (doc map), (apropos "sort")');
}

function visible(source: Registry, name: string): boolean {
  const definition = source.definition(name);
  return definition !== undefined && definition.category !== "Internal";
}

function docText(source: Registry, name: string): string | null {
  const definition = source.definition(name);
  if (definition === undefined || !visible(source, name)) return null;
  return `${name}\n${definition.signatures.map((s) => `(${name}${s === "[]" ? "" : ` ${s.slice(1, -1)}`})`).join("\n")}\n  ${definition.doc}`;
}

function namespaceMembers(source: Registry, ns: string): string[] {
  const spec = NAMESPACES.get(ns);
  if (spec === undefined)
    throw new LispError(
      "invalid_form",
      `unknown namespace ${quotedName(ns)}; try one of: ${[...NAMESPACES.keys()].join(", ")}`,
    );
  if (spec.members === undefined) return source.names().filter((name) => visible(source, name));
  return [...spec.members.keys()].filter((member) => source.has(spec.members?.get(member) ?? member)).sort();
}

export function runDiscovery(source: Registry, operation: string, args: readonly unknown[]): unknown {
  switch (operation) {
    case "doc": {
      if (args.length !== 1)
        throw new LispError("invalid_arity", `(doc name) requires exactly 1 argument, got ${args.length}`);
      return docText(source, nameOf(args[0]));
    }
    case "apropos": {
      if (args.length < 1 || args.length > 2)
        throw new LispError("invalid_arity", `(apropos query) requires 1 argument, got ${args.length}`);
      const query = nameOf(args[0]).toLowerCase();
      return source.names().filter((name) => visible(source, name) && name.toLowerCase().includes(query));
    }
    case "dir":
    case "ns-publics": {
      if (args.length < 1)
        throw new LispError("invalid_arity", `(${operation} namespace) requires 1 argument`);
      return namespaceMembers(source, nameOf(args[0]));
    }
    case "meta": {
      if (args.length !== 1)
        throw new LispError("invalid_arity", `(meta name) requires exactly 1 argument, got ${args.length}`);
      const name = nameOf(args[0]);
      const definition = source.definition(name);
      if (definition === undefined || !visible(source, name)) return null;
      return LispMap.from([
        [Keyword.of("name"), name],
        [Keyword.of("arglists"), [...definition.signatures]],
        [Keyword.of("doc"), definition.doc],
        [Keyword.of("category"), definition.category],
      ]);
    }
    default:
      throw new LispError("invalid_form", `${operation} is not available`);
  }
}
