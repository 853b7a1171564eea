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
 *
 * A count alone does not bound the bytes: Ajv writes about 15 characters of code per byte of
 * schema, and a validator holds its code and bytecode (measured: a 31 KB schema of 1,000
 * properties, 477,000 characters of code, kept 1.3 MB; 256 of them 330 MB). So the code an Ajv
 * has generated counts too, through Ajv's `code.process` hook, which sees every source it
 * compiles (a schema's `$ref`s may compile more than one); the hook also keeps that code out of
 * V8's eval cache (uncached-validator-code.ts).
 */
import { createHash } from "node:crypto";
import type { Ajv, ValidateFunction } from "ajv";
import { compileWithoutKeeping } from "./compile-schema.js";
import { withoutEvalCache } from "./uncached-validator-code.js";

/** Compilations one Ajv takes before a fresh one replaces it. */
export const COMPILATIONS_PER_AJV = 256;

/**
 * Characters of generated code one Ajv takes before a fresh one replaces it (it may go over by
 * one schema's code): about 11 MB held. Schemas of a few KB (60,000 characters of code) still
 * fill COMPILATIONS_PER_AJV first or nearly so.
 */
export const CODE_CHARS_PER_AJV = 4_000_000;

/** Ajv's `code.process`: what the factory must pass for the compiler to see the code. */
export type ProcessCode = (code: string) => string;

export interface SchemaCompilerStats {
  /** Validate functions held in the scope of the Ajv in use (never more than COMPILATIONS_PER_AJV). */
  readonly retainedValidators: number;
  /** Ajv instances made so far. */
  readonly ajvsCreated: number;
  /** Characters of code the Ajv in use has generated (a little over CODE_CHARS_PER_AJV at most). */
  readonly generatedCodeChars: number;
}

export class BoundedSchemaCompiler {
  private ajv: Ajv | undefined;
  private compiled = new Map<string, ValidateFunction>();
  private compilations = 0;
  private codeChars = 0;
  private ajvsCreated = 0;

  /** Counts the code the Ajv in use generates, and keeps it out of V8's eval cache. */
  private readonly processCode: ProcessCode = (code) => {
    this.codeChars += code.length;
    return withoutEvalCache(code);
  };

  /** `createAjv` must pass `processCode` as the Ajv's `code.process` option. */
  constructor(private readonly createAjv: (processCode: ProcessCode) => Ajv) {}

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
      generatedCodeChars: this.codeChars,
    };
  }

  private current(): Ajv {
    if (
      this.ajv === undefined ||
      this.compilations >= COMPILATIONS_PER_AJV ||
      this.codeChars >= CODE_CHARS_PER_AJV
    ) {
      const ajv = this.createAjv(this.processCode);
      // Without the hook nothing would bound the code, nor keep it out of V8's eval cache.
      if (ajv.opts.code.process !== this.processCode) {
        throw new Error("BoundedSchemaCompiler: the Ajv factory must pass processCode as code.process");
      }
      this.ajv = ajv;
      this.ajvsCreated++;
      this.compiled = new Map();
      this.compilations = 0;
      this.codeChars = 0;
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
