/**
 * Compiling a JSON Schema someone else wrote (a client's `output_schema`, an MCP server's
 * `inputSchema`) on a long-lived, shared Ajv, without leaving it there.
 *
 * Ajv keeps every schema it compiles, for good: in a cache keyed by the schema object, and under
 * its `$id` (and the `$id`s inside it), which must then be unique. Both go wrong for schemas that
 * arrive over the wire. The second schema with an `$id` already seen fails to compile ("schema
 * with key or id ... already exists"): for `lisp_eval` that is an `args_error` for every later
 * call, from any client; for an MCP tool it is a tool whose arguments are no longer checked once
 * its server's list is read again. And the cache grows with every call.
 *
 * Registering stays on while the schema compiles, since that is how a `$ref` to the schema's own
 * `$id` resolves. Afterwards, what the compile added is taken out again: the `$id` entries that
 * were not there before (compiling is synchronous, so every new one is this schema's; an entry
 * that was there before, such as a meta-schema a client named its schema after, stays), and the
 * cache entry. `removeSchema(object)` would also delete whatever is held under the object's `$id`,
 * so the cache entry is dropped through the compiled copy once its `$id` is gone: the cache key
 * is the object itself. The validate function keeps what it needs and never looks the schema up
 * again.
 */
import type { Ajv, ValidateFunction } from "ajv";

export function compileWithoutKeeping(ajv: Ajv, schema: Record<string, unknown>): ValidateFunction {
  const copy = { ...schema };
  const known = new Set(Object.keys(ajv.refs));
  try {
    return ajv.compile(copy);
  } finally {
    for (const ref of Object.keys(ajv.refs)) if (!known.has(ref)) delete ajv.refs[ref];
    delete copy.$id;
    ajv.removeSchema(copy);
  }
}
