/**
 * What combined mode adds to every request, read off a request it sent: the PTC-Lisp reference
 * card and the `<ptc_tools>` list in the system prompt, and `lisp_eval`'s entry among the tool
 * schemas. On a small result these are the whole difference from text mode, paid once a request.
 */
import { countTokens, type TokenRequest } from "../tokens/count-tokens.js";

export interface CombinedOverhead {
  /** `<ptc_lisp_reference>...</ptc_lisp_reference>`, its example included. */
  readonly card: number;
  /** `<ptc_tools>...</ptc_tools>`; 0 when no tool is program-callable. */
  readonly toolList: number;
  /** The `lisp_eval` schema as JSON. */
  readonly schema: number;
}

function section(text: string, tag: string): string {
  const start = text.indexOf(`<${tag}>`);
  const closing = `</${tag}>`;
  const end = text.indexOf(closing, start);
  return start === -1 || end === -1 ? "" : text.slice(start, end + closing.length);
}

export function combinedOverhead(request: TokenRequest): CombinedOverhead {
  const schema = request.tools?.find((tool) => tool.function.name === "lisp_eval");
  return {
    card: countTokens(section(request.system, "ptc_lisp_reference")),
    toolList: countTokens(section(request.system, "ptc_tools")),
    schema: schema === undefined ? 0 : countTokens(JSON.stringify(schema)),
  };
}
