/**
 * Ajv's `code.process` for schemas that arrive over the wire: keeps V8 from caching the code Ajv
 * generates, because for large schemas that cache never lets go.
 *
 * Ajv turns every schema into JavaScript source and compiles it with `new Function(source)`. V8
 * keeps a cache of such sources (its eval cache), so that the same source compiled again is not
 * parsed again. An entry is only made the second time a source's hash is seen; but V8 hashes a
 * string longer than 16,383 characters by its length alone, so every two different long sources
 * of the same length count as "seen twice". Ajv writes more than 16 KB of code for a schema of
 * about 32 properties and up, and the lengths of different schemas of the same shape collide
 * all the time. Those entries hold the compiled script (source, bytecode, constants), and V8
 * drops them only when it runs short of heap: ordinary collections and idle time do not.
 * Measured through `lisp_eval` on Node 20 (V8 11.3): about 75 KB kept per distinct 64-property
 * `output_schema`, 2,000 of them 150 MB, although every Ajv that compiled them was long gone.
 *
 * V8 does not cache a source that contains a tagged template (each tagged template site must
 * get its own template object, so such code may not be shared between compilations). So a
 * tagged template is appended after Ajv's `return`: it is parsed, which turns the cache off for
 * this source, and never runs. It starts with `;` so that it can never continue the expression
 * Ajv returns (a template, or `(`, on the next line would call Ajv's validate function).
 *
 * What it costs: a schema compiled again by a fresh Ajv is parsed again, which the cache would
 * have saved; BoundedSchemaCompiler compiles a schema seen before only once per Ajv anyway.
 */

/** Appended to every generated source: dead code whose only effect is on V8's parser. */
const NO_EVAL_CACHE = "\n;String.raw``;";

export function withoutEvalCache(code: string): string {
  return code + NO_EVAL_CACHE;
}
