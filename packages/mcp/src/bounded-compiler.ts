/**
 * Compiling schemas that keep arriving (a client's `output_schema` on every `lisp_eval` call, a
 * server's schemas on every re-listing) without the host's heap growing for good.
 *
 * Ajv keeps everything it has compiled for as long as the Ajv lives: each validate function and
 * its schema sit in the Ajv's code scope (keyed by the schema object, so even the same schema sent
 * again is kept again), and so does each distinct pattern. `compileWithoutKeeping` takes the
 * schema out of Ajv's cache and `$id` registry, but not out of the scope, which has no way to
 * remove anything. Measured through `lisp_eval`: about 4 KB kept per call with the same schema,
 * 13 KB per call with a new pattern, without end.
 *
 * So an Ajv is only used for a bounded number of compilations; then a fresh one takes its place,
 * and the old one is freed as soon as the validators compiled in it are no longer used. Within one
 * Ajv's lifetime a schema seen before (by the SHA-256 of its JSON, so that a large schema is not
 * kept twice as a key) gets the validator already compiled: a client that sends the same schema on
 * every call compiles it once per Ajv.
 */
import { createHash } from "node:crypto";
import type { Ajv, ValidateFunction } from "ajv";
import { compileWithoutKeeping } from "./compile-schema.js";

/** Compilations one Ajv takes before a fresh one replaces it; each keeps a few KB at most. */
export const COMPILATIONS_PER_AJV = 256;

export interface SchemaCompilerStats {
  /** Validate functions held in the scope of the Ajv in use (never more than COMPILATIONS_PER_AJV). */
  readonly retainedValidators: number;
  /** Ajv instances made so far. */
  readonly ajvsCreated: number;
}

export class BoundedSchemaCompiler {
  private ajv: Ajv | undefined;
  private compiled = new Map<string, ValidateFunction>();
  private compilations = 0;
  private ajvsCreated = 0;

  constructor(private readonly createAjv: () => Ajv) {}

  /** The validator for `schema`, and the Ajv it was compiled in (for `errorsText`). Throws as Ajv does. */
  compile(schema: Record<string, unknown>): { validate: ValidateFunction; ajv: Ajv } {
    const key = keyOf(schema);
    const ajv = this.current();
    const known = key === undefined ? undefined : this.compiled.get(key);
    if (known !== undefined) return { validate: known, ajv };
    // Counted before compiling: a schema that fails halfway has still left its patterns behind.
    this.compilations++;
    const validate = compileWithoutKeeping(ajv, schema);
    if (key !== undefined) this.compiled.set(key, validate);
    return { validate, ajv };
  }

  stats(): SchemaCompilerStats {
    return {
      retainedValidators: this.ajv?.scope.get().validate?.length ?? 0,
      ajvsCreated: this.ajvsCreated,
    };
  }

  private current(): Ajv {
    if (this.ajv === undefined || this.compilations >= COMPILATIONS_PER_AJV) {
      this.ajv = this.createAjv();
      this.ajvsCreated++;
      this.compiled = new Map();
      this.compilations = 0;
    }
    return this.ajv;
  }
}

/**
 * The cache key of a schema: the hash of its JSON. Key order counts (it orders Ajv's errors too).
 * A schema JSON cannot write (a cycle, from a client in the same process) is not cached.
 */
function keyOf(schema: Record<string, unknown>): string | undefined {
  let json: string;
  try {
    json = JSON.stringify(schema);
  } catch {
    return undefined;
  }
  return createHash("sha256").update(json).digest("hex");
}
