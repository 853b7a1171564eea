/**
 * The naming rule: how an MCP server's tool is named in programs and in native tool lists.
 *
 *   <prefix><tool>, the prefix being "<server>__" unless the host sets another (or "").
 *
 * Every character outside letters, digits, `_` and `-` becomes `_`, so the name is a PTC-Lisp
 * symbol and a name every model provider accepts; names longer than 64 characters are cut and
 * end in a short hash of the whole name, so they stay distinct. Two tools of one server that end
 * up with the same name are told apart by the same hash.
 *
 * Names of different servers are kept apart by their prefixes: a group refuses two servers whose
 * prefixes, as written in names, start one with the other (see `namesMayMeet`).
 */
import { createHash } from "node:crypto";

export const MAX_TOOL_NAME_LENGTH = 64;

function sanitize(name: string): string {
  return name.replace(/[^A-Za-z0-9_-]/g, "_");
}

function shortHash(text: string): string {
  return createHash("sha256").update(text).digest("hex").slice(0, 8);
}

/** The PTC name of `tool` on a server whose prefix is `prefix`. */
export function ptcToolName(prefix: string, tool: string): string {
  const name = sanitize(`${prefix}${tool}`);
  // "__proto__" (a tool of that name under the prefix "") gets the hash too: as a key of the tools
  // objects the host builds and merges by assignment, it would set their prototype instead.
  if (name.length <= MAX_TOOL_NAME_LENGTH && name !== "__proto__") return name;
  return `${name.slice(0, MAX_TOOL_NAME_LENGTH - 9)}_${shortHash(`${prefix}${tool}`)}`;
}

/**
 * What every PTC name made with `prefix` begins with: the prefix as names write it, up to the
 * length a cut name keeps before its hash.
 */
export function nameStart(prefix: string): string {
  return sanitize(prefix).slice(0, MAX_TOOL_NAME_LENGTH - 9);
}

/**
 * Whether a tool of a server with prefix `a` and a tool of one with prefix `b` can get the same
 * name. When neither name start begins with the other, they differ at some character that every
 * name of each server keeps (a cut name keeps its first 55), so no two names meet. When one does
 * (`a__` and `a__b__`), the tool `b__delete` of the first and `delete` of the second meet.
 */
export function namesMayMeet(a: string, b: string): boolean {
  const startA = nameStart(a);
  const startB = nameStart(b);
  return startA.startsWith(startB) || startB.startsWith(startA);
}

/**
 * PTC names for every tool of one server, keyed by the server's name for the tool. A name that
 * two tools would share (`a.b` and `a_b` both give `a_b`) is given to the first in sorted order;
 * the others get a hash of their original name appended.
 */
export function ptcToolNames(prefix: string, tools: readonly string[]): Map<string, string> {
  const names = new Map<string, string>();
  const taken = new Set<string>();
  // A name listed twice (a server whose pages overlap) is one tool, not two that collide.
  for (const tool of [...new Set(tools)].sort()) {
    let name = ptcToolName(prefix, tool);
    if (taken.has(name)) {
      name = `${name.slice(0, MAX_TOOL_NAME_LENGTH - 9)}_${shortHash(`${prefix}${tool}`)}`;
    }
    taken.add(name);
    names.set(tool, name);
  }
  return names;
}
