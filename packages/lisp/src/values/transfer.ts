/**
 * Values across a thread boundary. `postMessage` copies with the structured clone algorithm, which
 * keeps plain data (arrays, plain objects, strings, numbers incl. NaN and -0, bigints) but turns
 * class instances into plain objects and refuses functions. `encodeValue` rewrites every value the
 * language gives its own type (keywords, program maps and sets, whole floats, regexes, var refs,
 * quoted symbols, functions, host objects) into tagged plain records; `decodeValue` rebuilds them
 * on the other side, so an isolated run returns values of the same types as `run`.
 *
 * Plain JSON-shaped data that needs no rewriting is passed through as the same object (no copy
 * here; the structured clone makes the one copy). Shared substructure stays shared both ways, so a
 * value that is small as a graph never grows into a huge tree. A value that contains itself cannot
 * be transferred (the language cannot print or compare one either) and is refused with a clear
 * error rather than looping.
 *
 * This module must never run program code or call host functions while encoding or decoding.
 */
import { LispError } from "../errors.js";
import { CustomValue } from "./custom-value.js";
import { DateTime, Duration, LocalDate } from "./dates.js";
import { Keyword } from "./keyword.js";
import { brandFunction, FUNCTION_INFO, type FunctionInfo, type LispFunction } from "./lisp-function.js";
import { LispMap } from "./lisp-map.js";
import { LispSet } from "./lisp-set.js";
import { WholeFloat } from "./numbers.js";
import { defineOwn, isPlainObject, type PlainObject } from "./plain-object.js";
import { QuotedSymbol } from "./quoted-symbol.js";
import { Regex } from "./regex.js";
import { VarRef } from "./var-ref.js";

/** The key that marks a tagged record. A NUL first keeps it out of the way of real data. */
export const TRANSFER_TAG = "\u0000ptc";

/** A value as it travels: structured-clone safe. */
export type EncodedValue = unknown;

/** How a kind of CustomValue crosses threads. */
export interface TransferKind<T extends CustomValue = CustomValue> {
  /** Unique tag, e.g. "date". */
  readonly tag: string;
  /** Whether a value is of this kind (usually an instanceof test). */
  is(value: CustomValue): value is T;
  /** Structured-clone-safe data from which `decode` can rebuild an equal value. */
  encode(value: T): unknown;
  decode(data: unknown): T;
}

function transferKind<T extends CustomValue>(spec: TransferKind<T>): TransferKind {
  return spec as unknown as TransferKind;
}

/**
 * Every kind of CustomValue that crosses threads as what it is. One static table, so both threads
 * know every kind whatever modules they loaded (nothing registers at load time).
 */
const KINDS: readonly TransferKind[] = [
  transferKind<Regex>({
    tag: "regex",
    is: (value) => value instanceof Regex,
    encode: (value) => value.source,
    decode: (data) => Regex.trusted(String(data)),
  }),
  transferKind<VarRef>({
    tag: "var",
    is: (value) => value instanceof VarRef,
    encode: (value) => value.name,
    decode: (data) => new VarRef(String(data)),
  }),
  transferKind<QuotedSymbol>({
    tag: "symbol",
    is: (value) => value instanceof QuotedSymbol,
    encode: (value) => value.name,
    decode: (data) => new QuotedSymbol(String(data)),
  }),
  transferKind<LocalDate>({
    tag: "local-date",
    is: (value) => value instanceof LocalDate,
    encode: (value) => value.epochDay,
    decode: (data) => new LocalDate(Number(data)),
  }),
  transferKind<DateTime>({
    tag: "date-time",
    is: (value) => value instanceof DateTime,
    encode: (value) => [value.epochMs, value.micros, value.precision],
    decode: (data) => {
      const [epochMs, micros, precision] = data as [number, number, number];
      return new DateTime(epochMs, micros, precision);
    },
  }),
  transferKind<Duration>({
    tag: "duration",
    is: (value) => value instanceof Duration,
    encode: (value) => value.milliseconds,
    decode: (data) => new Duration(Number(data)),
  }),
];

const kinds = new Map<string, TransferKind>(KINDS.map((entry) => [entry.tag, entry]));

/**
 * A CustomValue of a kind nobody registered: it keeps how the original printed, compared, was
 * typed and turned into JSON, which is all the host can observe of it.
 */
export class TransferredValue extends CustomValue {
  constructor(
    private readonly printed: string,
    private readonly textForm: string,
    private readonly canonicalForm: string,
    private readonly kindName: string,
    private readonly json: unknown,
  ) {
    super();
  }
  print(): string {
    return this.printed;
  }
  override text(): string {
    return this.textForm;
  }
  canonical(): string {
    return this.canonicalForm;
  }
  get typeName(): string {
    return this.kindName;
  }
  toJSON(): unknown {
    return this.json;
  }
}

/**
 * An object of a host class the language does not know (a class instance, a Map from the host).
 * Programs only ever print such objects (`#object[Name]`), so that is what is kept.
 */
const placeholderClasses = new Map<string, new () => object>();

function hostPlaceholder(name: string): object {
  let type = placeholderClasses.get(name);
  if (type === undefined) {
    // A class whose name is the original's, so it prints as #object[Name] like the original.
    type = { [name]: class {} }[name] as new () => object;
    placeholderClasses.set(name, type);
  }
  return new type();
}

/** JS objects the structured clone copies faithfully and the language treats as opaque. */
function isCloneableHostObject(value: object): boolean {
  return (
    value instanceof Date ||
    value instanceof RegExp ||
    value instanceof ArrayBuffer ||
    ArrayBuffer.isView(value)
  );
}

function tagged(tag: string, data: unknown): PlainObject {
  const record: PlainObject = Object.create(null);
  record[TRANSFER_TAG] = tag;
  record.d = data;
  return record;
}

function calledOutsideItsWorker(text: string): never {
  throw new LispError(
    "not_callable",
    `${text} was defined inside an isolated worker and cannot be called outside it; call it in the program that defined it`,
  );
}

const IN_PROGRESS: unique symbol = Symbol("in progress");

/** How to carry functions across: by default, their print info only (they cannot be called there). */
export interface TransferOptions {
  /**
   * Encoding: the data a function travels as (it reaches `decodeFunction` on the other side).
   * Default: its info record's plain fields, which rebuild a function that prints the same.
   */
  readonly encodeFunction?: (fn: (...args: unknown[]) => unknown, info: FunctionInfo | undefined) => unknown;
  /** Decoding: the function a transferred one stands for. Default: a look-alike that throws when called. */
  readonly decodeFunction?: (data: unknown) => unknown;
  /**
   * Encoding: refuse values nested deeper than this many collections. The receiving thread's
   * structured clone recurses once per level on its own stack; a value deeper than that stack
   * allows cannot be received at all, so the sender refuses it first, with an error that says so.
   */
  readonly maxDepth?: number;
}

function depthError(maxDepth: number): LispError {
  return new LispError(
    "recursion_limit_exceeded",
    `the value is nested more than ${maxDepth} collections deep, too deep to copy between threads`,
  );
}

function cycleError(): LispError {
  return new LispError(
    "invalid_options",
    "cannot copy a value that contains itself (a cycle) to or from an isolated worker; pass tree-shaped JSON data",
  );
}

/** The plain fields of a function's info record (name, signature, arity...), or null for a host function. */
export function infoData(info: FunctionInfo | undefined): Record<string, unknown> | null {
  if (info === undefined) return null;
  const data: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(info)) {
    if (field === null || (typeof field !== "object" && typeof field !== "function")) data[key] = field;
  }
  // A closure's info answers this from a getter on its class (compiler/closures.ts), which
  // Object.entries does not list.
  if (!("ownedAccumulator" in data) && info.ownedAccumulator !== undefined)
    data.ownedAccumulator = info.ownedAccumulator;
  return data;
}

class Encoder {
  private readonly memo = new Map<object, unknown>();
  private depth = 0;
  private readonly maxDepth: number;

  constructor(private readonly options: TransferOptions) {
    this.maxDepth = options.maxDepth ?? Number.POSITIVE_INFINITY;
  }

  encode(value: unknown): unknown {
    switch (typeof value) {
      case "string":
      case "number":
      case "boolean":
      case "bigint":
      case "undefined":
        return value;
      case "symbol":
        return tagged("host", "unknown");
      case "function":
        return this.encodeFunction(value as (...args: unknown[]) => unknown);
      default: {
        if (value === null) return null;
        const object = value as object;
        const known = this.memo.get(object);
        if (known !== undefined) {
          if (known === IN_PROGRESS) throw cycleError();
          return known;
        }
        this.memo.set(object, IN_PROGRESS);
        if (++this.depth > this.maxDepth) throw depthError(this.maxDepth);
        const encoded = this.encodeObject(object);
        this.depth--;
        this.memo.set(object, encoded);
        return encoded;
      }
    }
  }

  private encodeFunction(fn: (...args: unknown[]) => unknown): unknown {
    const info = (fn as Partial<LispFunction>)[FUNCTION_INFO];
    if (this.options.encodeFunction !== undefined) return tagged("fn", this.options.encodeFunction(fn, info));
    return tagged("fn", infoData(info));
  }

  private encodeObject(value: object): unknown {
    if (value instanceof Keyword) return tagged("keyword", value.name);
    if (value instanceof WholeFloat) return tagged("float", value.value);
    if (Array.isArray(value)) return this.encodeArray(value);
    if (value instanceof LispMap) {
      const entries = value.entries();
      const out = new Array<[unknown, unknown]>(entries.length);
      for (let i = 0; i < entries.length; i++) {
        const [key, item] = entries[i] as readonly [unknown, unknown];
        out[i] = [this.encode(key), this.encode(item)];
      }
      return tagged("map", out);
    }
    if (value instanceof LispSet)
      return tagged(
        "set",
        value.members().map((member) => this.encode(member)),
      );
    if (value instanceof CustomValue) return this.encodeCustom(value);
    if (isPlainObject(value)) return this.encodePlain(value);
    if (isCloneableHostObject(value)) return value;
    const name = (value as { constructor?: { name?: unknown } }).constructor?.name;
    return tagged("host", typeof name === "string" && name !== "" ? name : "Object");
  }

  /** The same array when no element needs rewriting; else a copy with the rewritten elements. */
  private encodeArray(value: readonly unknown[]): unknown {
    let out: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const item = value[i];
      const encoded =
        typeof item === "object" || typeof item === "function" || typeof item === "symbol"
          ? this.encode(item)
          : item;
      if (out === undefined && encoded !== item) out = value.slice(0, i);
      if (out !== undefined) out.push(encoded);
    }
    return out ?? value;
  }

  private encodePlain(value: PlainObject): unknown {
    const keys = Object.keys(value);
    let out: PlainObject | undefined;
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i] as string;
      const item = value[key];
      const encoded =
        typeof item === "object" || typeof item === "function" || typeof item === "symbol"
          ? this.encode(item)
          : item;
      if (out === undefined && encoded !== item) {
        out = Object.create(null) as PlainObject;
        for (let j = 0; j < i; j++) out[keys[j] as string] = value[keys[j] as string];
      }
      if (out !== undefined) out[key] = encoded;
    }
    // A host map that happens to use the tag key is escaped as a list of entries.
    if (Object.hasOwn(value, TRANSFER_TAG)) {
      const source = out ?? value;
      return tagged(
        "object",
        keys.map((key) => [key, source[key]]),
      );
    }
    return out ?? value;
  }

  private encodeCustom(value: CustomValue): unknown {
    for (const kind of kinds.values()) {
      if (kind.is(value)) return tagged(kind.tag, { k: kind.encode(value) });
    }
    return tagged("custom", {
      print: value.print(),
      text: value.text(),
      canonical: value.canonical(),
      type: value.typeName,
      json: this.encode(value.toJSON()),
    });
  }
}

class Decoder {
  private readonly memo = new Map<object, unknown>();

  constructor(private readonly options: TransferOptions) {}

  decode(value: unknown): unknown {
    if (typeof value !== "object" || value === null) return value;
    const known = this.memo.get(value);
    if (known !== undefined) return known;
    const decoded = this.decodeObject(value);
    this.memo.set(value, decoded);
    return decoded;
  }

  private decodeObject(value: object): unknown {
    if (Array.isArray(value)) return this.decodeArray(value);
    if (!isPlainObject(value)) return value; // Date, typed arrays: copied as they are
    if (!Object.hasOwn(value, TRANSFER_TAG)) return this.decodePlain(value);
    const data = value.d;
    switch (value[TRANSFER_TAG]) {
      case "keyword":
        return Keyword.of(String(data));
      case "float":
        return new WholeFloat(Number(data));
      case "map":
        return LispMap.from(
          (data as Array<[unknown, unknown]>).map(
            ([key, item]) => [this.decode(key), this.decode(item)] as const,
          ),
        );
      case "set":
        return LispSet.from((data as unknown[]).map((member) => this.decode(member)));
      case "object": {
        const out: PlainObject = {};
        for (const [key, item] of data as Array<[string, unknown]>) defineOwn(out, key, this.decode(item));
        return out;
      }
      case "fn":
        return this.options.decodeFunction !== undefined
          ? this.options.decodeFunction(data)
          : lookAlikeFunction(data as FunctionInfo | null);
      case "host":
        return hostPlaceholder(String(data));
      case "custom": {
        const record = data as {
          print: string;
          text: string;
          canonical: string;
          type: string;
          json: unknown;
        };
        return new TransferredValue(
          record.print,
          record.text,
          record.canonical,
          record.type,
          this.decode(record.json),
        );
      }
      default: {
        const tag = String(value[TRANSFER_TAG]);
        const kind = kinds.get(tag);
        if (kind === undefined)
          throw new LispError(
            "invalid_options",
            `cannot decode a transferred value of unknown kind "${tag}"`,
          );
        return kind.decode((data as { k: unknown }).k);
      }
    }
  }

  /** The same array when nothing inside needs rebuilding (it is already this thread's copy). */
  private decodeArray(value: unknown[]): unknown {
    let out: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const item = value[i];
      const decoded = typeof item === "object" && item !== null ? this.decode(item) : item;
      if (out === undefined && decoded !== item) out = value.slice(0, i);
      if (out !== undefined) out.push(decoded);
    }
    return out ?? value;
  }

  private decodePlain(value: PlainObject): unknown {
    // Objects arrive with null prototypes when the sender built them; hand the host ordinary ones.
    const plainProto = Object.getPrototypeOf(value) === Object.prototype;
    const keys = Object.keys(value);
    let out: PlainObject | undefined = plainProto ? undefined : {};
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i] as string;
      const item = value[key];
      const decoded = typeof item === "object" && item !== null ? this.decode(item) : item;
      if (out === undefined && decoded !== item) {
        out = {};
        for (let j = 0; j < i; j++) defineOwn(out, keys[j] as string, value[keys[j] as string]);
      }
      if (out !== undefined) defineOwn(out, key, decoded);
    }
    return out ?? value;
  }
}

/**
 * A function that prints like the original (`#fn[x]`) and throws when called: the default
 * decoding. `refuse` says why it cannot be called, given what it is ("the function f").
 */
export function lookAlikeFunction(
  info: FunctionInfo | null,
  refuse: (what: string) => never = calledOutsideItsWorker,
): unknown {
  if (info === null) {
    return () => refuse("this host function");
  }
  const what = info.builtin
    ? `the builtin ${info.name ?? ""}`.trimEnd()
    : `the function ${info.name ?? `#fn[${info.signature ?? ""}]`}`;
  return brandFunction(() => refuse(what), { ...info });
}

/** A structured-clone-safe form of `value` (see the module comment). */
export function encodeValue(value: unknown, options: TransferOptions = {}): EncodedValue {
  return new Encoder(options).encode(value);
}

/** Rebuilds a value encoded by `encodeValue` (after the structured clone). */
export function decodeValue(encoded: EncodedValue, options: TransferOptions = {}): unknown {
  return new Decoder(options).decode(encoded);
}
