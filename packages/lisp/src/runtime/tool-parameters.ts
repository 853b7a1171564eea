/**
 * Advice for a tool call written with positional arguments, in the tool's own parameter names.
 * The names come from the signature text a host tool shows (`"(id :int, limit :int?) -> [:map]"`
 * gives id and limit), read here only as far as the names: checking arguments is the tool's own
 * `validate`, never this. A signature this cannot read, or none, leaves the advice general, with a
 * placeholder no model could take for a real name.
 */
import { headOf } from "../cut-text.js";

const NAME = /^[A-Za-z_][A-Za-z0-9_-]*/;
const OPENERS = new Set(["(", "[", "{"]);
const CLOSERS = new Set([")", "]", "}"]);

/** The parameter names in a signature's text; [] for a tool without parameters. */
export function parameterNames(signature: unknown): readonly string[] | undefined {
  if (typeof signature !== "string") return undefined;
  const text = signature.trim();
  // "-> type" and a bare type: no parameters.
  if (!text.startsWith("(")) return text === "" ? undefined : [];
  const pieces: string[] = [];
  let depth = 0;
  let start = 1;
  for (let index = 0; index < text.length; index++) {
    const char = text[index] as string;
    if (OPENERS.has(char)) depth++;
    else if (CLOSERS.has(char)) {
      depth--;
      if (depth === 0) {
        pieces.push(text.slice(start, index));
        return namesOf(pieces);
      }
    } else if (char === "," && depth === 1) {
      pieces.push(text.slice(start, index));
      start = index + 1;
    }
  }
  return undefined;
}

function namesOf(pieces: readonly string[]): readonly string[] | undefined {
  if (pieces.length === 1 && pieces[0]?.trim() === "") return [];
  const names: string[] = [];
  for (const piece of pieces) {
    const name = NAME.exec(piece.trim())?.[0];
    if (name === undefined) return undefined;
    names.push(name);
  }
  return names;
}

const MAX_SHOWN = 40;

function shown(value: string): string {
  return value.length <= MAX_SHOWN ? value : `${headOf(value, MAX_SHOWN)}...`;
}

/**
 * What to write instead of `(tool/name v1 v2 ...)`: the values under the parameters they would
 * fill in order, e.g. `write (tool/get_customer {:id 9})`. `values` are as the program wrote them.
 */
export function namedArgumentsAdvice(
  tool: string,
  parameters: readonly string[] | undefined,
  values: readonly string[],
): string {
  if (parameters === undefined) {
    return `write (tool/${tool} {:<name> ${shown(values[0] ?? "value")}}), with the tool's parameter name for <name>`;
  }
  if (parameters.length === 0) return `tool/${tool} takes no arguments: write (tool/${tool})`;
  const entries = parameters
    .slice(0, values.length)
    .map((parameter, index) => `:${parameter} ${shown(values[index] as string)}`);
  const call = `(tool/${tool} {${entries.join(" ")}})`;
  if (values.length > parameters.length)
    return `tool/${tool} takes only ${parameters.join(", ")}: write ${call}`;
  if (values.length < parameters.length) return `write ${call} (its parameters: ${parameters.join(", ")})`;
  return `write ${call}`;
}
